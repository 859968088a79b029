// QuadTree.cells(): the tree's shape made visible. Worked examples, the
// shape facts cells must obey (split leaves tile the tree's area, the bounds
// doubled as items need; fixed cells hold items), and wasm and js giving the same cells after identical random
// operation sequences, with bounds and without.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/random.js';
import { init, QuadTree, type QuadTreeBounds, type QuadTreeMode } from '../../src/index.js';

beforeAll(() => init());

type Rect = [number, number, number, number];
const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
const backends = ['wasm', 'js'] as const;

/** Cells as rects, sorted, so trees can be compared whatever the order. */
function cellList(tree: QuadTree): Rect[] {
  const flat = tree.cells();
  expect(flat).toBeInstanceOf(Float64Array);
  expect(flat.length % 4).toBe(0);
  const out: Rect[] = [];
  for (let i = 0; i < flat.length; i += 4) out.push([flat[i], flat[i + 1], flat[i + 2], flat[i + 3]]);
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
}

const boundsRect = (b: QuadTreeBounds): Rect => [b.minX, b.minY, b.maxX, b.maxY];

describe.each(backends)('QuadTree.cells (%s backend)', (backend) => {
  it('an empty tree is one cell equal to its bounds, in both modes, and again after clear', () => {
    for (const mode of ['split', 'fixed'] as const) {
      const tree = new QuadTree({ bounds, mode, capacity: 1, depth: 3, backend });
      expect(cellList(tree)).toEqual([[0, 0, 100, 100]]);
      tree.insert(1, 10, 10, 12, 12);
      tree.insert(2, 80, 80, 82, 82);
      expect(cellList(tree).length, `${mode}: more cells once it holds items`).toBeGreaterThan(1);
      tree.clear();
      expect(cellList(tree)).toEqual([[0, 0, 100, 100]]);
      tree.dispose();
    }
  });

  it('seed example: after the sixth insert splits the root, the cells are its four quadrants', () => {
    const tree = new QuadTree({ bounds, capacity: 5, backend });
    const items: Rect[] = [[10, 10, 20, 20], [70, 10, 80, 20], [10, 70, 20, 80], [70, 70, 80, 80], [40, 10, 60, 20]];
    items.forEach((r, i) => tree.insert(i + 1, ...r));
    expect(cellList(tree)).toEqual([[0, 0, 100, 100]]);
    tree.insert(6, 45, 15, 55, 25);
    expect(cellList(tree)).toEqual([
      [0, 0, 50, 50],
      [0, 50, 50, 100],
      [50, 0, 100, 50],
      [50, 50, 100, 100],
    ]);
    // The quadrants merge back once they hold at most half the capacity (2 of
    // 5): after 4 leaves only 5 and 6, which straddle x = 50.
    for (let id = 1; id <= 3; id++) tree.remove(id);
    expect(cellList(tree).length).toBe(4);
    tree.remove(4);
    expect(cellList(tree)).toEqual([[0, 0, 100, 100]]);
    expect(tree.pairs()).toEqual([[5, 6]]);
    tree.remove(5);
    tree.remove(6);
    expect(cellList(tree)).toEqual([[0, 0, 100, 100]]);
    tree.setBounds({ minX: -10, minY: 0, maxX: 10, maxY: 40 });
    expect(cellList(tree)).toEqual([[-10, 0, 10, 40]]);
    tree.dispose();
  });

  it("fixed mode: the root and the nodes that hold items, each listed once", () => {
    const tree = new QuadTree({ bounds, mode: 'fixed', depth: 3, backend });
    tree.insert(1, 0, 0, 100, 100); // stays in the root
    expect(cellList(tree)).toEqual([[0, 0, 100, 100]]);
    tree.insert(2, 10, 10, 12, 12); // small: the deepest node around it
    tree.insert(3, 11, 11, 13, 13); // the same node
    tree.insert(4, 80, 60, 81, 61);
    expect(cellList(tree)).toEqual([
      [0, 0, 25, 25],
      [0, 0, 100, 100],
      [75, 50, 100, 75],
    ]);
    tree.remove(4);
    expect(cellList(tree)).toEqual([
      [0, 0, 25, 25],
      [0, 0, 100, 100],
    ]);
    tree.dispose();
  });

  it('returns a fresh copy each call', () => {
    const tree = new QuadTree({ bounds, backend });
    const first = tree.cells();
    first[0] = 42;
    expect(Array.from(tree.cells())).toEqual([0, 0, 100, 100]);
    tree.dispose();
  });

  it('throws DISPOSED after dispose', () => {
    const tree = new QuadTree({ bounds, backend });
    tree.dispose();
    expect(() => tree.cells()).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
  });
});

// ---- parity and shape facts on random sequences ----

const coord = fc.oneof(
  fc.integer({ min: -20, max: 120 }),
  fc.integer({ min: -2, max: 10 }).map((v) => v * 12.5), // split lines of the usual bounds
);
const extent = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 8 }).map((v) => v / 4));
const rect = fc.tuple(coord, coord, extent, extent).map(([x, y, w, h]): Rect => [x, y, x + w, y + h]);
const id = fc.integer({ min: 0, max: 60 });

const op = fc.oneof(
  { weight: 30, arbitrary: fc.record({ kind: fc.constant('insert' as const), id, rect }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('insertMany' as const), items: fc.uniqueArray(fc.record({ id, rect }), { maxLength: 40, selector: (item) => item.id }) }) },
  { weight: 20, arbitrary: fc.record({ kind: fc.constant('update' as const), id, rect }) },
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('capacity' as const), capacity: fc.integer({ min: 1, max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('bounds' as const), rect: fc.option(rect, { nil: null, freq: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeAll' as const) }) },
);
type Op = typeof op extends fc.Arbitrary<infer O> ? O : never;

const config = fc.record({
  mode: fc.constantFrom<QuadTreeMode>('split', 'fixed'),
  capacity: fc.integer({ min: 1, max: 6 }),
  maxDepth: fc.integer({ min: 1, max: 8 }),
  depth: fc.integer({ min: 1, max: 5 }),
  bounds: fc.constantFrom<Rect | null>([0, 0, 100, 100], [0, 0, 64, 32], [-50, 0, 50, 100], null),
});

const boundsOf = (r: Rect | null): QuadTreeBounds | undefined => (r === null ? undefined : { minX: r[0], minY: r[1], maxX: r[2], maxY: r[3] });

/** Applies op to both trees and to the model of their items; what a tree would reject is left out. */
function apply(trees: QuadTree[], items: Map<number, Rect>, o: Op): void {
  switch (o.kind) {
    case 'insert':
    case 'update':
      if (items.has(o.id) === (o.kind === 'update')) {
        for (const tree of trees) tree[o.kind](o.id, ...o.rect);
        items.set(o.id, o.rect);
      }
      break;
    case 'insertMany': {
      const fresh = o.items.filter((item) => !items.has(item.id));
      for (const tree of trees) tree.insertMany(fresh.map((item) => item.id), fresh.flatMap((item) => item.rect));
      for (const item of fresh) items.set(item.id, item.rect);
      break;
    }
    case 'remove':
      for (const tree of trees) tree.remove(o.id);
      items.delete(o.id);
      break;
    case 'removeAll':
      for (const key of items.keys()) for (const tree of trees) tree.remove(key);
      items.clear();
      break;
    case 'capacity':
      for (const tree of trees) tree.setCapacity(o.capacity);
      break;
    case 'bounds':
      for (const tree of trees) tree.setBounds(boundsOf(o.rect));
      break;
  }
}

/** How many halvings of `whole` give `part` (exact for the coordinates used here), or -1. */
function halvings(whole: number, part: number): number {
  for (let k = 0, size = whole; k <= 64; k++, size /= 2) if (size === part) return k;
  return -1;
}

/**
 * What cells must be, whatever the history. The tree's area (the cells'
 * extent) holds every item; with bounds b it is b doubled k times, b one of
 * its 4^k sub-squares; without, a square (or, before the tree picked one,
 * the whole plane). Split leaves tile the area;
 * fixed cells are quadrants at most `fixedDepth` levels deep, each holding
 * an item.
 */
function expectShape(tree: QuadTree, b: Rect | null, items: Map<number, Rect>, fixedDepth: number): void {
  const cells = cellList(tree);
  const area: Rect = [Math.min(...cells.map((c) => c[0])), Math.min(...cells.map((c) => c[1])), Math.max(...cells.map((c) => c[2])), Math.max(...cells.map((c) => c[3]))];
  const [minX, minY, maxX, maxY] = area;
  for (const r of items.values()) expect(r[0] >= minX && r[1] >= minY && r[2] <= maxX && r[3] <= maxY, `item ${r} inside area ${area}`).toBe(true);
  if (b === null && !Number.isFinite(minX)) {
    expect(cells, 'a tree with no area yet is one cell, the plane').toEqual([[-Infinity, -Infinity, Infinity, Infinity]]);
    return;
  }
  if (b === null) {
    expect(maxX - minX, 'the area picked is a square').toBe(maxY - minY);
  } else {
    const [w, h] = [b[2] - b[0], b[3] - b[1]];
    if (w > 0 && h > 0) {
      const k = halvings(maxX - minX, w);
      expect(k, `area ${area} is bounds ${b} doubled`).toBeGreaterThanOrEqual(0);
      expect(halvings(maxY - minY, h)).toBe(k);
      expect(Number.isInteger((b[0] - minX) / w) && Number.isInteger((b[1] - minY) / h), 'on the bounds grid').toBe(true);
    }
  }
  const sized = maxX > minX && maxY > minY; // else every cell is as thin as the area
  const level = (c: Rect): number => {
    if (!sized) return 0;
    const k = halvings(maxX - minX, c[2] - c[0]);
    expect(k, `cell ${c} is a quadrant of ${area}`).toBeGreaterThanOrEqual(0);
    expect(halvings(maxY - minY, c[3] - c[1])).toBe(k);
    return k;
  };
  if (tree.mode === 'split') {
    expect(cells.length % 3, 'each split adds three cells, each merge takes three').toBe(1);
    // The leaves tile the area: no two overlap, and their areas add up to its own.
    const overlaps = cells.flatMap((c, i) => cells.slice(i + 1).filter((d) => c[0] < d[2] && d[0] < c[2] && c[1] < d[3] && d[1] < c[3]).map((d) => [c, d]));
    expect(overlaps, 'cells that overlap').toEqual([]);
    const sum = cells.reduce((total, c) => total + (c[2] - c[0]) * (c[3] - c[1]), 0);
    expect(sum).toBeCloseTo((maxX - minX) * (maxY - minY), 6);
  } else {
    expect(cells).toContainEqual(area);
    for (const c of cells) {
      expect(level(c)).toBeLessThan(fixedDepth);
      if (c.every((v, i) => v === area[i])) continue;
      // An item lives where its rect fits the node's loose region: the cell grown by half its size per side.
      const [hw, hh] = [(c[2] - c[0]) / 2, (c[3] - c[1]) / 2];
      const holds = [...items.values()].some((r) => {
        const cx = r[0] * 0.5 + r[2] * 0.5, cy = r[1] * 0.5 + r[3] * 0.5;
        return cx >= c[0] - hw && cx <= c[2] + hw && cy >= c[1] - hh && cy <= c[3] + hh;
      });
      expect(holds, `fixed cell ${c} holds an item`).toBe(true);
    }
  }
}

describe('QuadTree.cells parity: wasm and js build the same trees', () => {
  it('agree cell for cell, in the same order, after every random insert / insertMany / update / remove / setCapacity / setBounds, with bounds and without', () => {
    fc.assert(
      fc.property(config, fc.array(op, { maxLength: 60, size: 'max' }), (cfg, ops) => {
        let b = cfg.bounds;
        const options = { bounds: boundsOf(b), mode: cfg.mode, capacity: cfg.capacity, maxDepth: cfg.maxDepth, depth: cfg.depth };
        const trees = backends.map((backend) => new QuadTree({ ...options, backend }));
        const items = new Map<number, Rect>();
        try {
          for (const o of ops) {
            apply(trees, items, o);
            if (o.kind === 'bounds') b = o.rect;
            expect(Array.from(trees[1].cells())).toEqual(Array.from(trees[0].cells()));
          }
          expectShape(trees[0], b, items, cfg.depth);
        } finally {
          for (const tree of trees) tree.dispose();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('agree on a bulk-built tree of thousands of items, before and after moves', () => {
    const random = mulberry32(7);
    const count = 5000;
    const rects = new Float64Array(count * 4);
    for (let i = 0; i < rects.length; i += 4) {
      const x = random() * 990, y = random() * 990;
      rects.set([x, y, x + 4, y + 9], i);
    }
    const ids = Int32Array.from({ length: count }, (_, i) => i);
    const trees = backends.map((backend) => new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, capacity: 16, backend }));
    for (const tree of trees) tree.insertMany(ids, rects);
    expect(cellList(trees[0]).length).toBeGreaterThan(100);
    expect(Array.from(trees[1].cells())).toEqual(Array.from(trees[0].cells()));
    // Mirrored left to right: most items change leaves.
    const moved = new Float64Array(rects.length);
    for (let i = 0; i < rects.length; i += 4) moved.set([994 - rects[i], rects[i + 1], 998 - rects[i], rects[i + 3]], i);
    for (const tree of trees) tree.updateMany(ids, moved);
    expect(Array.from(trees[1].cells())).toEqual(Array.from(trees[0].cells()));
    const items = new Map(Array.from(ids, (i): [number, Rect] => [i, [moved[4 * i], moved[4 * i + 1], moved[4 * i + 2], moved[4 * i + 3]]]));
    expectShape(trees[0], [0, 0, 1000, 1000], items, 0);
    for (const tree of trees) tree.dispose();
  });
});
