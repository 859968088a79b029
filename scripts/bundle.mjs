// Bundles src/ into ES modules with the wasm bytes inlined, so the result
// loads in Node and in browsers with no bundler and no file paths.
//
// The main entry (dist/index.js), the concept entries (dist/scene.js,
// dist/quadtree.js, dist/graph.js, dist/gridmap.js) and the browser client of
// region rooms (dist/colyseus-client.js) are built together with code
// splitting: what two entries share sits in dist/chunks/ once, so each
// concept's wasm module, its loaded state and SpatialError are one across
// entries, and an entry carries only what it uses (the client: no wasm).
//
// dist/colyseus.js (the 'spatialkit/colyseus' subpath) imports the main entry
// as 'spatialkit' instead of a copy of it, so both share one wasm module and
// one SpatialError; @colyseus/* stay the user's own packages.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { esbuildOptions } from './esbuild-options.mjs';

rmSync('dist/chunks', { recursive: true, force: true });
const split = await build({
  ...esbuildOptions,
  entryPoints: {
    index: 'src/index.ts',
    scene: 'src/scene/index.ts',
    quadtree: 'src/quadtree/index.ts',
    graph: 'src/graph/index.ts',
    gridmap: 'src/gridmap/index.ts',
    'colyseus-client': 'src/colyseus-client.ts',
  },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'neutral',
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

/**
 * Resolves the subpath's imports of the main entry ('./index.js' and
 * './errors.js', from src/; '../index.js', from src/colyseus/) to the
 * package's main entry (which exports SpatialError), and of the regions
 * entry to 'spatialkit/regions': one RegionPeer class whichever entry names it.
 */
const mainEntryAsPackage = {
  name: 'main-entry-as-package',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/(index|errors)\.js$/ }, () => ({ path: 'spatialkit', external: true }));
    const fromAdapter = { filter: /^\.\.\/(regions\/)?index\.js$/ };
    pluginBuild.onResolve(fromAdapter, (args) =>
      /[\\/]src[\\/]colyseus[\\/]/.test(args.importer) ? { path: args.path.includes('regions') ? 'spatialkit/regions' : 'spatialkit', external: true } : undefined,
    );
  },
};

await build({
  ...esbuildOptions,
  entryPoints: ['src/colyseus.ts'],
  outfile: 'dist/colyseus.js',
  platform: 'neutral',
  external: ['@colyseus/*'],
  plugins: [mainEntryAsPackage],
});

// dist/colyseus-regions.js: the region room, which needs @colyseus/core; the regions entry stays 'spatialkit/regions'.
await build({
  ...esbuildOptions,
  entryPoints: ['src/colyseus-regions.ts'],
  outfile: 'dist/colyseus-regions.js',
  platform: 'neutral',
  external: ['@colyseus/*'],
  plugins: [mainEntryAsPackage],
});

/** Resolves the regions subpath's imports of '../index.js' to the package's main entry, as for the Colyseus subpath. */
const parentEntryAsPackage = {
  name: 'parent-entry-as-package',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: 'spatialkit', external: true }));
  },
};

await build({
  ...esbuildOptions,
  entryPoints: ['src/regions/index.ts'],
  outfile: 'dist/regions.js',
  platform: 'neutral',
  plugins: [parentEntryAsPackage],
});
