// Graph snapshots: toBuffer / fromBuffer restore an equal graph on either
// backend (same ids, positions, edges, weights and directedness, the same
// answer to every query, ties included, and the same answers after the same
// further edits); the same graph gives the same bytes on both backends;
// truncated, corrupt or impossible bytes are refused with INVALID_SNAPSHOT.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, init, type Backend, type VertexId } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { sealSnapshot } from '../../src/core/snapshot-bytes.js';
import { apply, expectSameStructure, idArb, opArb, type Op } from './checks.js';
import type { Id } from './bellman-ford.js';
import { GraphModel } from './model.js';

beforeAll(() => init());

const BACKENDS: Backend[] = ['wasm', 'js'];
const IDS: Id[] = [0, 1, 2, 3, 4, 5, 6, '1', '2', 'a', 'b', 'c'];
const ALGORITHMS = ['astar', 'dijkstra', 'bidirectional', 'spfa'] as const;

/** Every answer a user can get, as one comparable value (error codes included). */
function answers(g: Graph): unknown {
  const attempt = (run: () => unknown): unknown => codeOf(run) ?? run();
  const present = IDS.filter((id) => g.hasVertex(id));
  return {
    directed: g.directed,
    vertexCount: g.vertexCount,
    edgeCount: g.edgeCount,
    present,
    neighbors: present.map((id) => [g.neighbors(id), present.map((to) => g.weight(id, to))]),
    nearest: [g.nearestVertex(0, 0), g.nearestVertex(2.5, -1)],
    searches: present.map((s) => [
      attempt(() => {
        const tree = g.spfa(s);
        return present.map((t) => [tree.distance(t), tree.path(t)]);
      }),
      present.map((t) => ALGORITHMS.map((algorithm) => attempt(() => g.path(s, t, { algorithm })))),
    ]),
  };
}

const placeArb = fc.record({
  kind: fc.constant('place' as const),
  id: idArb,
  pos: fc.option(fc.record({ x: fc.integer({ min: -3, max: 3 }), y: fc.integer({ min: -3, max: 3 }) }), { freq: 4 }),
});
const stepArb: fc.Arbitrary<Op> = fc.oneof({ weight: 6, arbitrary: opArb(fc.integer({ min: -1, max: 9 })) }, { weight: 1, arbitrary: placeArb });

describe('Graph snapshots (wasm and js)', () => {
  it('restore an equal graph on either backend, which stays equal through the same edits', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(stepArb, { maxLength: 30 }), fc.array(stepArb, { maxLength: 15 }), (directed, before, after) => {
        const model = new GraphModel(directed);
        const originals = BACKENDS.map((backend) => new Graph({ backend, directed }));
        for (const op of before) apply(op, model, originals);
        const bytes = originals.map((g) => g.toBuffer());
        expect(bytes[1]).toEqual(bytes[0]); // one graph, one byte string, whichever backend wrote it
        const restored = BACKENDS.flatMap((backend) => bytes.map((b) => Graph.fromBuffer(b, { backend })));
        const expected = answers(originals[0]);
        for (const g of [...originals, ...restored]) expect(answers(g)).toEqual(expected);
        expectSameStructure(model, restored, IDS);
        const all = [...originals, ...restored];
        for (const op of after) apply(op, model, all);
        const later = answers(originals[0]);
        for (const g of all) expect(answers(g)).toEqual(later);
        for (const g of all) expect(g.toBuffer()).toEqual(all[0].toBuffer());
        for (const g of all) g.dispose();
      }),
      { numRuns: 60 },
    );
  });

  it.each(BACKENDS)('round-trips fromEdges graphs, positions, string ids and an empty graph (%s)', (backend) => {
    const g = Graph.fromEdges(Int32Array.of(0, 1, 2), Int32Array.of(1, 2, 0), Float64Array.of(1.5, -2, 1), {
      vertexCount: 4,
      x: Float64Array.of(0, 1, 2, 3),
      y: Float64Array.of(0, 0, 1, 1),
      backend,
    });
    const copy = Graph.fromBuffer<number>(g.toBuffer(), { backend });
    expect(copy.weight(1, 2)).toBe(-2);
    expect(copy.nearestVertex(2.9, 1.2)).toBe(3);
    expect(copy.spfa(0).path(2)).toEqual([0, 1, 2]);
    const named = new Graph<string>({ backend, directed: false });
    named.addVertex('\ud800 lone surrogate', { x: 1, y: 2 });
    named.addEdge('\ud800 lone surrogate', 'é', 4);
    const back = Graph.fromBuffer<string>(named.toBuffer());
    expect(back.directed).toBe(false);
    expect(back.neighbors('é')).toEqual(['\ud800 lone surrogate']);
    expect(back.nearestVertex(0, 0)).toBe('\ud800 lone surrogate');
    const empty = Graph.fromBuffer(new Graph({ backend }).toBuffer(), { backend });
    expect([empty.vertexCount, empty.edgeCount, empty.nearestVertex(0, 0)]).toEqual([0, 0, null]);
  });
});

// The documented layout, to build bytes that pass the checksum but describe an impossible graph.
function resealed(bytes: Uint8Array, edit: (view: DataView) => void): Uint8Array {
  const copy = bytes.slice();
  edit(new DataView(copy.buffer));
  return sealSnapshot(copy);
}

describe('Graph.fromBuffer refuses bad bytes with INVALID_SNAPSHOT', () => {
  // Vertices 0 (positioned), 'b', then 7 removed so a free slot exists; edges 0->'b', 'b'->'b'.
  function sample(backend: Backend, directed: boolean): Graph {
    const g = new Graph({ backend, directed });
    g.addVertex(0, { x: 1, y: 2 });
    g.addEdge(0, 'b', 2.5);
    g.addEdge('b', 'b', 1);
    g.addVertex(7);
    g.removeVertex(7);
    return g;
  }

  it.each(BACKENDS)('every truncation and every single flipped byte (%s)', (backend) => {
    for (const directed of [true, false]) {
      const bytes = sample(backend, directed).toBuffer();
      for (let length = 0; length < bytes.length; length++) {
        expect(codeOf(() => Graph.fromBuffer(bytes.subarray(0, length), { backend }))).toBe('INVALID_SNAPSHOT');
      }
      for (let i = 0; i < bytes.length; i++) {
        for (const bit of [0x01, 0x80]) {
          const corrupt = bytes.slice();
          corrupt[i] ^= bit;
          expect(codeOf(() => Graph.fromBuffer(corrupt, { backend })), `byte ${i} ^ ${bit}`).toBe('INVALID_SNAPSHOT');
        }
      }
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expect(codeOf(() => Graph.fromBuffer(longer, { backend }))).toBe('INVALID_SNAPSHOT');
    }
  });

  it.each(BACKENDS)('bytes that pass the checksum but break the format or describe an impossible graph (%s)', (backend) => {
    const bytes = sample(backend, true).toBuffer();
    const undirected = sample(backend, false).toBuffer();
    // Layout of `bytes`: header 16, counts 12 (3 slots, 1 free, 2 arcs) at 16; slot 0 tag at 28:
    // 0x81, id u32, x, y (21 bytes); slot 1 at 49: 0x02, length 1, 'b' (7 bytes); slot 2 at 56: 0x00;
    // free list at 57; arcs at 61, 16 bytes each.
    expect([bytes.length, new DataView(bytes.buffer).getUint32(16, true)]).toEqual([93, 3]);
    const cases: Array<[string, Uint8Array]> = [
      ['format version 2', resealed(bytes, (v) => v.setUint16(4, 2, true))],
      ['unknown flag', resealed(bytes, (v) => v.setUint16(6, 2, true))],
      ['too many slots', resealed(bytes, (v) => v.setUint32(16, 1000, true))],
      ['free count off', resealed(bytes, (v) => v.setUint32(20, 0, true))],
      ['too many arcs', resealed(bytes, (v) => v.setUint32(24, 3, true))],
      ['unknown slot tag', resealed(bytes, (v) => v.setUint8(28, 0x83))],
      ['id beyond 2^31 - 1', resealed(bytes, (v) => v.setUint32(29, 2 ** 31, true))],
      ['non-finite position', resealed(bytes, (v) => v.setFloat64(33, NaN, true))],
      ['free slot listed as live', resealed(bytes, (v) => v.setUint32(57, 1, true))],
      ['arc into a free slot', resealed(bytes, (v) => v.setUint32(65, 2, true))],
      ['arc out of range', resealed(bytes, (v) => v.setUint32(61, 9, true))],
      ['repeated arc', resealed(bytes, (v) => { v.setUint32(77, 0, true); v.setUint32(81, 1, true); })],
      ['non-finite weight', resealed(bytes, (v) => v.setFloat64(69, Infinity, true))],
      ['undirected arc without its mirror', resealed(undirected, (v) => v.setFloat64(69, 99, true))],
      ['wrong magic', resealed(bytes, (v) => v.setUint8(0, 0))],
    ];
    for (const [name, bad] of cases) expect(codeOf(() => Graph.fromBuffer(bad, { backend })), name).toBe('INVALID_SNAPSHOT');
    expect(codeOf(() => Graph.fromBuffer([1, 2, 3] as unknown as Uint8Array, { backend }))).toBe('INVALID_ARGUMENT');
    // The untouched bytes still load.
    expect(Graph.fromBuffer(bytes, { backend }).weight(0, 'b')).toBe(2.5);
  });
});

describe.each(BACKENDS)('bad input to the conveniences changes nothing (%s)', (backend) => {
  it('rejects bad ids, numbers, options and use after dispose, graph bytes unchanged', () => {
    for (const directed of [true, false]) {
      const g = new Graph({ backend, directed });
      g.addVertex('a', { x: 0, y: 0 });
      g.addEdge('a', 'b', 1);
      g.addEdge('b', 'c', -1);
      const before = g.toBuffer();
      const calls: Array<[() => unknown, string]> = [
        [() => g.addEdge('a', 'c', NaN), 'INVALID_NUMBER'],
        [() => g.addEdge('a', -1, 1), 'INVALID_ID'],
        [() => g.addEdge(1.5, 'a', 1), 'INVALID_ID'],
        [() => g.hasEdge('a', {} as unknown as VertexId), 'INVALID_ID'],
        [() => g.weight(-3, 'a'), 'INVALID_ID'],
        [() => g.neighbors('zz'), 'UNKNOWN_ID'],
        [() => g.degree(2 ** 31), 'INVALID_ID'],
        [() => g.degree(9), 'UNKNOWN_ID'],
        [() => g.nearestVertex(NaN, 0), 'INVALID_NUMBER'],
        [() => g.nearestVertex(0, Infinity), 'INVALID_NUMBER'],
        [() => g.removeVertex(-1), 'INVALID_ID'],
        [() => new Graph({ backend, directed: 'no' as unknown as boolean }), 'INVALID_ARGUMENT'],
        [() => Graph.fromEdges(Int32Array.of(0), Int32Array.of(1), Float64Array.of(1), { backend, directed: 0 as unknown as boolean }), 'INVALID_ARGUMENT'],
      ];
      for (const [call, code] of calls) {
        expect(codeOf(call)).toBe(code);
        expect(g.toBuffer()).toEqual(before);
      }
      expect([g.hasEdge('a', 'zz'), g.weight('zz', 'a'), g.weight('c', 'a')]).toEqual([false, undefined, undefined]);
      expect(g.weight('c', 'b')).toBe(directed ? undefined : -1);
      g.dispose();
      for (const call of [() => g.toBuffer(), () => g.hasEdge('a', 'b'), () => g.weight('a', 'b'), () => g.neighbors('a'), () => g.degree('a'), () => g.nearestVertex(0, 0)]) {
        expect(codeOf(call)).toBe('DISPOSED');
      }
    }
  });
});
