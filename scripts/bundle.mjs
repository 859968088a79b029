// Bundles src/ into ES modules with the wasm bytes inlined, so the result
// loads in Node and in browsers with no bundler and no file paths.
// dist/colyseus.js (the 'spatialkit/colyseus' subpath) imports the main entry
// as 'spatialkit' instead of a copy of it, so both share one wasm module and
// one SpatialError; @colyseus/* stay the user's own packages.
import { build } from 'esbuild';
import { esbuildOptions } from './esbuild-options.mjs';

await build({
  ...esbuildOptions,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  platform: 'neutral',
});

/** Resolves the subpath's imports of './index.js' and './errors.js' to the package's main entry (which exports SpatialError). */
const mainEntryAsPackage = {
  name: 'main-entry-as-package',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/(index|errors)\.js$/ }, () => ({ path: 'spatialkit', external: true }));
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
