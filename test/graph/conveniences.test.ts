// The examples of docs/graph-conveniences.md, on both backends, with the
// answers the page states.
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, init, type Backend } from '../../src/index.js';

beforeAll(() => init());

describe.each<Backend>(['wasm', 'js'])('docs/graph-conveniences.md examples (%s)', (backend) => {
  it('undirected graphs', () => {
    const roads = new Graph({ backend, directed: false });
    roads.addEdge('mill', 'bridge', 4);
    roads.addEdge('bridge', 'keep', 3);
    roads.addEdge('keep', 'mill', 9);
    expect(roads.path('keep', 'mill')).toEqual({ path: ['keep', 'bridge', 'mill'], cost: 7 });
    roads.addEdge('bridge', 'mill', 2);
    expect(roads.weight('mill', 'bridge')).toBe(2);
    expect(roads.edgeCount).toBe(3);
    expect(roads.removeEdge('keep', 'bridge')).toBe(true);
    expect([roads.hasEdge('bridge', 'keep'), roads.edgeCount]).toEqual([false, 2]);
  });

  it('hasEdge and weight', () => {
    const g = new Graph({ backend });
    g.addEdge('a', 'b', 2.5);
    expect([g.hasEdge('a', 'b'), g.hasEdge('b', 'a'), g.weight('a', 'b'), g.weight('a', 'zz')]).toEqual([true, false, 2.5, undefined]);
  });

  it('neighbors and degree', () => {
    const g = new Graph({ backend });
    g.addEdge('hub', 'b', 1);
    g.addEdge('hub', 2, 1);
    g.addEdge('hub', 'a', 1);
    g.addEdge('hub', 10, 1);
    expect(g.neighbors('hub')).toEqual([2, 10, 'a', 'b']);
    expect([g.degree('hub'), g.degree('a')]).toEqual([4, 0]);
  });

  it('nearestVertex', () => {
    const g = new Graph({ backend });
    g.addVertex('inn', { x: 0, y: 0 });
    g.addVertex('ford', { x: 4, y: 0 });
    g.addVertex('well');
    expect(g.nearestVertex(1, 1)).toBe('inn');
    expect(g.nearestVertex(2, 5)).toBe('ford');
    expect(new Graph({ backend }).nearestVertex(0, 0)).toBeNull();
  });

  it('numeric-id graphs', () => {
    const g = Graph.fromEdges(Int32Array.of(0, 1), Int32Array.of(1, 2), Float64Array.of(1, 1), { backend });
    const hops: number[] | undefined = g.path(0, 2)?.path;
    expect(hops).toEqual([0, 1, 2]);
    const open = Graph.fromEdges<string | number>(Int32Array.of(0), Int32Array.of(1), Float64Array.of(1), { backend });
    open.addEdge(1, 'harbour', 3);
    expect(open.path(0, 'harbour')).toEqual({ path: [0, 1, 'harbour'], cost: 4 });
  });

  it('snapshots', () => {
    const g = new Graph({ backend, directed: false });
    g.addVertex('inn', { x: 0, y: 0 });
    g.addEdge('inn', 'ford', 5);
    const bytes = g.toBuffer();
    for (const to of ['wasm', 'js'] as const) {
      expect(Graph.fromBuffer(bytes, { backend: to }).path('ford', 'inn')).toEqual({ path: ['ford', 'inn'], cost: 5 });
    }
  });
});
