// Wasm memory of objects dropped without dispose(). A wasm-backed object's
// record in linear memory is invisible to the garbage collector, so the
// object registers here what frees it: once the collector reclaims the
// object, the registry frees the record and its buffers, and the core's
// allocator hands that memory to later objects. dispose() frees at once and
// cancels the registration, so nothing is freed twice.

/** Memory an object owns besides its record: a WasmBuffer, or anything holding some. */
export interface Freeable {
  free(): void;
}

/** What frees one object's wasm memory. It must not reach the object, or the object would never be collected. */
interface Held {
  /** The core's destructor of the object's record. */
  readonly destroy: (handle: number) => void;
  readonly handle: number;
  /** What else the object owns; read when freeing, so the object may add to the list later. */
  readonly buffers: readonly Freeable[];
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
export function freeOnCollect(owner: object, destroy: (handle: number) => void, handle: number, buffers: readonly Freeable[] = []): void {
  registry?.register(owner, { destroy, handle, buffers }, owner);
}

/** Cancels {@link freeOnCollect}: the owner freed its memory itself. */
export function forgetOnCollect(owner: object): void {
  registry?.unregister(owner);
}
