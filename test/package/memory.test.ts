import { beforeAll, describe, expect, it } from 'vitest';
import { WasmBuffer } from '../../src/core/memory.js';
import type { CoreOf } from '../../src/core/wasm.js';
import { probeModule } from '../support/probe.js';

let core: CoreOf<typeof probeModule>;
beforeAll(async () => {
  await probeModule.load();
  core = probeModule.core();
});

describe('linear memory', () => {
  it('keeps views valid and data intact when memory grows past 256 MiB', () => {
    const small = new WasmBuffer(core.exports, core.memory);
    const count = 1000;
    small.reserve(count * 8);
    core.exports.probeFill(small.ptr, count, 7);
    const before = core.memory.f64;
    const beforeBytes = core.memory.byteLength;

    // 300 MiB in one buffer forces memory.grow well past 256 MiB.
    const big = new WasmBuffer(core.exports, core.memory);
    const bigCount = (300 * 1024 * 1024) / 8;
    big.reserve(bigCount * 8);
    core.exports.probeFill(big.ptr, bigCount, 1);

    expect(core.memory.byteLength).toBeGreaterThan(256 * 1024 * 1024);
    expect(core.memory.byteLength).toBeGreaterThan(beforeBytes);
    // The old view is detached: this is the silent failure the module exists to prevent.
    expect(before.length).toBe(0);
    // Fresh views see both the old and the new data.
    const view = core.memory.f64;
    expect(view[small.ptr / 8]).toBe(7);
    expect(view[small.ptr / 8 + count - 1]).toBe(7 + count - 1);
    expect(view[big.ptr / 8 + bigCount - 1]).toBe(bigCount);
    expect(core.exports.probeSum(small.ptr, count)).toBe((count * (7 + 7 + count - 1)) / 2);
    big.free();
    small.free();
  });

  it('keeps a buffer\'s contents when it grows by doubling', () => {
    const buffer = new WasmBuffer(core.exports, core.memory);
    buffer.reserve(16 * 8);
    const first = buffer.f64(16);
    for (let i = 0; i < 16; i++) first[i] = i * 1.5;
    buffer.reserve(1_000_000 * 8);
    expect(buffer.byteCapacity).toBeGreaterThanOrEqual(1_000_000 * 8);
    expect(Array.from(buffer.f64(16))).toEqual(Array.from({ length: 16 }, (_, i) => i * 1.5));
    buffer.free();
    expect(buffer.ptr).toBe(0);
  });
});
