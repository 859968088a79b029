// Random graphs with positive, zero and negative weights, built by the same
// operation sequence on both backends and on a plain model: every search must
// agree with a brute-force Bellman-Ford on every distance, every returned path
// must be a real path of that cost, and negative cycles must be reported
// exactly when the oracle finds one reachable from the source.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, init, type Backend } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { apply, checkAgainstOracle, expectPath, idArb, opArb, type Op } from './checks.js';
import { bellmanFord, type Id } from './bellman-ford.js';
import { GraphModel } from './model.js';
import { runs } from '../support/sweep.js';

beforeAll(() => init());

const BACKENDS: Backend[] = ['wasm', 'js'];

// Integer weights keep every sum exact, so distances compare with ===.
const signedOps = fc.array(opArb(fc.integer({ min: -3, max: 9 })), { maxLength: 40 });
const nonNegativeOps = fc.array(opArb(fc.integer({ min: 0, max: 9 })), { maxLength: 40 });

function build(ops: Op[]): { model: GraphModel; graphs: Graph[] } {
  const model = new GraphModel();
  const graphs = BACKENDS.map((backend) => new Graph({ backend }));
  for (const op of ops) apply(op, model, graphs);
  return { model, graphs };
}

describe('Graph searches agree with Bellman-Ford (wasm and js)', () => {
  it('signed weights: SPFA distances and paths, negative cycles exactly when reachable, others refuse', () => {
    fc.assert(
      fc.property(signedOps, (ops) => {
        const { model, graphs } = build(ops);
        checkAgainstOracle(model, graphs);
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(150) },
    );
  });

  it('non-negative weights (zero included): every algorithm matches on every pair', () => {
    fc.assert(
      fc.property(nonNegativeOps, (ops) => {
        const { model, graphs } = build(ops);
        checkAgainstOracle(model, graphs);
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(100) },
    );
  });

  it('queries interleaved with edits see every edit (lazy CSR rebuilds, weights patched in place)', () => {
    // Half the runs keep weights non-negative, so the reverse CSR gets built and patched.
    const steps = fc
      .boolean()
      .chain((signed) => fc.array(fc.tuple(opArb(fc.integer({ min: signed ? -2 : 0, max: 9 })), idArb), { minLength: 10, maxLength: 40 }));
    fc.assert(
      fc.property(steps, (steps) => {
        const model = new GraphModel();
        const graphs = BACKENDS.map((backend) => new Graph({ backend }));
        for (const [op, source] of steps) {
          apply(op, model, graphs);
          if (!model.has(source)) continue;
          const edges = model.edgeList();
          const oracle = bellmanFord(model.vertices, edges, source);
          const hasNegative = edges.some((e) => e.weight < 0);
          for (const g of graphs) {
            if (hasNegative) {
              expect(codeOf(() => g.path(source, source, { algorithm: 'bidirectional' }))).toBe('NEGATIVE_WEIGHT');
              if (oracle.negativeCycle) expect(codeOf(() => g.spfa(source))).toBe('NEGATIVE_CYCLE');
              else for (const v of model.vertices) expect(g.spfa(source).distance(v)).toBe(oracle.dist.get(v));
              continue;
            }
            const tree = g.dijkstra(source);
            for (const target of model.vertices) {
              const d = oracle.dist.get(target) as number;
              expect(tree.distance(target)).toBe(d);
              expectPath(model, g.path(source, target, { algorithm: 'bidirectional' }), source, target, d);
              expectPath(model, g.path(source, target, { algorithm: 'astar' }), source, target, d);
            }
          }
        }
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(100) },
    );
  });

  it('many edge additions and removals keep the edge index exact', () => {
    const id = fc.nat(60);
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('addEdge' as const), from: id, to: id, weight: fc.integer({ min: 0, max: 20 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('removeEdge' as const), from: id, to: id }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeVertex' as const), id }) },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 200, maxLength: 1500 }), (ops) => {
        const { model, graphs } = build(ops);
        const source = model.vertices[0];
        if (source !== undefined) {
          const oracle = bellmanFord(model.vertices, model.edgeList(), source);
          for (const g of graphs) {
            const tree = g.dijkstra(source);
            for (const v of model.vertices) expect(tree.distance(v)).toBe(oracle.dist.get(v));
          }
        }
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(15) },
    );
  });

  it('fromEdges equals the same edges added one by one (a repeated pair keeps its last weight)', () => {
    const edge = fc.record({ from: fc.nat(7), to: fc.nat(7), weight: fc.integer({ min: -2, max: 9 }) });
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 30 }), fc.nat(3), (edges, extra) => {
        const largest = edges.reduce((m, e) => Math.max(m, e.from, e.to), -1);
        const n = largest + 1 + extra;
        const from = Int32Array.from(edges, (e) => e.from);
        const to = Int32Array.from(edges, (e) => e.to);
        const weight = Float64Array.from(edges, (e) => e.weight);
        const model = new GraphModel();
        for (let v = 0; v < n; v++) model.addVertex(v);
        for (const e of edges) model.addEdge(e.from, e.to, e.weight);
        const graphs = BACKENDS.map((backend) => Graph.fromEdges(from, to, weight, { vertexCount: n, backend }));
        for (const g of graphs) {
          expect(g.vertexCount).toBe(n);
          expect(g.edgeCount).toBe(model.edgeCount());
        }
        checkAgainstOracle(model, graphs);
        // Edits after a bulk load behave like edits on any graph.
        apply({ kind: 'addEdge', from: 0, to: 'x', weight: 1 }, model, graphs);
        apply({ kind: 'removeVertex', id: 1 }, model, graphs);
        checkAgainstOracle(model, graphs);
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(100) },
    );
  });
});

describe('A* with positions (wasm and js)', () => {
  // Weights are at least the Manhattan distance between hidden positions, so
  // euclidean <= octile <= manhattan stay admissible; some vertices do not
  // reveal their position and contribute 0, which makes the heuristic
  // inconsistent: A* must still find the optimum.
  const vertex = fc.record({ x: fc.integer({ min: 0, max: 20 }), y: fc.integer({ min: 0, max: 20 }), shown: fc.boolean() });
  const edge = fc.record({ from: fc.nat(9), to: fc.nat(9), extra: fc.integer({ min: 0, max: 6 }) });

  it('every heuristic returns the optimal cost and a real path', () => {
    fc.assert(
      fc.property(fc.array(vertex, { minLength: 10, maxLength: 10 }), fc.array(edge, { maxLength: 40 }), (vertices, edges) => {
        const model = new GraphModel();
        const graphs = BACKENDS.map((backend) => new Graph({ backend }));
        vertices.forEach((p, id) => {
          model.addVertex(id);
          for (const g of graphs) g.addVertex(id, p.shown ? { x: p.x, y: p.y } : undefined);
        });
        for (const { from, to, extra } of edges) {
          const a = vertices[from];
          const b = vertices[to];
          const w = Math.abs(a.x - b.x) + Math.abs(a.y - b.y) + extra;
          model.addEdge(from, to, w);
          for (const g of graphs) g.addEdge(from, to, w);
        }
        const userEuclidean = (u: Id, t: Id): number => {
          const a = vertices[u as number];
          const b = vertices[t as number];
          return a.shown && b.shown ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
        };
        const list = model.edgeList();
        for (let s = 0; s < vertices.length; s++) {
          const oracle = bellmanFord(model.vertices, list, s);
          for (let t = 0; t < vertices.length; t++) {
            const d = oracle.dist.get(t) as number;
            for (const g of graphs) {
              for (const heuristic of ['euclidean', 'manhattan', 'octile', userEuclidean] as const) {
                expectPath(model, g.astar(s, t, heuristic), s, t, d);
              }
            }
          }
        }
        for (const g of graphs) g.dispose();
      }),
      { numRuns: runs(60) },
    );
  });
});
