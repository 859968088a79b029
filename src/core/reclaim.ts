// Wasm memory of objects dropped without dispose(). A wasm-backed object's
// record in linear memory is invisible to the garbage collector, so the
// object registers here what frees it: once the collector reclaims the
// object, the registry frees the record and its buffers, and the core's
// allocator hands that memory to later objects. dispose() frees at once and
// cancels the registration, so nothing is freed twice.
import type { WasmBuffer } from './memory.js';

/** What frees one object's wasm memory. It must not reach the object, or the object would never be collected. */
interface Held {
  /** The core's destructor of the object's record. */
  readonly destroy: (handle: number) => void;
  readonly handle: number;
  /** Buffers the object owns in linear memory. */
  readonly buffers: readonly WasmBuffer[];
}

function free(held: Held): void {
  for (const buffer of held.buffers) buffer.free();
  held.destroy(held.handle);
}

/** Absent where FinalizationRegistry is (engines before 2021): there only dispose() frees. */
const registry = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<Held>(free) : null;

/**
 * Frees `handle` with `destroy`, and `buffers`, once `owner` has been
 * garbage-collected without {@link forgetOnCollect} being called first.
 */
export function freeOnCollect(owner: object, destroy: (handle: number) => void, handle: number, buffers: readonly WasmBuffer[] = []): void {
  registry?.register(owner, { destroy, handle, buffers }, owner);
}

/** Cancels {@link freeOnCollect}: the owner freed its memory itself. */
export function forgetOnCollect(owner: object): void {
  registry?.unregister(owner);
}
