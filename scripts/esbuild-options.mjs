/**
 * Shared esbuild options: es2022 keeps base64 decoding to APIs Node 20 has;
 * keepNames is off: it names every function in the code a user bundles; the
 * public classes keep their names themselves (keepName in src/core/inspect.ts).
 */
export const esbuildOptions = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  loader: { '.wasm': 'binary', '.gz': 'base64' },
  logLevel: 'warning',
};
