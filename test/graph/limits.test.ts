// A Graph at its limits and under hostile heuristics: past the vertex or arc
// limit a call is refused whole (LIMIT_EXCEEDED); a heuristic function that
// makes the wasm memory grow or runs searches of its own never changes an
// answer, and nothing hangs.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Graph, init, QuadTree, Scene } from '../../src/index.js';
import { DEFAULT_LIMITS, LIMITS } from '../../src/core/internals.js';
import { codeOf } from '../support/codes.js';

beforeAll(() => init());
afterEach(() => {
  Object.assign(LIMITS, DEFAULT_LIMITS);
});

const BACKENDS = ['wasm', 'js'] as const;

/** A 30 x 30 grid graph with positions, a wall down the middle but for one gap. */
function walled(backend: 'wasm' | 'js'): Graph<number> {
  const from: number[] = [];
  const to: number[] = [];
  const side = 30;
  const wall = (x: number, y: number): boolean => x === 15 && y !== 3;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (wall(x, y)) continue;
      if (x + 1 < side && !wall(x + 1, y)) from.push(y * side + x) && to.push(y * side + x + 1);
      if (y + 1 < side && !wall(x, y + 1)) from.push(y * side + x) && to.push((y + 1) * side + x);
    }
  }
  const x = Array.from({ length: side * side }, (_, v) => v % side);
  const y = Array.from({ length: side * side }, (_, v) => Math.floor(v / side));
  return Graph.fromEdges(from, to, new Float64Array(from.length).fill(1), { vertexCount: side * side, x, y, backend, directed: false });
}

describe.each(BACKENDS)('Graph heuristics (%s backend)', (backend) => {
  it('keeps its answer when the heuristic makes the wasm memory grow', () => {
    const g = walled(backend);
    const filled: Scene[] = [];
    let calls = 0;
    // Every twentieth call fills another object: the module's memory grows under the search.
    const found = g.path(0, 29 * 30 + 29, {
      heuristic: (v) => {
        if (calls++ % 20 === 0) {
          const scene = new Scene({ index: 'grid' });
          scene.addMany(Array.from({ length: 20_000 }, (_, k) => k), new Float64Array(20_000), new Float64Array(20_000).map((_, k) => k));
          filled.push(scene);
        }
        return Math.abs((v % 30) - 29) + Math.abs(Math.floor(v / 30) - 29);
      },
    });
    // Through the gap at (15, 3): 29 across, and down to 3 and back 26.
    expect(found?.cost).toBe(29 + 3 + 26);
    expect(found?.path.length).toBe(59);
    for (const scene of filled) scene.dispose();
  });

  it('runs a search started from inside a heuristic, of any algorithm, nested or not', () => {
    const g = new Graph<number>({ backend });
    g.addEdge(0, 1, 1);
    g.addEdge(1, 2, 1);
    g.addEdge(0, 2, 5);
    const inner: unknown[] = [];
    const found = g.path(0, 2, {
      heuristic: () => {
        inner.push(g.path(1, 2, { algorithm: 'dijkstra' }));
        inner.push(g.path(0, 2, { heuristic: () => (inner.push(g.spfa(0).distance(2)), 0) }));
        return 0;
      },
    });
    expect(found).toEqual({ path: [0, 1, 2], cost: 2 });
    expect(inner.length).toBeGreaterThan(3);
    for (const answer of inner) expect([2, { path: [1, 2], cost: 1 }, { path: [0, 1, 2], cost: 2 }]).toContainEqual(answer);
    // Edits stay refused inside the nested search, and work once every search has ended.
    expect(codeOf(() => g.path(0, 2, { heuristic: () => (g.path(1, 2, { heuristic: () => (g.addEdge(2, 3, 1), 0) }), 0) }))).toBe('INVALID_ARGUMENT');
    expect(g.hasVertex(3)).toBe(false);
    g.addEdge(2, 3, 1);
    expect(g.path(0, 3)).toEqual({ path: [0, 1, 2, 3], cost: 3 });
  });
});

describe.each(BACKENDS)('Graph limits (%s backend)', (backend) => {
  it('refuses vertices past the limit, one by one and in bulk', () => {
    LIMITS.graphVertices = 5;
    const g = new Graph({ backend });
    for (let v = 0; v < 4; v++) g.addVertex(v);
    expect(codeOf(() => g.addEdge('a', 'b', 1))).toBe('LIMIT_EXCEEDED');
    expect([g.vertexCount, g.edgeCount, g.hasVertex('a')]).toEqual([4, 0, false]);
    g.addEdge('a', 0, 1);
    expect(codeOf(() => g.addVertex('b'))).toBe('LIMIT_EXCEEDED');
    expect(codeOf(() => Graph.fromEdges([0], [5], [1], { backend }))).toBe('LIMIT_EXCEEDED');
    expect(codeOf(() => Graph.fromEdges([0], [1], [1], { backend, vertexCount: 6 }))).toBe('LIMIT_EXCEEDED');
    expect(Graph.fromEdges([0], [4], [1], { backend }).vertexCount).toBe(5);
  });

  it('refuses arcs past the limit, counting an undirected edge as two', () => {
    LIMITS.graphEdges = 4;
    const g = new Graph({ backend, directed: false });
    g.addEdge('a', 'b', 1);
    g.addEdge('b', 'c', 1);
    expect(codeOf(() => g.addEdge('c', 'd', 1))).toBe('LIMIT_EXCEEDED');
    expect([g.vertexCount, g.edgeCount]).toEqual([3, 2]);
    // A new weight on an edge that exists adds no arc.
    g.addEdge('b', 'a', 3);
    expect(g.weight('a', 'b')).toBe(3);
    g.removeEdge('a', 'b');
    g.addEdge('c', 'd', 1);
    expect(codeOf(() => Graph.fromEdges([0, 1, 2], [1, 2, 3], [1, 1, 1], { backend, directed: false }))).toBe('LIMIT_EXCEEDED');
    // Four entries, three arcs: the repeated (0, 1) keeps its last weight and counts once.
    const bulk = Graph.fromEdges([0, 1, 2, 0], [1, 2, 3, 1], [1, 1, 1, 2], { backend });
    expect([bulk.edgeCount, bulk.weight(0, 1)]).toEqual([3, 2]);
    bulk.addEdge(3, 0, 1);
    expect(codeOf(() => bulk.addEdge(1, 3, 1))).toBe('LIMIT_EXCEEDED');
    expect(bulk.edgeCount).toBe(4);
    bulk.addEdge(0, 1, 5);
    expect(bulk.weight(0, 1)).toBe(5);
  });
});

it('a QuadTree filled from inside a heuristic keeps the wasm answer right', () => {
  const g = walled('wasm');
  const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 } });
  let next = 0;
  const found = g.path(0, 899, {
    heuristic: () => {
      for (let k = 0; k < 50; k++, next++) tree.insert(next, k, k, k + 1, k + 1);
      return 0;
    },
  });
  expect(found).toEqual(walled('js').path(0, 899, { algorithm: 'dijkstra' }));
  tree.dispose();
});
