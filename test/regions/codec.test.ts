// Ghost batches as bytes: any batch comes back equal, float64 coordinates
// exact, and bytes that are not a whole batch are refused with a code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeGhostBatch, encodeGhostBatch, type GhostBatch, type GhostOp } from '../../src/regions/index.js';
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
