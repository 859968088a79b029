// The event flood for real, in a child process per backend (the js backend
// used to kill its process, the wasm one to throw a raw allocator error with
// the batch half applied): 10,000 entities appearing at one point would make
// about 10^8 enter events, past the default maxPendingEvents. The batch is
// refused whole and the scene goes on. Runs the built bundle.
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';

it.each([
  ['wasm', 'lists'],
  ['js', 'grid'],
] as const)('%s backend, %s index: an addMany of 10,000 at one point is refused with LIMIT_EXCEEDED, keeping what was pending', (backend, index) => {
  const out = execFileSync(process.execPath, ['test/fixtures/scene-flood.mjs', backend, index], { encoding: 'utf8' });
  expect(JSON.parse(out)).toEqual({
    code: 'LIMIT_EXCEEDED',
    size: 2,
    // The two entities see each other: two enter events, still pending after the refusal.
    pending: 6,
    sees: [100_001],
    // Then 100 of the crowd join: 102 entities who all see each other, 101 * 102 enter events in all.
    after: 102,
    afterPending: 101 * 102,
  });
}, 300_000);
