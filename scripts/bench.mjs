// Bundles the benchmark runner (TypeScript, importing src/ directly) and runs
// it in this process, passing the command line through.
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { esbuildOptions } from './esbuild-options.mjs';

const outfile = resolve('build/bench.mjs');
await build({
  ...esbuildOptions,
  entryPoints: ['bench/run.ts'],
  outfile,
  platform: 'node',
  packages: 'external',
});
await import(pathToFileURL(outfile).href);
