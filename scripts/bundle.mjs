// Bundles src/ into one ES module with the wasm bytes inlined, so the result
// loads in Node and in browsers with no bundler and no file paths.
import { build } from 'esbuild';
import { esbuildOptions } from './esbuild-options.mjs';

await build({
  ...esbuildOptions,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  platform: 'neutral',
});
