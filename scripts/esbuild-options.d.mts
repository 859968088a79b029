// The types of esbuild-options.mjs, for the TypeScript that bundles with the
// same options (the tests and benches that start processes of their own).
import type { BuildOptions } from 'esbuild';

export declare const esbuildOptions: BuildOptions;
