import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ENTRIES } from './scripts/entries.mjs';

// Tests import src/ directly; this plugin does for .wasm and .wasm.gz what
// esbuild's loaders do in the bundle: the import yields the file's bytes
// (.wasm) or its base64 (.wasm.gz).
const wasmBytes = {
  name: 'wasm-bytes',
  enforce: 'pre' as const,
  load(id: string) {
    if (!id.endsWith('.wasm') && !id.endsWith('.wasm.gz')) return null;
    const base64 = readFileSync(id).toString('base64');
    if (id.endsWith('.gz')) return `export default ${JSON.stringify(base64)};`;
    return `export default Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));`;
  },
};

// Code that imports the package by name (the Colyseus example) gets src/ too,
// so a test sees one copy of every class.
const source = (file: string): string => fileURLToPath(new URL(`./${file}`, import.meta.url));
const entryAliases = Object.entries(ENTRIES).map(([name, file]) => ({
  find: new RegExp(`^spatialkit${name === 'index' ? '' : `/${name}`}$`),
  replacement: source(file),
}));

// `vitest run --mode full` (npm run test:full) runs every long sweep whole;
// the default takes a share of each (test/support/sweep.ts).
export default defineConfig(({ mode }) => ({
  plugins: [wasmBytes],
  resolve: {
    alias: entryAliases,
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on two cores that runs
    // the files one at a time. The long files (the Moving AI scenarios) are CPU
    // bound, so two files side by side take two thirds of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    env: { SPATIALKIT_TEST: mode === 'full' ? 'full' : 'quick' },
    // What a passing test prints is noise; a failing test's output is kept.
    silent: 'passed-only',
  },
}));
