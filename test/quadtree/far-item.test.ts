// One far item costs about what a near one does: a QuadTree's depth follows
// where its items are, not how often its area doubled to hold them. Worked
// examples on both backends: 10,000 rects in 1,000 x 1,000 with one more at
// 1e300, inserted first or last, moved out and back, removed, restored from
// a snapshot; and a cluster deep inside bounds a billion times its size.
import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/random.js';
import { init, QuadTree, type QuadTreeBounds } from '../../src/index.js';
import { RectOracle, type Rect } from './rect-oracle.js';

beforeAll(() => init());

const backends = ['wasm', 'js'] as const;
const N = 10_000;
const FAR: Rect = [1e300, 1e300, 1e300, 1e300];

/** n rects of side 1 to 10 spread uniformly over [x, x + 1,000] x [y, y + 1,000]. */
function scatter(n: number, x = 0, y = 0): Rect[] {
  const random = mulberry32(3);
  return Array.from({ length: n }, () => {
    const side = 1 + random() * 9;
    const left = x + random() * (1000 - side), low = y + random() * (1000 - side);
    return [left, low, left + side, low + side];
  });
}

const rects = scatter(N);
const boxes: Rect[] = Array.from({ length: 40 }, (_, k) => [(k * 97) % 900, (k * 53) % 900, ((k * 97) % 900) + 100, ((k * 53) % 900) + 100]);

function build(backend: 'wasm' | 'js', far: 'none' | 'first' | 'last', bounds: QuadTreeBounds = { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, items = rects): QuadTree {
  const tree = new QuadTree({ bounds, backend });
  if (far === 'first') tree.insert(N, ...FAR);
  items.forEach((r, i) => tree.insert(i, ...r));
  if (far === 'last') tree.insert(N, ...FAR);
  return tree;
}

/** The oracle of the ordinary rects: what every tree here must find, the far item aside. */
const oracle = new RectOracle();
rects.forEach((r, i) => oracle.insert(i, r));
const hits = boxes.map((box) => oracle.query(box));
const pairCount = oracle.pairs().length;

/** The tree finds what the oracle finds, and the far item exactly when it holds it. */
function expectAnswers(tree: QuadTree, withFar: boolean): void {
  boxes.forEach((box, k) => expect(tree.query(...box)).toEqual(hits[k]));
  expect(tree.pairIds().length / 2).toBe(pairCount);
  expect(tree.query(...FAR)).toEqual(withFar ? [N] : []);
  expect(tree.nearest(1e300, 1e300, 1)).toEqual(withFar ? [N] : oracle.nearest(1e300, 1e300, 1));
}

describe.each(backends)('one far item (%s backend)', (backend) => {
  let near: QuadTree;
  beforeAll(() => {
    near = build(backend, 'none');
  });

  it.each(['first', 'last'] as const)('among 10,000 rects in 1,000², one at 1e300 inserted %s adds at most a level and no memory; removing it leaves that so', (order) => {
    const tree = build(backend, order);
    // Its area doubled about a thousand times, yet the tree is as deep as without it, plus the level that parts the far item from the rest.
    expect(near.depth).toBeGreaterThan(3);
    expect(tree.depth).toBeLessThanOrEqual(near.depth + 1);
    expect(tree.byteSize).toBeLessThan(near.byteSize * 1.05);
    expectAnswers(tree, true);
    const restored = QuadTree.fromBuffer(tree.toBuffer(), { backend });
    expect(restored.depth).toBeLessThanOrEqual(near.depth + 1);
    expectAnswers(restored, true);
    restored.dispose();
    expect(tree.remove(N)).toBe(true);
    expect(tree.depth).toBeLessThanOrEqual(near.depth + 1);
    expect(tree.byteSize).toBeLessThan(near.byteSize * 1.05);
    expectAnswers(tree, false);
    tree.dispose();
  });

  it('an item moved out to 1e300 and back costs a level at most, then and after', () => {
    const tree = build(backend, 'none');
    tree.update(7, ...FAR);
    expect(tree.depth).toBeLessThanOrEqual(near.depth + 1);
    expect(tree.query(...FAR)).toEqual([7]);
    tree.update(7, ...rects[7]);
    expect(tree.depth).toBeLessThanOrEqual(near.depth + 1);
    expectAnswers(tree, false);
    tree.dispose();
  });

  it('an item moved between the far item and the rest rebuilds only what it must, and every answer stays right', () => {
    const tree = build(backend, 'first');
    // Out of the square the ordinary rects fill, but nowhere near the far item: the subtree around them widens to hold it.
    tree.update(3, 5000, 5000, 5001, 5001);
    expect(tree.query(4999, 4999, 5002, 5002)).toEqual([3]);
    expect(tree.depth).toBeLessThanOrEqual(near.depth + 2);
    tree.update(3, ...rects[3]);
    expectAnswers(tree, true);
    tree.dispose();
  });

  it('a cluster deep inside bounds a billion times its size is at most two levels deeper than in bounds that fit it', () => {
    // Not one: the cluster sits across lines of the wide bounds' grid of halvings, not on a cell of it.
    const cluster = scatter(N, 3.1e11, 6.7e11);
    const wide = build(backend, 'none', { minX: 0, minY: 0, maxX: 1e12, maxY: 1e12 }, cluster);
    const fitting = build(backend, 'none', { minX: 3.1e11, minY: 6.7e11, maxX: 3.1e11 + 1000, maxY: 6.7e11 + 1000 }, cluster);
    expect(fitting.depth).toBeGreaterThan(3);
    expect(wide.depth).toBeLessThanOrEqual(fitting.depth + 2);
    expect(wide.byteSize).toBeLessThan(fitting.byteSize * 1.25);
    const box: Rect = [3.1e11 + 100, 6.7e11 + 100, 3.1e11 + 200, 6.7e11 + 200];
    expect(wide.query(...box)).toEqual(fitting.query(...box));
    wide.dispose();
    fitting.dispose();
  });
});
