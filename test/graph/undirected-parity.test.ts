// Undirected graphs and the structure accessors (hasEdge, weight, neighbors,
// degree, nearestVertex), driven by random operation sequences on both
// backends and a plain model: every accessor answers as the model does, and
// every search agrees with Bellman-Ford over the model's arcs, where a
// negative undirected edge is a negative cycle of its two arcs.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, init, type Backend } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { apply, checkAgainstOracle, expectSameStructure, idArb, opArb, type Op } from './checks.js';
import { bellmanFord, type Id } from './bellman-ford.js';
import { GraphModel } from './model.js';
import { runs } from '../support/sweep.js';

beforeAll(() => init());

const BACKENDS: Backend[] = ['wasm', 'js'];
const IDS: Id[] = [0, 1, 2, 3, 4, 5, 6, '1', '2', 'a', 'b', 'c'];

function build(ops: Op[], directed: boolean): { model: GraphModel; graphs: Graph[] } {
  const model = new GraphModel(directed);
  const graphs = BACKENDS.map((backend) => new Graph({ backend, directed }));
  for (const op of ops) {
    apply(op, model, graphs);
    expectSameStructure(model, graphs, IDS);
  }
  return { model, graphs };
}

const signedOps = fc.array(opArb(fc.integer({ min: -3, max: 9 })), { maxLength: 40 });
const nonNegativeOps = fc.array(opArb(fc.integer({ min: 0, max: 9 })), { maxLength: 40 });

describe('undirected graphs agree with the model and Bellman-Ford (wasm and js)', () => {
  it('signed weights: a reachable negative edge is a negative cycle, else SPFA distances match', () => {
    fc.assert(
      fc.property(signedOps, (ops) => {
        const { model, graphs } = build(ops, false);
        const arcs = model.edgeList();
        for (const source of model.vertices) {
          // The documented rule, checked against the oracle: any negative edge reachable from the source.
          const reach = bellmanFord(model.vertices, arcs.map((e) => ({ ...e, weight: 0 })), source).dist;
          const negativeReachable = arcs.some((e) => e.weight < 0 && reach.get(e.from) === 0);
          expect(bellmanFord(model.vertices, arcs, source).negativeCycle).toBe(negativeReachable);
        }
        checkAgainstOracle(model, graphs);
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(120) },
    );
  });

  it('non-negative weights: every algorithm matches on every pair', () => {
    fc.assert(
      fc.property(nonNegativeOps, (ops) => {
        const { model, graphs } = build(ops, false);
        checkAgainstOracle(model, graphs);
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(80) },
    );
  });

  it('an undirected edge is one edge both ways: edits from either end act on both arcs', () => {
    for (const backend of BACKENDS) {
      const g = new Graph({ backend, directed: false });
      expect(g.directed).toBe(false);
      g.addEdge('a', 'b', 3);
      g.addEdge('b', 'a', 5); // the same edge: replaces its weight
      g.addEdge('c', 'c', 1);
      expect(g.edgeCount).toBe(2);
      expect([g.weight('a', 'b'), g.weight('b', 'a')]).toEqual([5, 5]);
      expect(g.neighbors('c')).toEqual(['c']);
      expect(g.degree('c')).toBe(1);
      expect(g.path('a', 'b')).toEqual({ path: ['a', 'b'], cost: 5 });
      expect(g.path('b', 'a')).toEqual({ path: ['b', 'a'], cost: 5 });
      expect(g.removeEdge('b', 'a')).toBe(true);
      expect(g.hasEdge('a', 'b')).toBe(false);
      expect(g.edgeCount).toBe(1);
      expect(g.removeVertex('c')).toBe(true);
      expect(g.edgeCount).toBe(0);
      g.addEdge('a', 'b', -1);
      expect(codeOf(() => g.spfa('a'))).toBe('NEGATIVE_CYCLE');
      expect(codeOf(() => g.path('a', 'b'))).toBe('NEGATIVE_CYCLE');
      g.dispose();
    }
  });
});

describe('structure accessors on directed graphs (wasm and js)', () => {
  it('hasEdge, weight, neighbors and degree follow every edit', () => {
    fc.assert(
      fc.property(signedOps, (ops) => {
        const { graphs } = build(ops, true);
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(120) },
    );
  });
});

describe('fromEdges with directed: false (wasm and js)', () => {
  it('equals the same edges added one by one (a repeat either way round keeps the last weight)', () => {
    const edge = fc.record({ from: fc.nat(6), to: fc.nat(6), weight: fc.integer({ min: 0, max: 9 }) });
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 30 }), fc.nat(2), (edges, extra) => {
        const n = edges.reduce((m, e) => Math.max(m, e.from, e.to), -1) + 1 + extra;
        const model = new GraphModel(false);
        for (let v = 0; v < n; v++) model.addVertex(v);
        for (const e of edges) model.addEdge(e.from, e.to, e.weight);
        const from = Int32Array.from(edges, (e) => e.from);
        const to = Int32Array.from(edges, (e) => e.to);
        const weight = Float64Array.from(edges, (e) => e.weight);
        const graphs = BACKENDS.map((backend) => Graph.fromEdges<Id>(from, to, weight, { vertexCount: n, backend, directed: false }));
        for (const g of graphs) expect(g.edgeCount).toBe(model.edgeCount());
        expectSameStructure(model, graphs, IDS);
        checkAgainstOracle(model, graphs);
        // Edits after the bulk load keep both arcs together.
        apply({ kind: 'removeVertex', id: 0 }, model, graphs);
        apply({ kind: 'addEdge', from: 1, to: 'x', weight: 2 }, model, graphs);
        expectSameStructure(model, graphs, [...IDS, 'x']);
        checkAgainstOracle(model, graphs);
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(80) },
    );
  });
});

describe('nearestVertex (wasm and js)', () => {
  it('returns the least id among the nearest positioned vertices, null when none has a position', () => {
    // Small integer coordinates make equal distances common.
    const coordinate = fc.integer({ min: -3, max: 3 });
    const place = fc.record({
      kind: fc.constant('place' as const),
      id: idArb,
      pos: fc.option(fc.record({ x: coordinate, y: coordinate }), { freq: 4 }),
    });
    const step = fc.oneof({ weight: 3, arbitrary: place }, { weight: 1, arbitrary: opArb(fc.constant(1)) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.array(fc.tuple(coordinate, coordinate), { minLength: 1, maxLength: 6 }), (ops, points) => {
        const model = new GraphModel(false);
        const graphs = BACKENDS.map((backend) => new Graph({ backend, directed: false }));
        for (const op of ops) {
          apply(op, model, graphs);
          for (const [x, y] of points) {
            const expected = model.nearest(x + 0.5, y);
            for (const g of graphs) expect(g.nearestVertex(x + 0.5, y)).toBe(expected);
            for (const g of graphs) expect(g.nearestVertex(x, y)).toBe(model.nearest(x, y));
          }
        }
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(150) },
    );
  });
});
