// A 1,000,000-vertex graph through fromEdges: a chain of unit steps plus a
// shortcut every 1,000 vertices costing 999.5, so the distance to k is known
// in closed form: floor(k / 1000) * 999.5 + k % 1000. Undirected, the same
// ladder walks both ways; and it survives a snapshot onto either backend.
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, init, type Backend } from '../../src/index.js';

beforeAll(() => init());

const N = 1_000_000;
const HOP = 1000;
const expected = (k: number): number => Math.floor(k / HOP) * (HOP - 0.5) + (k % HOP);

/** Cost of a path over the ladder's edges (a step of 1 or of HOP); NaN if a step is not an edge. */
function cost(path: Array<string | number>): number {
  let total = 0;
  for (let i = 1; i < path.length; i++) {
    const step = (path[i] as number) - (path[i - 1] as number);
    total += step === 1 ? 1 : step === HOP ? HOP - 0.5 : NaN;
  }
  return total;
}

function ladder(backend: Backend, directed = true): Graph<number> {
  const shortcuts = N - HOP;
  const from = new Int32Array(N - 1 + shortcuts);
  const to = new Int32Array(from.length);
  const weight = new Float64Array(from.length);
  for (let i = 0; i < N - 1; i++) {
    from[i] = i;
    to[i] = i + 1;
    weight[i] = 1;
  }
  for (let i = 0; i < shortcuts; i++) {
    from[N - 1 + i] = i;
    to[N - 1 + i] = i + HOP;
    weight[N - 1 + i] = HOP - 0.5;
  }
  return Graph.fromEdges(from, to, weight, { backend, directed });
}

describe.each(['wasm', 'js'] as Backend[])('a million vertices (%s backend)', (backend) => {
  it('builds, answers single-source and point-to-point queries', () => {
    const g = ladder(backend);
    expect(g.vertexCount).toBe(N);
    expect(g.edgeCount).toBe(2 * N - 1 - HOP);
    const tree = g.dijkstra(0);
    for (const k of [0, 1, 999, 1000, 123_456, N - 1]) expect(tree.distance(k)).toBe(expected(k));
    const path = tree.path(123_456) as number[];
    expect([path[0], path[path.length - 1], cost(path)]).toEqual([0, 123_456, expected(123_456)]);
    expect(g.spfa(0).distance(N - 1)).toBe(expected(N - 1));
    const found = g.path(0, N - 1, { algorithm: 'bidirectional' });
    expect(found?.cost).toBe(expected(N - 1));
    expect(cost(found?.path ?? [])).toBe(expected(N - 1));
    expect(g.path(N - 1, 0)).toBeNull();
    g.dispose();
  });
});

describe.each(['wasm', 'js'] as Backend[])('a million vertices, undirected, through a snapshot (%s backend)', (backend) => {
  it('walks the ladder both ways, before and after toBuffer / fromBuffer on either backend', () => {
    const g = ladder(backend, false);
    expect(g.edgeCount).toBe(2 * N - 1 - HOP);
    const bytes = g.toBuffer();
    g.dispose();
    for (const target of ['wasm', 'js'] as Backend[]) {
      const copy = Graph.fromBuffer<number>(bytes, { backend: target });
      expect([copy.vertexCount, copy.edgeCount, copy.directed]).toEqual([N, 2 * N - 1 - HOP, false]);
      const back = copy.path(N - 1, 0, { algorithm: 'bidirectional' });
      expect(back?.cost).toBe(expected(N - 1));
      expect(cost([...(back?.path ?? [])].reverse())).toBe(expected(N - 1));
      expect(copy.degree(HOP)).toBe(4); // HOP - 1, HOP + 1, 0 and 2 * HOP
      copy.dispose();
    }
  });
});
