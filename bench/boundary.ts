// Settles the measuring method before the real suites: what one JS-to-wasm
// call costs next to a JS call, and what a bulk loop over a Float64Array in
// linear memory costs in wasm next to the same loop in JS. The kernels are
// the probe module's (assembly/probe.ts), which the package never ships.
import probeBytes from '../build/probe.wasm.gz';
import { instantiate } from '../build/probe.js';
import { WasmModule } from '../src/core/wasm.js';
import { WasmBuffer } from '../src/core/memory.js';
import type { Suite } from './harness.js';

function jsNoop(x: number): number {
  return x + 1;
}

function jsSum(values: Float64Array, count: number): number {
  let sum = 0;
  for (let i = 0; i < count; i++) sum += values[i];
  return sum;
}

export const boundarySuite: Suite = {
  name: 'boundary',
  title: 'Boundary: JS-to-wasm call cost and bulk loops in linear memory',
  async run(context) {
    const probe = new WasmModule('probe', probeBytes, instantiate);
    await probe.load();
    const core = probe.core();
    const exports = core.exports;
    const calls = 1_000_000;
    let sink = 0;
    const noop = exports.probeNoop;
    context.bench(
      'one call, 1,000,000 times',
      [
        { name: 'wasm call', run: () => { for (let i = 0; i < calls; i++) sink += noop(i); } },
        { name: 'js call', run: () => { for (let i = 0; i < calls; i++) sink += jsNoop(i); } },
      ],
      { opsPerRun: calls, opName: 'call' },
    );

    const count = 1_000_000;
    const buffer = new WasmBuffer(exports, core.memory);
    buffer.reserve(count * 8);
    exports.probeFill(buffer.ptr, count, 0);
    const jsCopy = Float64Array.from(buffer.f64(count));
    let wasmSum = 0;
    let jsTotal = 0;
    context.bench(
      'sum 1,000,000 doubles',
      [
        { name: 'wasm loop over linear memory', run: () => { wasmSum = exports.probeSum(buffer.ptr, count); } },
        { name: 'js loop over a view of linear memory', run: () => { jsTotal = jsSum(buffer.f64(count), count); } },
        { name: 'js loop over a Float64Array', run: () => { jsTotal = jsSum(jsCopy, count); } },
      ],
      { opsPerRun: count, opName: 'element' },
    );
    if (wasmSum !== jsTotal) throw new Error(`sums differ: wasm ${wasmSum}, js ${jsTotal}`);
    context.note(`sums agree (${wasmSum}); call sink ${sink > 0 ? 'used' : 'unused'}`);
    buffer.free();
  },
};
