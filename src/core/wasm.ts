/// <reference path="./wasm-module.d.ts" />
// Loading wasm modules in Node and in browsers. Each concept compiles to a
// module of its own (build/<concept>.wasm, with its own linear memory); the
// concept's adapter embeds that module's bytes, gzipped, and declares it as a
// WasmModule, so a bundle holds only the modules its code uses, and there is
// no file to fetch and no path to configure. Gzip makes the embedded module
// about 40% of its size (a Scene-only bundle shrinks by 42 kB); the platform
// unpacks it as the module loads, which init() awaits anyway.
import { SpatialError } from './errors.js';
import { LinearMemory } from './memory.js';
import { eventLimitReached, tryAlloc } from './limits.js';

/** What every module exports beside its own calls: its memory and the allocator of assembly/memory.ts. */
export interface ModuleExports {
  readonly memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  realloc(ptr: number, bytes: number): number;
  free(ptr: number): void;
}

/** An instantiated module: its exports plus the views over its memory. */
export interface Core<E extends ModuleExports> {
  readonly exports: E;
  readonly memory: LinearMemory;
}

/** The loaded form of a {@link WasmModule}. */
export type CoreOf<M> = M extends WasmModule<infer E> ? Core<E> : never;

/** asc's generated `instantiate` (its raw bindings) for one module. */
export type Instantiate<E> = (module: WebAssembly.Module, imports: { env: object }) => Promise<E>;

/** Which implementation backs an object: the wasm core or the TypeScript reference. */
export type Backend = 'wasm' | 'js';

/**
 * Wraps a loader so that every call shares one run of it, concurrent calls
 * included; a run that fails is forgotten, so a later call retries.
 */
export function once(load: () => Promise<void>): () => Promise<void> {
  let loading: Promise<void> | null = null;
  return () => {
    if (loading === null) {
      loading = load();
      loading.catch(() => {
        loading = null;
      });
    }
    return loading;
  };
}

/** One wasm module, compiled and instantiated once, on the first {@link WasmModule.load}. */
export class WasmModule<E extends ModuleExports> {
  private instance: Core<E> | null = null;

  /** Loads the module; idempotent, and concurrent calls share one instantiation. */
  readonly load: () => Promise<void>;

  /** `name` is the concept the module serves, for the errors; `gzipped` is the module's bytes, gzipped, in base64. */
  constructor(
    private readonly name: string,
    gzipped: string,
    instantiate: Instantiate<E>,
  ) {
    this.load = once(async () => {
      const module = await WebAssembly.compile(await gunzip(Uint8Array.from(atob(gzipped), (c) => c.charCodeAt(0)), name));
      // The imports a Scene core calls (the other modules import nothing); tryAlloc asks this module's allocator.
      let exports: E | null = null;
      exports = await instantiate(module, { env: { eventLimitReached, tryAlloc: (bytes: number) => tryAlloc(exports?.alloc ?? null, bytes) } });
      this.instance = { exports, memory: new LinearMemory(exports.memory) };
    });
  }

  /** The loaded module; throws NOT_INITIALIZED before {@link WasmModule.load} resolves. */
  core(): Core<E> {
    if (this.instance === null) {
      throw new SpatialError('NOT_INITIALIZED', `call and await init() before creating wasm-backed objects (the ${this.name} module is not loaded), or pass backend: 'js' to run on the TypeScript backend without init()`);
    }
    return this.instance;
  }
}

/** The part of Node's zlib that {@link gunzip} uses. */
interface NodeZlib {
  gunzipSync(gzipped: Uint8Array): Uint8Array<ArrayBuffer>;
}

/** Node's zlib, through process.getBuiltinModule (Node 20.16 and later), which needs no import a bundler would follow; undefined elsewhere. */
function nodeZlib(): NodeZlib | undefined {
  const node = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
  return node?.getBuiltinModule?.('node:zlib') as NodeZlib | undefined;
}

/**
 * Unpacks gzipped bytes: in Node with its zlib (whose first use costs a
 * third of what Node's DecompressionStream's does), elsewhere with the
 * platform's DecompressionStream (Chrome 80, Firefox 113, Safari 16.4 and
 * later). Where there is neither, the wasm module cannot load, and the
 * error says so and points at the js backend.
 */
async function gunzip(gzipped: Uint8Array, name: string): Promise<Uint8Array<ArrayBuffer>> {
  const zlib = nodeZlib();
  if (zlib !== undefined) return zlib.gunzipSync(gzipped);
  if (typeof DecompressionStream !== 'function') {
    throw new SpatialError('NOT_INITIALIZED', `the ${name} module cannot load: this platform has no DecompressionStream to unpack it (Chrome 80, Firefox 113, Safari 16.4 and later have it); pass backend: 'js' to run on the TypeScript backend without init()`);
  }
  const unpacked = new Blob([gzipped as BufferSource]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(unpacked).arrayBuffer());
}

/** Validates a backend option, defaulting to 'wasm'. */
export function resolveBackend(backend: Backend | undefined): Backend {
  if (backend === undefined || backend === 'wasm') return 'wasm';
  if (backend === 'js') return 'js';
  throw new SpatialError('INVALID_ARGUMENT', `backend must be 'wasm' or 'js', got ${String(backend)}`);
}
