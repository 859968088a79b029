// Graph facts a user relies on: worked examples, ids, bad input rejected with
// the graph unchanged, results that outlive later edits, use after dispose.
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, SpatialError, init, type Backend, type PathOptions, type VertexId } from '../../src/index.js';
import { ARRAY_KINDS } from '../support/array-kinds.js';
import { codeOf } from '../support/codes.js';

beforeAll(() => init());

const BACKENDS: Backend[] = ['wasm', 'js'];

// Five towns, one-way roads; the cheapest a -> e goes a, c, b, d, e = 2 + 1 + 3 + 1 = 7.
function towns(backend: Backend): Graph {
  const g = new Graph({ backend });
  g.addEdge('a', 'b', 7);
  g.addEdge('a', 'c', 2);
  g.addEdge('c', 'b', 1);
  g.addEdge('b', 'd', 3);
  g.addEdge('c', 'd', 8);
  g.addEdge('d', 'e', 1);
  g.addEdge('e', 'a', 4);
  return g;
}

/** Everything observable about a graph, for before/after comparisons. */
function snapshot(g: Graph, ids: VertexId[], source: VertexId): unknown {
  const present = ids.filter((id) => g.hasVertex(id));
  let distances: unknown;
  try {
    const tree = g.spfa(source);
    distances = present.map((id) => [id, tree.distance(id), tree.path(id)]);
  } catch (error) {
    distances = (error as SpatialError).code;
  }
  return { vertexCount: g.vertexCount, edgeCount: g.edgeCount, present, distances };
}

describe.each(BACKENDS)('Graph (%s backend)', (backend) => {
  it('runs the README example', () => {
    const g = new Graph({ backend });
    g.addVertex('inn', { x: 0, y: 0 });
    g.addVertex('ford', { x: 3, y: 4 });
    g.addEdge('inn', 'ford', 5);
    g.addEdge('ford', 'keep', 2);
    expect(g.path('inn', 'keep')).toEqual({ path: ['inn', 'ford', 'keep'], cost: 7 });
    expect(g.spfa('inn').distance('keep')).toBe(7);
  });

  it('finds the worked example with every algorithm', () => {
    const g = towns(backend);
    expect(g.vertexCount).toBe(5);
    expect(g.edgeCount).toBe(7);
    for (const tree of [g.spfa('a'), g.dijkstra('a')]) {
      expect(['a', 'b', 'c', 'd', 'e'].map((id) => tree.distance(id))).toEqual([0, 3, 2, 6, 7]);
      expect(tree.path('e')).toEqual(['a', 'c', 'b', 'd', 'e']);
      expect(tree.path('a')).toEqual(['a']);
    }
    for (const algorithm of ['astar', 'dijkstra', 'bidirectional', 'spfa'] as const) {
      expect(g.path('a', 'e', { algorithm })).toEqual({ path: ['a', 'c', 'b', 'd', 'e'], cost: 7 });
    }
    expect(g.path('a', 'a')).toEqual({ path: ['a'], cost: 0 });
    expect(g.astar('b', 'c')).toEqual({ path: ['b', 'd', 'e', 'a', 'c'], cost: 10 });
  });

  it('reports unreachable vertices as Infinity / null', () => {
    const g = towns(backend);
    g.addVertex('island');
    expect(g.spfa('a').distance('island')).toBe(Infinity);
    expect(g.spfa('a').path('island')).toBeNull();
    expect(g.dijkstra('a').path('island')).toBeNull();
    for (const algorithm of ['astar', 'dijkstra', 'bidirectional', 'spfa'] as const) {
      expect(g.path('a', 'island', { algorithm })).toBeNull();
      expect(g.path('island', 'a', { algorithm })).toBeNull();
    }
  });

  it('lets SPFA use negative weights, and finds a reachable negative cycle', () => {
    const g = towns(backend);
    g.addEdge('c', 'e', -1);
    expect(g.spfa('a').distance('e')).toBe(1);
    expect(g.path('a', 'e')).toEqual({ path: ['a', 'c', 'e'], cost: 1 }); // default falls back to SPFA
    expect(codeOf(() => g.dijkstra('a'))).toBe('NEGATIVE_WEIGHT');
    expect(codeOf(() => g.astar('a', 'e'))).toBe('NEGATIVE_WEIGHT');
    g.addEdge('x', 'y', -2);
    g.addEdge('y', 'x', 1); // x <-> y costs -1 a lap, unreachable from a
    expect(g.spfa('a').distance('d')).toBe(6);
    expect(codeOf(() => g.spfa('x'))).toBe('NEGATIVE_CYCLE');
    g.addEdge('e', 'x', 0); // now reachable from a
    expect(codeOf(() => g.spfa('a'))).toBe('NEGATIVE_CYCLE');
    expect(codeOf(() => g.path('a', 'b', { algorithm: 'spfa' }))).toBe('NEGATIVE_CYCLE');
    g.addEdge('y', 'x', 2); // replaces the weight: the lap now costs 0
    expect(g.edgeCount).toBe(11);
    expect(g.spfa('a').distance('x')).toBe(1);
  });

  it('keeps number and string ids apart', () => {
    const g = new Graph({ backend });
    g.addEdge(1, 2, 5);
    g.addEdge('1', '2', 1);
    g.addEdge(1, '2', 9);
    expect(g.vertexCount).toBe(4);
    expect(g.hasVertex(1) && g.hasVertex('1')).toBe(true);
    expect(g.hasVertex(3)).toBe(false);
    expect(g.path(1, 2)).toEqual({ path: [1, 2], cost: 5 });
    expect(g.path('1', '2')).toEqual({ path: ['1', '2'], cost: 1 });
    expect(g.path(1, '2')).toEqual({ path: [1, '2'], cost: 9 });
    expect(g.removeVertex('1')).toBe(true);
    expect(g.hasVertex(1)).toBe(true);
    expect(g.removeEdge('1', '2')).toBe(false);
    expect(g.edgeCount).toBe(2);
  });

  it('removes edges and vertices, reusing freed slots without mixing ids up', () => {
    const g = towns(backend);
    expect(g.removeEdge('c', 'b')).toBe(true);
    expect(g.removeEdge('c', 'b')).toBe(false);
    expect(g.path('a', 'e')).toEqual({ path: ['a', 'b', 'd', 'e'], cost: 11 });
    expect(g.removeVertex('d')).toBe(true);
    expect(g.removeVertex('d')).toBe(false);
    expect(g.edgeCount).toBe(3); // a->b, a->c, e->a
    expect(g.path('a', 'e')).toBeNull();
    g.addEdge(3, 'e', 1); // may take d's old slot
    g.addEdge('b', 3, 1);
    expect(g.path('a', 'e')).toEqual({ path: ['a', 'b', 3, 'e'], cost: 9 });
    expect(g.hasVertex('d')).toBe(false);
  });

  it('uses positions for A*, and a vertex without position counts 0', () => {
    const g = new Graph({ backend });
    g.addVertex('s', { x: 0, y: 0 });
    g.addVertex('m', { x: 3, y: 4 });
    g.addVertex('t', { x: 6, y: 8 });
    g.addVertex('detour');
    g.addEdge('s', 'm', 7); // weights at least the Manhattan distance: every heuristic is admissible
    g.addEdge('m', 't', 7);
    g.addEdge('s', 'detour', 4);
    g.addEdge('detour', 't', 11);
    for (const heuristic of ['euclidean', 'manhattan', 'octile', 'zero'] as const) {
      expect(g.astar('s', 't', heuristic)).toEqual({ path: ['s', 'm', 't'], cost: 14 });
    }
    g.setPosition('detour', { x: 1, y: 1 });
    g.setPosition('detour', null);
    expect(g.path('s', 't')).toEqual({ path: ['s', 'm', 't'], cost: 14 });
    const calls: Array<[VertexId, VertexId]> = [];
    const found = g.astar('s', 't', (a, b) => {
      calls.push([a, b]);
      return 0;
    });
    expect(found).toEqual({ path: ['s', 'm', 't'], cost: 14 });
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every(([, b]) => b === 't')).toBe(true);
  });

  it('refuses edits from inside a heuristic function, leaving the graph as it was', () => {
    const g = towns(backend);
    const before = snapshot(g, ['a', 'b', 'c', 'd', 'e', 'z'], 'a');
    const edits: Array<() => unknown> = [
      () => g.addEdge('a', 'e', 1),
      () => g.addEdge('a', 'z', 1),
      () => g.removeEdge('d', 'e'),
      () => g.removeVertex('b'),
      () => g.addVertex('z'),
      () => g.setPosition('a', { x: 1, y: 1 }),
      () => g.dispose(),
    ];
    for (const edit of edits) {
      expect(codeOf(() => g.astar('a', 'e', () => (edit(), 0)))).toBe('INVALID_ARGUMENT');
      expect(snapshot(g, ['a', 'b', 'c', 'd', 'e', 'z'], 'a')).toEqual(before);
    }
    // Reading is fine, and the graph is editable again afterwards.
    expect(g.astar('a', 'e', (v) => (g.hasVertex(v) ? 0 : 1))).toEqual({ path: ['a', 'c', 'b', 'd', 'e'], cost: 7 });
    g.addEdge('a', 'e', 1);
    expect(g.path('a', 'e')?.cost).toBe(1);
  });

  it('shortest paths keep describing the graph they were computed on', () => {
    const g = towns(backend);
    const tree = g.spfa('a');
    g.removeVertex('b');
    g.addEdge('z', 'e', 1); // may reuse b's slot
    expect(tree.distance('b')).toBe(3);
    expect(tree.path('e')).toEqual(['a', 'c', 'b', 'd', 'e']);
    expect(codeOf(() => tree.distance('z'))).toBe('UNKNOWN_ID');
    expect(g.spfa('a').distance('e')).toBe(11);
  });

  it('rejects bad input and leaves the graph as it was', () => {
    const g = towns(backend);
    g.addVertex('p', { x: 1, y: 2 });
    const ids: VertexId[] = ['a', 'b', 'c', 'd', 'e', 'p', 'q', 'new', 5];
    const before = snapshot(g, ids, 'a');
    const cases: Array<[string, () => unknown]> = [
      ['INVALID_ID', () => g.addVertex(-1)],
      ['INVALID_ID', () => g.addVertex(1.5)],
      ['INVALID_ID', () => g.addVertex(2 ** 31)],
      ['INVALID_ID', () => g.addVertex(null as unknown as string)],
      ['INVALID_NUMBER', () => g.addVertex('q', { x: NaN, y: 0 })],
      ['INVALID_NUMBER', () => g.addVertex('q', { x: 0, y: Infinity })],
      ['INVALID_ARGUMENT', () => g.addVertex('q', 7 as unknown as { x: number; y: number })],
      ['DUPLICATE_ID', () => g.addVertex('a')],
      ['INVALID_NUMBER', () => g.addEdge('a', 'new', NaN)],
      ['INVALID_NUMBER', () => g.addEdge('new', 5, -Infinity)],
      ['INVALID_NUMBER', () => g.addEdge('a', 'b', '3' as unknown as number)],
      ['INVALID_ID', () => g.addEdge('new', -1, 1)],
      ['INVALID_ID', () => g.removeEdge('a', -1)],
      ['INVALID_ID', () => g.removeVertex(0.5)],
      ['UNKNOWN_ID', () => g.setPosition('q', { x: 0, y: 0 })],
      ['INVALID_NUMBER', () => g.setPosition('p', { x: NaN, y: 0 })],
      ['UNKNOWN_ID', () => g.spfa('q')],
      ['UNKNOWN_ID', () => g.dijkstra(5)],
      ['UNKNOWN_ID', () => g.astar('a', 'q')],
      ['UNKNOWN_ID', () => g.path('q', 'a')],
      ['INVALID_ARGUMENT', () => g.path('a', 'e', { algorithm: 'bfs' as 'astar' })],
      ['INVALID_ARGUMENT', () => g.path('a', 'e', { algo: 'dijkstra' } as PathOptions)],
      ['INVALID_ARGUMENT', () => g.path('a', 'e', null as unknown as PathOptions)],
      ['INVALID_ARGUMENT', () => g.astar('a', 'e', 'chebyshev' as 'zero')],
      ['INVALID_NUMBER', () => g.astar('a', 'e', () => NaN)],
      ['INVALID_ARGUMENT', () => new Graph({ backend: 'gpu' as Backend })],
    ];
    for (const [code, run] of cases) {
      expect(codeOf(run), String(run)).toBe(code);
      expect(snapshot(g, ids, 'a')).toEqual(before);
    }
    g.addEdge('c', 'd', -10);
    g.addEdge('d', 'c', 3);
    const withCycle = snapshot(g, ids, 'a');
    expect(codeOf(() => g.spfa('a'))).toBe('NEGATIVE_CYCLE');
    expect(codeOf(() => g.dijkstra('a'))).toBe('NEGATIVE_WEIGHT');
    expect(codeOf(() => g.path('a', 'e', { algorithm: 'bidirectional' }))).toBe('NEGATIVE_WEIGHT');
    expect(snapshot(g, ids, 'a')).toEqual(withCycle);
  });

  it('rejects bad fromEdges input', () => {
    const i = (...v: number[]): Int32Array => Int32Array.from(v);
    const f = (...v: number[]): Float64Array => Float64Array.from(v);
    const cases: Array<[string, () => unknown]> = [
      ['INVALID_ARGUMENT', () => Graph.fromEdges(i(0, 1), i(1), f(1, 1), { backend })],
      ['INVALID_ARGUMENT', () => Graph.fromEdges(0 as unknown as number[], i(1), f(1), { backend })],
      ['INVALID_ARGUMENT', () => Graph.fromEdges([0, 1], [1, 0], [1], { backend })],
      ['INVALID_ARGUMENT', () => Graph.fromEdges([0], [1], [1], { backend, vertexcount: 3 } as { backend: Backend })],
      ['INVALID_ID', () => Graph.fromEdges([0, , 2] as number[], [1, 0, 1], [1, 1, 1], { backend })],
      ['INVALID_ID', () => Graph.fromEdges(Float64Array.of(0, 1.5), [1, 0], [1, 1], { backend })],
      ['INVALID_ID', () => Graph.fromEdges(['0' as unknown as number], [1], [1], { backend })],
      ['INVALID_NUMBER', () => Graph.fromEdges([0, 1], [1, 0], [1, '2' as unknown as number], { backend })],
      ['INVALID_NUMBER', () => Graph.fromEdges([0], [1], [1], { x: [0, 0], y: [0, undefined as unknown as number], backend })],
      ['INVALID_ID', () => Graph.fromEdges(i(0, -1), i(1, 0), f(1, 1), { backend })],
      ['INVALID_ID', () => Graph.fromEdges(i(0, 3), i(1, 0), f(1, 1), { vertexCount: 3, backend })],
      ['INVALID_NUMBER', () => Graph.fromEdges(i(0), i(1), f(NaN), { backend })],
      ['INVALID_ARGUMENT', () => Graph.fromEdges(i(0), i(1), f(1), { vertexCount: 1.5, backend })],
      ['INVALID_ARGUMENT', () => Graph.fromEdges(i(0), i(1), f(1), { x: f(0, 0), backend })],
      ['INVALID_ARGUMENT', () => Graph.fromEdges(i(0), i(1), f(1), { x: f(0), y: f(0), backend })],
      ['INVALID_NUMBER', () => Graph.fromEdges(i(0), i(1), f(1), { x: f(0, NaN), y: f(0, 0), backend })],
    ];
    for (const [code, run] of cases) expect(codeOf(run), String(run)).toBe(code);
  });

  it('builds the same graph from plain arrays, other typed arrays and array-likes as from Int32Array / Float64Array', () => {
    const from = [0, 1, 2, 0, 3, 1];
    const to = [1, 2, 3, 3, 4, 4];
    const weight = [1, 2, 1, 7, 1, 9];
    const xs = [0, 1, 2, 3, 4];
    const ys = [0, 0, 1, 1, 0];
    /** What a user sees: counts and every shortest path from each vertex. */
    const view = (g: Graph): unknown => ({
      vertexCount: g.vertexCount,
      edgeCount: g.edgeCount,
      paths: xs.map((_, s) => xs.map((__, t) => g.path(s, t))),
      astar: g.astar(0, 4),
    });
    const expected = view(
      Graph.fromEdges(Int32Array.from(from), Int32Array.from(to), Float64Array.from(weight), { x: Float64Array.from(xs), y: Float64Array.from(ys), backend }),
    );
    for (const [kind, idsOf, numbersOf] of ARRAY_KINDS) {
      const g = Graph.fromEdges(idsOf(from), idsOf(to), numbersOf(weight), { x: numbersOf(xs), y: numbersOf(ys), backend });
      expect(view(g), kind).toEqual(expected);
    }
  });

  it('builds from edge arrays with positions, isolated vertices and repeats', () => {
    const g = Graph.fromEdges<VertexId>(Int32Array.of(0, 1, 0, 0), Int32Array.of(1, 2, 2, 2), Float64Array.of(1, 1, 5, 1.5), {
      vertexCount: 4,
      x: Float64Array.of(0, 1, 2, 9),
      y: Float64Array.of(0, 0, 0, 9),
      backend,
    });
    expect(g.vertexCount).toBe(4);
    expect(g.edgeCount).toBe(3); // 0->2 given twice keeps 1.5
    expect(g.path(0, 2)).toEqual({ path: [0, 2], cost: 1.5 });
    expect(g.hasVertex(3) && !g.hasVertex(4) && !g.hasVertex('0')).toBe(true);
    expect(g.path(0, 3)).toBeNull();
    g.addEdge(3, 'far', 1);
    expect(g.removeVertex(1)).toBe(true);
    g.addEdge(1, 0, 2);
    expect(g.path(1, 2)).toEqual({ path: [1, 0, 2], cost: 3.5 });
    expect(Graph.fromEdges(new Int32Array(0), new Int32Array(0), new Float64Array(0), { backend }).vertexCount).toBe(0);
  });

  it('throws DISPOSED after dispose, while earlier results stay readable', () => {
    const g = towns(backend);
    const tree = g.dijkstra('a');
    g.dispose();
    g.dispose(); // idempotent
    const calls: Array<() => unknown> = [
      () => g.vertexCount,
      () => g.edgeCount,
      () => g.hasVertex('a'),
      () => g.addVertex('z'),
      () => g.addEdge('a', 'b', 1),
      () => g.removeEdge('a', 'b'),
      () => g.removeVertex('a'),
      () => g.setPosition('a', null),
      () => g.spfa('a'),
      () => g.dijkstra('a'),
      () => g.astar('a', 'e'),
      () => g.path('a', 'e'),
    ];
    for (const call of calls) expect(codeOf(call)).toBe('DISPOSED');
    expect(tree.distance('e')).toBe(7);
  });
});

describe('Graph wasm backend memory', () => {
  it('many graphs coexist and survive memory growth', () => {
    const graphs = Array.from({ length: 4 }, () => towns('wasm'));
    const big = Graph.fromEdges(
      Int32Array.from({ length: 200_000 }, (_, i) => i),
      Int32Array.from({ length: 200_000 }, (_, i) => i + 1),
      new Float64Array(200_000).fill(0.5),
    );
    expect(big.path(0, 200_000)?.cost).toBe(100_000);
    for (const g of graphs) expect(g.path('a', 'e')?.cost).toBe(7);
    for (const g of [...graphs, big]) g.dispose();
  });
});
