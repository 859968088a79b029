// The probe module (assembly/probe.ts): test kernels that the package never
// ships, loaded on their own.
import bytes from '../../build/probe.wasm.gz';
import { instantiate } from '../../build/probe.js';
import { WasmModule } from '../../src/core/wasm.js';

export const probeModule = new WasmModule('probe', bytes, instantiate);
