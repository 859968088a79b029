// 1,000,000 items: a lattice whose query hits and pair count are known exactly.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, QuadTree } from '../../src/index.js';

beforeAll(() => init());

const SIDE = 1000; // SIDE x SIDE items, item (i, j) at x = i, y = j
const N = SIDE * SIDE;

function lattice(size: number): { ids: Int32Array; rects: Float64Array } {
  const ids = new Int32Array(N);
  const rects = new Float64Array(N * 4);
  for (let k = 0; k < N; k++) {
    const i = k % SIDE, j = Math.floor(k / SIDE);
    ids[k] = k;
    rects.set([i, j, i + size, j + size], k * 4);
  }
  return { ids, rects };
}

describe.each(['wasm', 'js'] as const)('QuadTree with 1,000,000 items (%s backend)', (backend) => {
  it('finds exact query hits and pair counts on a lattice, before and after every item grows', () => {
    const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: SIDE, maxY: SIDE }, capacity: 16, backend });
    const small = lattice(0.5); // gaps of 0.5: nothing touches
    tree.insertMany(small.ids, small.rects);
    expect(tree.size).toBe(N);
    expect(tree.pairIds().length).toBe(0);
    // Items with i, j in 10..19 meet the box [10, 19.25]^2.
    expect(tree.query(10, 10, 19.25, 19.25)).toEqual(
      Array.from({ length: 100 }, (_, k) => (10 + Math.floor(k / 10)) * SIDE + 10 + (k % 10)),
    );
    // Unit squares share edges and corners with their neighbours: closed intersection counts them all.
    tree.updateMany(small.ids, lattice(1).rects);
    const edges = 2 * SIDE * (SIDE - 1);
    const corners = 2 * (SIDE - 1) * (SIDE - 1);
    expect(tree.pairIds().length / 2).toBe(edges + corners);
    expect(tree.query(500, 500, 500, 500).sort((a, b) => a - b)).toEqual([499499, 499500, 500499, 500500]);
    tree.dispose();
  });
});
