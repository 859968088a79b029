// Objects dropped without dispose() give their wasm memory back once the
// garbage collector takes them, and later objects reuse it: a server that
// makes a scene or a grid per room or request and forgets to dispose of it
// stays within twice the memory of one that disposes of each (the built
// package, in fresh processes, with collections forced as a busy server's
// allocations would trigger them).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const entry = pathToFileURL(resolve(root, 'dist/index.js')).href;
const loop = resolve(__dirname, 'reclaim/loop.mjs');

/** Peak resident memory, in MiB, of a process running one loop. */
async function peakMiB(kind: string, how: 'dispose' | 'drop'): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', loop, entry, kind, how], { encoding: 'utf8' });
  return Number(stdout);
}

describe('wasm memory of objects dropped without dispose()', () => {
  it.each([
    ['20,000 scenes of 50 entities', 'scene'],
    ['200 512 x 512 grids with one search each', 'gridmap'],
    ['2,000 quadtrees of 1,000 rects with their pairs and a batch query', 'quadtree'],
    ['2,000 static quadtrees of 1,000 rects with a batch query', 'static'],
    ['1,000 graphs of 4,000 edges with one path each', 'graph'],
  ])('%s: dropped, they stay within twice the memory of disposed ones', async (_, kind) => {
    const [disposed, dropped] = await Promise.all([peakMiB(kind, 'dispose'), peakMiB(kind, 'drop')]);
    expect(disposed).toBeGreaterThan(0);
    expect(dropped, `${kind}: ${dropped.toFixed(0)} MiB dropped, ${disposed.toFixed(0)} MiB disposed`).toBeLessThanOrEqual(2 * disposed);
  });
});
