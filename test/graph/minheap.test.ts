import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { WasmBuffer } from '../../src/core/memory.js';
import { MinHeap } from '../../src/graph/js/minheap.js';
import { probeModule } from '../support/probe.js';

beforeAll(() => probeModule.load());

const keyLists = fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), { maxLength: 300 });

describe('MinHeap (the priority queue of Dijkstra and A*)', () => {
  it('wasm heap pops keys in ascending order, duplicates included', () => {
    const core = probeModule.core();
    const buffer = new WasmBuffer(core.exports, core.memory);
    fc.assert(
      fc.property(keyLists, (keys) => {
        buffer.reserve(Math.max(keys.length, 1) * 8);
        buffer.f64(keys.length).set(keys);
        core.exports.probeHeapSort(buffer.ptr, keys.length);
        expect(Array.from(buffer.f64(keys.length))).toEqual([...keys].sort((a, b) => a - b));
      }),
    );
    buffer.free();
  });

  it('reference heap pops every value once, by ascending key, across interleaved pushes', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ noNaN: true, min: -100, max: 100 }), fc.constant(null)), { maxLength: 300 }), (ops) => {
        const heap = new MinHeap(1);
        const model: Array<[number, number]> = [];
        ops.forEach((op, value) => {
          if (op === null) {
            if (heap.empty) return expect(model.length).toBe(0);
            const key = heap.topKey;
            const popped = heap.pop();
            model.sort((a, b) => a[0] - b[0]);
            expect(key).toBe(model[0][0]);
            const index = model.findIndex(([k, v]) => k === key && v === popped);
            expect(index).toBeGreaterThanOrEqual(0);
            model.splice(index, 1);
          } else {
            heap.push(op, value);
            model.push([op, value]);
          }
        });
        expect(heap.size).toBe(model.length);
      }),
    );
  });
});
