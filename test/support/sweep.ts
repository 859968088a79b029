// How much of a long sweep a run takes. `npm test` takes a share of every
// long randomized run and every n-th Moving AI scenario, so the whole suite
// runs in minutes; `npm run test:full` (SPATIALKIT_TEST=full) takes all of
// it and is run before a release. fast-check draws new seeds on every run,
// so the shares taken by successive runs cover the rest over time.
export const FULL = process.env.SPATIALKIT_TEST === 'full';

/** fast-check runs for a property that a full run checks `n` times: a quarter of them in `npm test`. */
export function runs(n: number): number {
  return FULL ? n : Math.max(1, Math.ceil(n / 4));
}

/** Every `quick`-th item of a scenario list in `npm test`, every one in a full run. */
export function stride(quick: number): number {
  return FULL ? 1 : quick;
}
