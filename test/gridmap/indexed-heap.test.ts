// The indexed 4-ary heap of the grid searches: random sequences of push,
// decrease-key and pop, checked against a plain list model (every pop returns
// a smallest key, every queued value comes out exactly once with its latest
// key), with the wasm heap and the reference heap popping the very same
// entries in the same order, since the backends' paths depend on it.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { WasmBuffer } from '../../src/core/memory.js';
import { IndexedHeap } from '../../src/gridmap/js/indexed-heap.js';
import { probeModule } from '../support/probe.js';

beforeAll(() => probeModule.load());

const PUSH = 0;
const DECREASE = 1;
const POP = 2;
const SLOTS = 64;

/** One operation as the wasm probe reads it: kind, key, value. */
type Op = [number, number, number];

// Keys from a small set, so that ties (which the two heaps must break alike) are frequent.
const key = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double({ min: -50, max: 50, noNaN: true }).map((k) => k + 0)); // no -0
const drop = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.double({ min: 0, max: 10, noNaN: true }));
const rawOps = fc.array(fc.record({ kind: fc.constantFrom(PUSH, PUSH, DECREASE, POP), key, pick: fc.nat(), drop }), {
  maxLength: 400,
  size: 'max',
});

/**
 * Runs the operations on the reference heap and the model, choosing concrete
 * values (a push takes a value not queued, a decrease a queued one and lowers
 * its key by `drop`), and returns the concrete operations with pops filled in.
 */
function runReference(raw: Array<{ kind: number; key: number; pick: number; drop: number }>): Op[] {
  const heap = new IndexedHeap(SLOTS);
  const model = new Map<number, number>(); // queued value -> key
  const ops: Op[] = [];
  for (const { kind, key, pick, drop } of raw) {
    if (kind === PUSH) {
      const free = [...Array(SLOTS).keys()].filter((v) => !model.has(v));
      if (free.length === 0) continue;
      const value = free[pick % free.length];
      heap.push(key, value);
      model.set(value, key);
      ops.push([PUSH, key, value]);
    } else if (kind === DECREASE) {
      const queued = [...model.keys()];
      if (queued.length === 0) continue;
      const value = queued[pick % queued.length];
      const lower = model.get(value)! - drop + 0;
      heap.decrease(lower, value);
      model.set(value, lower);
      ops.push([DECREASE, lower, value]);
    } else {
      if (heap.empty) {
        expect(model.size).toBe(0);
        continue;
      }
      const top = heap.topKey;
      const value = heap.pop();
      expect(top).toBe(Math.min(...model.values()));
      expect(model.get(value)).toBe(top);
      model.delete(value);
      ops.push([POP, top, value]);
    }
    expect(heap.size).toBe(model.size);
  }
  // Drain: what is left comes out in key order, each value once.
  let last = -Infinity;
  while (!heap.empty) {
    const top = heap.topKey;
    const value = heap.pop();
    expect(top).toBeGreaterThanOrEqual(last);
    expect(model.get(value)).toBe(top);
    model.delete(value);
    ops.push([POP, top, value]);
    last = top;
  }
  expect(model.size).toBe(0);
  return ops;
}

describe('IndexedHeap (the open list of the grid searches)', () => {
  it('reference heap: pops a smallest key, each queued value once with its latest key', () => {
    fc.assert(fc.property(rawOps, (raw) => void runReference(raw)));
  });

  it('wasm heap pops the same entries in the same order as the reference heap', () => {
    const core = probeModule.core();
    const buffer = new WasmBuffer(core.exports, core.memory);
    fc.assert(
      fc.property(rawOps, (raw) => {
        const ops = runReference(raw);
        buffer.reserve(Math.max(ops.length, 1) * 24);
        // Pops go in with placeholder key and value, so the wasm heap must write them.
        buffer.f64(ops.length * 3).set(ops.flatMap(([kind, k, v]) => (kind === POP ? [POP, NaN, -1] : [kind, k, v])));
        core.exports.probeIndexedHeap(buffer.ptr, ops.length, SLOTS);
        expect(Array.from(buffer.f64(ops.length * 3))).toEqual(ops.flat());
      }),
    );
    buffer.free();
  });
});
