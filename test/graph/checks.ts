// Shared checks of the Graph tests: random operation sequences applied to a
// plain model and to graphs on both backends, and every search answer compared
// with a brute-force Bellman-Ford over the model's arcs.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Graph, PathResult } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { bellmanFord, type Id } from './bellman-ford.js';
import type { GraphModel } from './model.js';

export type Op =
  | { kind: 'addEdge'; from: Id; to: Id; weight: number }
  | { kind: 'addVertex'; id: Id }
  | { kind: 'removeEdge'; from: Id; to: Id }
  | { kind: 'removeVertex'; id: Id }
  | { kind: 'reweight'; pick: number; weight: number }
  | { kind: 'place'; id: Id; pos: { x: number; y: number } | null };

// Numbers and look-alike strings, so 1 and '1' must stay two vertices.
export const idArb = fc.constantFrom<Id>(0, 1, 2, 3, 4, 5, 6, '1', '2', 'a', 'b', 'c');

export const opArb = (weight: fc.Arbitrary<number>): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('addEdge' as const), from: idArb, to: idArb, weight }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('addVertex' as const), id: idArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeEdge' as const), from: idArb, to: idArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeVertex' as const), id: idArb }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('reweight' as const), pick: fc.nat(), weight }) },
  );


/** Applies one op to the model and both graphs, checking they answer alike. */
export function apply(op: Op, model: GraphModel, graphs: Graph[]): void {
  if (op.kind === 'reweight') {
    // A new weight on an existing edge, when there is one.
    const edges = model.edgeList();
    if (edges.length === 0) return;
    const { from, to } = edges[op.pick % edges.length];
    op = { kind: 'addEdge', from, to, weight: op.weight };
  }
  switch (op.kind) {
    case 'addEdge':
      model.addEdge(op.from, op.to, op.weight);
      for (const g of graphs) g.addEdge(op.from, op.to, op.weight);
      break;
    case 'addVertex': {
      const expected = model.has(op.id) ? 'DUPLICATE_ID' : null;
      model.addVertex(op.id);
      for (const g of graphs) expect(codeOf(() => g.addVertex(op.id))).toBe(expected);
      break;
    }
    case 'removeEdge': {
      const expected = model.removeEdge(op.from, op.to);
      for (const g of graphs) expect(g.removeEdge(op.from, op.to)).toBe(expected);
      break;
    }
    case 'removeVertex': {
      const expected = model.removeVertex(op.id);
      for (const g of graphs) expect(g.removeVertex(op.id)).toBe(expected);
      break;
    }
    case 'place': {
      const { id, pos } = op;
      if (!model.has(id)) model.addVertex(id, pos ?? undefined);
      else model.setPosition(id, pos);
      for (const g of graphs) {
        if (g.hasVertex(id)) g.setPosition(id, pos);
        else g.addVertex(id, pos ?? undefined);
      }
      break;
    }
  }
  for (const g of graphs) {
    expect(g.vertexCount).toBe(model.vertices.length);
    expect(g.edgeCount).toBe(model.edgeCount());
  }
}

/** A path is real when it runs source..target over existing edges; returns its cost. */
export function walk(model: GraphModel, path: Id[], source: Id, target: Id): number {
  expect(path[0]).toBe(source);
  expect(path[path.length - 1]).toBe(target);
  let cost = 0;
  for (let i = 1; i < path.length; i++) {
    const w = model.weight(path[i - 1], path[i]);
    expect(w, `edge ${String(path[i - 1])} -> ${String(path[i])}`).toBeDefined();
    cost += w as number;
  }
  return cost;
}

export function expectPath(model: GraphModel, found: PathResult | null, source: Id, target: Id, distance: number): void {
  if (distance === Infinity) {
    expect(found).toBeNull();
    return;
  }
  expect(found).not.toBeNull();
  const { path, cost } = found as PathResult;
  expect(cost).toBe(distance);
  expect(walk(model, path, source, target)).toBe(distance);
}

export function checkAgainstOracle(model: GraphModel, graphs: Graph[]): void {
  const edges = model.edgeList();
  const hasNegative = edges.some((e) => e.weight < 0);
  for (const source of model.vertices) {
    const oracle = bellmanFord(model.vertices, edges, source);
    for (const g of graphs) {
      if (oracle.negativeCycle) {
        expect(codeOf(() => g.spfa(source))).toBe('NEGATIVE_CYCLE');
        expect(codeOf(() => g.path(source, source, { algorithm: 'spfa' }))).toBe('NEGATIVE_CYCLE');
      } else {
        const tree = g.spfa(source);
        for (const v of model.vertices) {
          const d = oracle.dist.get(v) as number;
          expect(tree.distance(v)).toBe(d);
          const path = tree.path(v);
          if (d === Infinity) expect(path).toBeNull();
          else expect(walk(model, path as Id[], source, v)).toBe(d);
          expectPath(model, g.path(source, v, { algorithm: 'spfa' }), source, v, d);
          if (hasNegative) expectPath(model, g.path(source, v), source, v, d); // default falls back to SPFA
        }
      }
      if (hasNegative) {
        expect(codeOf(() => g.dijkstra(source))).toBe('NEGATIVE_WEIGHT');
        for (const algorithm of ['astar', 'dijkstra', 'bidirectional'] as const) {
          expect(codeOf(() => g.path(source, source, { algorithm }))).toBe('NEGATIVE_WEIGHT');
        }
        expect(codeOf(() => g.astar(source, source, () => 0))).toBe('NEGATIVE_WEIGHT');
        continue;
      }
      const tree = g.dijkstra(source);
      for (const target of model.vertices) {
        const d = oracle.dist.get(target) as number;
        expect(tree.distance(target)).toBe(d);
        const treePath = tree.path(target);
        if (d !== Infinity) expect(walk(model, treePath as Id[], source, target)).toBe(d);
        expectPath(model, g.astar(source, target, 'zero'), source, target, d);
        expectPath(model, g.astar(source, target, () => 0), source, target, d);
        for (const algorithm of ['astar', 'dijkstra', 'bidirectional'] as const) {
          expectPath(model, g.path(source, target, { algorithm }), source, target, d);
        }
        expectPath(model, g.path(source, target), source, target, d);
      }
    }
  }
}

/** The structure accessors agree with the model on every pair of ids. */
export function expectSameStructure(model: GraphModel, graphs: Graph[], ids: readonly Id[]): void {
  for (const g of graphs) {
    for (const from of ids) {
      if (model.has(from)) {
        expect(g.neighbors(from)).toEqual(model.neighbors(from));
        expect(g.degree(from)).toBe(model.neighbors(from).length);
      } else {
        expect(codeOf(() => g.neighbors(from))).toBe('UNKNOWN_ID');
        expect(codeOf(() => g.degree(from))).toBe('UNKNOWN_ID');
      }
      for (const to of ids) {
        expect(g.weight(from, to)).toBe(model.weight(from, to));
        expect(g.hasEdge(from, to)).toBe(model.weight(from, to) !== undefined);
      }
    }
  }
}
