/**
 * Shared esbuild options: es2022 keeps base64 decoding to APIs Node 20 has;
 * keepNames keeps class names as written (bundling would print Scene as
 * _Scene in stack traces and console output).
 */
export const esbuildOptions = {
  keepNames: true,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  loader: { '.wasm': 'binary', '.gz': 'binary' },
  logLevel: 'warning',
};
