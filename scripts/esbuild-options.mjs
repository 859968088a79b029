/** Shared esbuild options: es2022 keeps base64 decoding to APIs Node 20 has. */
export const esbuildOptions = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  loader: { '.wasm': 'binary' },
  logLevel: 'warning',
};
