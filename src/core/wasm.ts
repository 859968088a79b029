/// <reference path="./wasm-module.d.ts" />
// Loading the wasm core once, in Node and in browsers. The module's bytes are
// embedded in the bundle, so there is no file to fetch and no path to configure.
import bytes from '../../build/spatialkit.wasm';
import { instantiate } from '../../build/spatialkit.js';
import { SpatialError } from './errors.js';
import { LinearMemory } from './memory.js';
import { bindAllocator, eventLimitReached, tryAlloc } from './limits.js';

/** The exports of the compiled core, as typed by asc's generated bindings. */
export type CoreExports = Awaited<ReturnType<typeof instantiate>>;

/** The instantiated core: its exports plus the views over its memory. */
export interface Core {
  readonly exports: CoreExports;
  readonly memory: LinearMemory;
}

/** Which implementation backs an object: the wasm core or the TypeScript reference. */
export type Backend = 'wasm' | 'js';

let core: Core | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads and instantiates the wasm module. Idempotent: every call after the
 * first, including concurrent ones, shares the same instantiation.
 */
export function init(): Promise<void> {
  if (loading === null) {
    loading = (async () => {
      const module = await WebAssembly.compile(bytes as BufferSource);
      const exports = await instantiate(module, { env: { eventLimitReached, tryAlloc } });
      bindAllocator(exports.alloc);
      core = { exports, memory: new LinearMemory(exports.memory) };
    })();
    loading.catch(() => {
      loading = null; // a failed load may be retried
    });
  }
  return loading;
}

/** True once {@link init} has resolved. */
export function isInitialized(): boolean {
  return core !== null;
}

/** The loaded core; throws NOT_INITIALIZED before {@link init} resolves. */
export function wasmCore(): Core {
  if (core === null) {
    throw new SpatialError('NOT_INITIALIZED', 'call and await init() before creating wasm-backed objects');
  }
  return core;
}

/** Validates a backend option, defaulting to 'wasm'. */
export function resolveBackend(backend: Backend | undefined): Backend {
  if (backend === undefined || backend === 'wasm') return 'wasm';
  if (backend === 'js') return 'js';
  throw new SpatialError('INVALID_ARGUMENT', `backend must be 'wasm' or 'js', got ${String(backend)}`);
}
