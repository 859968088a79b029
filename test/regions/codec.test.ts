// Ghost batches and hand-offs as bytes: any batch or list of hand-offs comes
// back equal, float64 coordinates exact, and bytes that are not a whole
// message are refused with a code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AoiRange } from '../../src/index.js';
import { decodeGhostBatch, decodeHandoffs, encodeGhostBatch, encodeHandoffs, type EntityOp, type GhostBatch, type GhostOp, type Handoff } from '../../src/regions/index.js';
import { codeOf } from '../support/codes.js';

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const coordinate = fc.double({ noNaN: true, noDefaultInfinity: true });
const op: fc.Arbitrary<GhostOp> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), x: coordinate, y: coordinate, layer: int32 }),
  fc.record({ kind: fc.constant('move' as const), x: coordinate, y: coordinate }),
  fc.record({ kind: fc.constant('layer' as const), layer: int32 }),
  fc.record({ kind: fc.constant('remove' as const) }),
);
const batch: fc.Arbitrary<GhostBatch> = fc.record({
  from: fc.nat({ max: 2 ** 31 - 1 }),
  to: fc.nat({ max: 2 ** 31 - 1 }),
  tick: fc.nat({ max: 2 ** 31 - 1 }),
  entities: fc.array(fc.record({ id: fc.nat({ max: 2 ** 31 - 1 }), ops: fc.array(op, { maxLength: 4 }) }), { maxLength: 20 }),
});

describe('ghost batch bytes', () => {
  it('decode(encode(batch)) equals batch, -0 and subnormal coordinates included', () => {
    fc.assert(
      fc.property(batch, (b) => {
        expect(decodeGhostBatch(encodeGhostBatch(b))).toEqual(b);
      }),
    );
  });

  it('spends 23 bytes on an entity that moved once, after a 17-byte header', () => {
    const one = encodeGhostBatch({ from: 0, to: 1, tick: 5, entities: [{ id: 7, ops: [{ kind: 'move', x: 0.1, y: 2 }] }] });
    expect(one.byteLength).toBe(17 + 23);
  });

  it('refuses truncated, extended, unknown-version and unknown-operation bytes with INVALID_ARGUMENT', () => {
    const good = encodeGhostBatch({ from: 0, to: 1, tick: 5, entities: [{ id: 7, ops: [{ kind: 'add', x: 1, y: 2, layer: 1 }] }] });
    expect(codeOf(() => decodeGhostBatch(good.subarray(0, good.length - 1)))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => decodeGhostBatch(Uint8Array.from([...good, 0])))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => decodeGhostBatch(Uint8Array.from(good, (v, i) => (i === 0 ? 9 : v))))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => decodeGhostBatch(Uint8Array.from(good, (v, i) => (i === 23 ? 7 : v))))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => decodeGhostBatch([1, 2] as unknown as Uint8Array))).toBe('INVALID_ARGUMENT');
  });
});

const id = fc.nat({ max: 2 ** 31 - 1 });
const size = fc.double({ min: 0, noNaN: true, noDefaultInfinity: true });
const range: fc.Arbitrary<AoiRange> = fc.oneof(fc.constant(null), size, fc.record({ x: size, y: size }), fc.record({ radius: size }));
const entityOp: fc.Arbitrary<EntityOp> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), x: coordinate, y: coordinate, range, layer: int32, sees: int32, margin: size }),
  fc.record({ kind: fc.constant('move' as const), x: coordinate, y: coordinate }),
  fc.record({ kind: fc.constant('range' as const), range, margin: size }, { requiredKeys: ['kind', 'range'] }),
  fc.record({ kind: fc.constant('layers' as const), layer: int32, sees: int32 }),
  fc.record({ kind: fc.constant('remove' as const) }),
);
const handoff: fc.Arbitrary<Handoff> = fc.record({
  id,
  from: id,
  to: id,
  tick: id,
  state: fc.option(fc.record({ x: coordinate, y: coordinate, range, margin: size, layer: int32, sees: int32 }), { nil: null }),
  seen: fc.array(fc.record({ id, owner: id, x: coordinate, y: coordinate, layer: int32 }), { maxLength: 5 }),
  far: fc.array(id, { maxLength: 3 }),
  holders: fc.array(id, { maxLength: 3 }),
  ops: fc.array(entityOp, { maxLength: 4 }),
});

describe('hand-off bytes', () => {
  it('decode(encode(hand-offs)) equals them: ranges of every shape, every operation, with and without state', () => {
    fc.assert(
      fc.property(fc.array(handoff, { maxLength: 6 }), (handoffs) => {
        expect(decodeHandoffs(encodeHandoffs(handoffs))).toEqual(handoffs);
      }),
    );
  });

  it('refuses truncated, altered and foreign bytes with INVALID_SNAPSHOT, and what is not bytes with INVALID_ARGUMENT', () => {
    const good = encodeHandoffs([
      { id: 7, from: 0, to: 1, tick: 3, state: { x: 1, y: 2, range: { radius: 3 }, margin: 1, layer: 1, sees: -1 }, seen: [{ id: 8, owner: 0, x: 2, y: 2, layer: 1 }], far: [], holders: [0], ops: [{ kind: 'move', x: 4, y: 2 }] },
    ]);
    expect(decodeHandoffs(good)).toHaveLength(1);
    expect(codeOf(() => decodeHandoffs(good.subarray(0, good.length - 1)))).toBe('INVALID_SNAPSHOT');
    expect(codeOf(() => decodeHandoffs(Uint8Array.from(good, (v, i) => (i === good.length - 9 ? v ^ 1 : v))))).toBe('INVALID_SNAPSHOT');
    expect(codeOf(() => decodeHandoffs(encodeGhostBatch({ from: 0, to: 1, tick: 3, entities: [] })))).toBe('INVALID_SNAPSHOT');
    expect(codeOf(() => decodeHandoffs([1, 2] as unknown as Uint8Array))).toBe('INVALID_ARGUMENT');
  });
});
