// Bundles src/ into ES modules with the wasm bytes inlined, so the result
// loads in Node and in browsers with no bundler and no file paths.
//
// Every package entry is built in one pass with code splitting: what two
// entries share sits in dist/chunks/ once, so each concept's wasm module, its
// loaded state and SpatialError are one across entries (a RegionRoom from
// spatialkit/colyseus-regions runs the Scene class of spatialkit), and an
// entry carries only what it uses (the browser client: no wasm, no server
// code). @colyseus/* stay the user's own packages.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ENTRIES } from './entries.mjs';
import { esbuildOptions } from './esbuild-options.mjs';

rmSync('dist/chunks', { recursive: true, force: true });
const split = await build({
  ...esbuildOptions,
  entryPoints: ENTRIES,
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'neutral',
  external: ['@colyseus/*'],
  write: false,
});
// esbuild imports every chunk an entry spans, some only to keep their order
// of evaluation ('import "./chunks/..."'). No module here has side effects
// (package.json says so), so those imports are dropped: a user's esbuild
// would warn about each one.
for (const file of split.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.text.replace(/^import "\.[^"]*";\n/gm, ''));
}
