// Bundles one TypeScript entry (packages stay external, so 'spatialkit'
// resolves to this package's dist/) into build/ and runs it in this process:
// `node scripts/run-ts.mjs examples/colyseus-server/main.ts [args...]`.
import { build } from 'esbuild';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { esbuildOptions } from './esbuild-options.mjs';

const entry = process.argv[2];
if (entry === undefined) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args...]');
  process.exit(1);
}
const outfile = resolve('build', `run-${basename(entry, '.ts')}.mjs`);
await build({ ...esbuildOptions, entryPoints: [entry], outfile, platform: 'node', packages: 'external' });
process.argv.splice(2, 1);
await import(pathToFileURL(outfile).href);
