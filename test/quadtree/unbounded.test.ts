// A QuadTree needs no bounds and has no cliff beyond them: its area (the
// extent of its cells) holds every item, grows by doubling towards items
// beyond it, and is picked from the items when there are no bounds; leaves
// merge back as items leave, and an emptied tree is as new. Worked examples
// on both backends, checked against the brute-force oracle.
import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/random.js';
import { init, QuadTree, type QuadTreeOptions } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { RectOracle, type Rect } from './rect-oracle.js';

beforeAll(() => init());

const backends = ['wasm', 'js'] as const;

/** The extent of the tree's cells: its area. */
function areaOf(tree: QuadTree): Rect {
  const c = tree.cells();
  const area: Rect = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < c.length; i += 4) {
    area[0] = Math.min(area[0], c[i]);
    area[1] = Math.min(area[1], c[i + 1]);
    area[2] = Math.max(area[2], c[i + 2]);
    area[3] = Math.max(area[3], c[i + 3]);
  }
  return area;
}

const cellCount = (tree: QuadTree): number => tree.cells().length / 4;

/** n small squares spread uniformly over [0, side]^2, the same for a given seed. */
function scatter(n: number, side: number, seed = 1): Rect[] {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const x = random() * (side - 5), y = random() * (side - 5);
    return [x, y, x + 5, y + 5];
  });
}

function fill(tree: QuadTree, rects: Rect[], oracle?: RectOracle): void {
  rects.forEach((r, i) => {
    tree.insert(i, ...r);
    oracle?.insert(i, r);
  });
}

/** Every answer of the tree agrees with the oracle's. */
function expectAnswers(tree: QuadTree, oracle: RectOracle): void {
  expect(tree.size).toBe(oracle.rects.size);
  expect(tree.pairs()).toEqual(oracle.pairs());
  for (const box of [[-1e9, -1e9, 1e9, 1e9], [100, 100, 300, 250], [2000, -50, 2100, 60]] as Rect[]) expect(tree.query(...box)).toEqual(oracle.query(box));
  expect(tree.nearest(150, 150, 5)).toEqual(oracle.nearest(150, 150, 5));
}

describe.each(backends)('QuadTree without bounds (%s backend)', (backend) => {
  it('new QuadTree() is one cell, the plane, until its items outnumber the capacity; then the square on their low corner', () => {
    const tree = new QuadTree({ capacity: 4, backend });
    expect(Array.from(tree.cells())).toEqual([-Infinity, -Infinity, Infinity, Infinity]);
    expect(tree.depth).toBe(1);
    const rects: Rect[] = [[10, 20, 12, 22], [48, 28, 50, 30], [30, 25, 31, 26], [20, 20, 20, 20]];
    const oracle = new RectOracle();
    fill(tree, rects, oracle);
    expect(cellCount(tree)).toBe(1);
    expect(areaOf(tree)).toEqual([-Infinity, -Infinity, Infinity, Infinity]);
    tree.insert(4, 25, 24, 27, 26);
    oracle.insert(4, [25, 24, 27, 26]);
    // Five items spanning [10, 50] x [20, 30]: a square of side 40 from (10, 20).
    expect(areaOf(tree)).toEqual([10, 20, 50, 60]);
    expect(tree.depth).toBe(2);
    expectAnswers(tree, oracle);
    tree.dispose();
  });

  it('an item beyond the area doubles it towards the item, as often as it takes', () => {
    const tree = new QuadTree({ capacity: 4, backend });
    fill(tree, [[10, 20, 12, 22], [48, 28, 50, 30], [30, 25, 31, 26], [20, 20, 20, 20], [25, 24, 27, 26]]);
    tree.insert(5, 100, 25, 101, 26);
    // Right and down (its centre is below the area's), then right and up: [10, -20, 90, 60], then [10, -20, 170, 140].
    expect(areaOf(tree)).toEqual([10, -20, 170, 140]);
    // Three more doublings: left and down, left and up, left and down.
    tree.update(5, -500, 25, -499, 26);
    expect(areaOf(tree)).toEqual([-1110, -820, 170, 460]);
    expect(tree.query(-500, 25, -500, 25)).toEqual([5]);
    tree.dispose();
  });

  it.each(['split', 'fixed'] as const)("answers as brute force does, filled one by one and in bulk (%s mode)", (mode) => {
    const rects = scatter(600, 2000, 3).map(([x0, y0, x1, y1]): Rect => [x0 - 700, y0 + 300, x1 - 700, y1 + 300]);
    const oracle = new RectOracle();
    const single = new QuadTree({ mode, capacity: 8, backend });
    fill(single, rects, oracle);
    expectAnswers(single, oracle);
    const bulk = new QuadTree({ mode, capacity: 8, backend });
    bulk.insertMany(rects.map((_, i) => i), rects.flat());
    expectAnswers(bulk, oracle);
    for (const tree of [single, bulk]) {
      const [minX, minY, maxX, maxY] = areaOf(tree);
      expect(maxX - minX).toBe(maxY - minY);
      for (const r of rects) expect(r[0] >= minX && r[1] >= minY && r[2] <= maxX && r[3] <= maxY).toBe(true);
      if (mode === 'fixed') expect(tree.depth, "pre-split to 'depth' once it has an area").toBe(8);
      tree.dispose();
    }
  });

  it("'fixed' mode keeps its items in the root until they outnumber the capacity, then pre-splits the square around them", () => {
    const tree = new QuadTree({ mode: 'fixed', depth: 3, capacity: 2, backend });
    tree.insert(1, 0, 0, 1, 1);
    tree.insert(2, 8, 2, 9, 3);
    expect(tree.depth).toBe(1);
    tree.insert(3, 4, 4, 5, 5);
    expect(tree.depth).toBe(3);
    expect(areaOf(tree)).toEqual([0, 0, 9, 9]);
    expect(tree.query(0, 0, 4, 4)).toEqual([1, 3]);
    tree.dispose();
  });

  it('items sharing one point pick no area; the tree looks again each time their count doubles', () => {
    const tree = new QuadTree({ capacity: 2, backend });
    for (let id = 0; id < 50; id++) tree.insert(id, 7, 7, 7, 7);
    expect(cellCount(tree)).toBe(1);
    expect(tree.pairIds().length / 2).toBe((50 * 49) / 2);
    // They last shared a point at 48 items: the next look is at 96.
    for (let id = 50; id < 95; id++) tree.insert(id, 9, 8, 10, 9);
    expect(cellCount(tree)).toBe(1);
    tree.insert(95, 9, 8, 10, 9);
    expect(areaOf(tree)).toEqual([7, 7, 10, 10]);
    expect(tree.query(8, 8, 10, 10).length).toBe(46);
    tree.dispose();
  });
});

describe.each(backends)('QuadTree with items beyond its bounds (%s backend)', (backend) => {
  it('keeps the bounds as a hint: the area is the bounds doubled, on their grid', () => {
    const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, capacity: 8, backend });
    const rects = scatter(2000, 1000);
    fill(tree, rects);
    const [minX, minY, maxX, maxY] = areaOf(tree);
    // Four doublings take 100 to 1600, the least power of two times 100 that spans [0, 1000].
    expect([maxX - minX, maxY - minY]).toEqual([1600, 1600]);
    expect(Number.isInteger(minX / 100) && Number.isInteger(minY / 100)).toBe(true);
    for (const r of rects) expect(r[0] >= minX && r[1] >= minY && r[2] <= maxX && r[3] <= maxY).toBe(true);
    tree.dispose();
  });

  it('is no deeper and no bigger than a tree with the right bounds: no cliff', () => {
    const rects = scatter(5000, 1000);
    const right = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, backend });
    const small = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, backend });
    const none = new QuadTree({ backend });
    for (const tree of [right, small, none]) fill(tree, rects);
    for (const tree of [small, none]) {
      // Their areas are at most four times as wide (doublings overshoot): at most two levels deeper, far from maxDepth.
      expect(tree.depth).toBeLessThanOrEqual(right.depth + 2);
      expect(cellCount(tree)).toBeLessThan(2 * cellCount(right));
      expect(tree.byteSize).toBeLessThan(1.25 * right.byteSize);
      expect(tree.pairs()).toEqual(right.pairs());
    }
    for (const tree of [right, small, none]) tree.dispose();
  });

  it('never coarsens its finest cells: each doubling of the area allows a level more', () => {
    const options: QuadTreeOptions = { bounds: { minX: 0, minY: 0, maxX: 64, maxY: 64 }, capacity: 2, maxDepth: 4, backend };
    const tree = new QuadTree(options);
    // A tight cluster: leaves split down to the depth limit.
    for (let id = 0; id < 40; id++) tree.insert(id, 1 + (id % 7) * 0.5, 1 + Math.floor(id / 7) * 0.5, 1.25 + (id % 7) * 0.5, 1.25 + Math.floor(id / 7) * 0.5);
    const finest = (): number => {
      const c = tree.cells();
      return Math.min(...Array.from({ length: c.length / 4 }, (_, i) => c[i * 4 + 2] - c[i * 4]));
    };
    const before = { finest: finest(), depth: tree.depth };
    expect(before.depth, 'the cluster splits down to the depth limit').toBe(4);
    tree.insert(100, 1000, 1000, 1001, 1001);
    expect(areaOf(tree)).toEqual([0, 0, 1024, 1024]);
    expect(finest()).toBeLessThanOrEqual(before.finest);
    expect(tree.depth).toBeGreaterThanOrEqual(before.depth);
    expect(tree.depth).toBeLessThanOrEqual(4 + 4);
    tree.dispose();
  });
});

describe.each(backends)('QuadTree emptied by removals (%s backend)', (backend) => {
  it.each([
    ['with bounds', { bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 } }],
    ['without bounds', {}],
  ] as const)("merges its leaves back as items leave and is as new once empty, %s ('split')", (_, options) => {
    const tree = new QuadTree({ ...options, capacity: 8, backend });
    const fresh = new QuadTree({ ...options, capacity: 8, backend });
    const rects = scatter(3000, 1000, 4);
    const oracle = new RectOracle();
    fill(tree, rects, oracle);
    const full = { cells: Array.from(tree.cells()), bytes: tree.byteSize };
    expect(full.cells.length / 4).toBeGreaterThan(300);
    const order = Array.from(rects.keys()).sort((a, b) => ((a * 7919) % 3001) - ((b * 7919) % 3001));
    for (const id of order.slice(0, 2700)) {
      tree.remove(id);
      oracle.remove(id);
    }
    expectAnswers(tree, oracle);
    expect(cellCount(tree), 'a tenth of the items, far fewer cells').toBeLessThan(full.cells.length / 4 / 4);
    for (const id of order.slice(2700, 2996)) tree.remove(id);
    expect(cellCount(tree), 'four items: at most half the capacity').toBe(1);
    for (const id of order.slice(2996)) tree.remove(id);
    expect(tree.size).toBe(0);
    expect(Array.from(tree.cells())).toEqual(Array.from(fresh.cells()));
    expect(tree.depth).toBe(1);
    expect(tree.byteSize).toBe(fresh.byteSize);
    // Refilled the same way, it is the tree it was.
    const refilled = new RectOracle();
    fill(tree, rects, refilled);
    expect(Array.from(tree.cells())).toEqual(full.cells);
    expect(tree.byteSize).toBe(full.bytes);
    expectAnswers(tree, refilled);
    for (const t of [tree, fresh]) t.dispose();
  });

  it("gives its memory back in 'fixed' mode too", () => {
    const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, mode: 'fixed', depth: 5, backend });
    const fresh = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, mode: 'fixed', depth: 5, backend });
    fill(tree, scatter(2000, 3000, 5));
    expect(tree.byteSize).toBeGreaterThan(fresh.byteSize);
    for (let id = 0; id < 2000; id++) tree.remove(id);
    expect(tree.byteSize).toBe(fresh.byteSize);
    expect(Array.from(tree.cells())).toEqual([0, 0, 1000, 1000]);
    for (const t of [tree, fresh]) t.dispose();
  });
});

describe.each(backends)('QuadTree bounds as input (%s backend)', (backend) => {
  it('refuses NaN, infinite and inverted bounds with a code, leaving the tree as it was; no bounds is not bad input', () => {
    const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, capacity: 2, backend });
    fill(tree, scatter(40, 300, 6));
    const before = { cells: Array.from(tree.cells()), pairs: tree.pairs(), bytes: tree.toBuffer() };
    const bad: Array<[string, unknown]> = [
      ['INVALID_NUMBER', { minX: NaN, minY: 0, maxX: 1, maxY: 1 }],
      ['INVALID_NUMBER', { minX: 0, minY: -Infinity, maxX: 1, maxY: 1 }],
      ['INVALID_NUMBER', { minX: 0, minY: 0, maxX: Infinity, maxY: 1 }],
      ['INVALID_RECT', { minX: 0, minY: 5, maxX: 1, maxY: 4 }],
      ['INVALID_ARGUMENT', null],
    ];
    for (const [code, bounds] of bad) {
      expect(codeOf(() => new QuadTree({ bounds: bounds as never, backend }))).toBe(code);
      expect(codeOf(() => tree.setBounds(bounds as never))).toBe(code);
      expect({ cells: Array.from(tree.cells()), pairs: tree.pairs(), bytes: tree.toBuffer() }).toEqual(before);
    }
    expect(codeOf(() => new QuadTree({ backend }))).toBeNull();
    expect(codeOf(() => new QuadTree({ bounds: undefined, backend }))).toBeNull();
    // setBounds() drops the bounds: the tree takes the square around its items.
    tree.setBounds();
    const [minX, minY, maxX, maxY] = areaOf(tree);
    expect(maxX - minX).toBe(maxY - minY);
    expect(tree.pairs()).toEqual(before.pairs);
    tree.setBounds({ minX: 0, minY: 0, maxX: 100, maxY: 100 });
    expect(tree.toBuffer()).toEqual(before.bytes);
    tree.dispose();
  });
});

describe.each(backends)('QuadTree snapshots and bounds (%s backend)', (backend) => {
  it('round-trip a tree without bounds, on either backend, and it stays without bounds', () => {
    const tree = new QuadTree({ capacity: 5, backend });
    const rects = scatter(300, 800, 7);
    fill(tree, rects);
    const bytes = tree.toBuffer();
    for (const other of backends) {
      const copy = QuadTree.fromBuffer(bytes, { backend: other });
      expect(copy.pairs()).toEqual(tree.pairs());
      expect(copy.query(100, 100, 300, 300)).toEqual(tree.query(100, 100, 300, 300));
      expect(copy.toBuffer()).toEqual(bytes);
      for (let id = 0; id < rects.length; id++) copy.remove(id);
      expect(Array.from(copy.cells())).toEqual([-Infinity, -Infinity, Infinity, Infinity]);
      copy.dispose();
    }
    tree.dispose();
  });

  it('read snapshots written before trees could lack bounds', () => {
    // A split tree (capacity 3, bounds [0, 0, 100, 100]) holding 1 [10, 10, 20, 20],
    // 2 [15, 15, 30, 30] and 7 [140, -5, 150, 5], as the first format wrote it.
    const old = Uint8Array.from(
      Buffer.from(
        'U0tRVAEAAACoAAAAGFZxzwMAAAAQAAAAAwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABZQAAAAAAAAFlAAQAAAAIAAAAHAAAAAAAAAAAAJEAAAAAAAAAkQAAAAAAAADRAAAAAAAAANEAAAAAAAAAuQAAAAAAAAC5AAAAAAAAAPkAAAAAAAAA+QAAAAAAAgGFAAAAAAAAAFMAAAAAAAMBiQAAAAAAAABRA',
        'base64',
      ),
    );
    const tree = QuadTree.fromBuffer(old, { backend });
    expect(tree.capacity).toBe(3);
    expect(tree.ids()).toEqual([1, 2, 7]);
    expect(tree.rect(7)).toEqual({ minX: 140, minY: -5, maxX: 150, maxY: 5 });
    expect(tree.pairs()).toEqual([[1, 2]]);
    expect(tree.toBuffer()).toEqual(old);
    for (const id of [1, 2, 7]) tree.remove(id);
    expect(Array.from(tree.cells())).toEqual([0, 0, 100, 100]);
    tree.dispose();
  });
});
