// npm run fuzz [-- operations [seed]]: bundles the fuzz runner (TypeScript,
// importing src/ and the test oracles directly) and runs it in this process.
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { esbuildOptions } from './esbuild-options.mjs';

const outfile = resolve('build/fuzz.mjs');
await build({
  ...esbuildOptions,
  entryPoints: ['test/fuzz/main.ts'],
  outfile,
  platform: 'node',
  packages: 'external',
});
await import(pathToFileURL(outfile).href);
