// The sizes every structure stays within, and how running out of memory
// becomes a SpatialError. The limits keep each buffer of the wasm core below
// the largest block its allocator hands out (2^29 bytes) and each array of
// the js backend below what V8 can hold, on both backends alike; the numbers
// behind each are in docs/limits.md. Past a limit a call is refused before
// anything changes (LIMIT_EXCEEDED). Memory the host will not give (wasm
// memory that cannot grow, a js allocation that fails) ends the call part
// way; the structure is then put back as it was and the caller gets
// OUT_OF_MEMORY.
import { SpatialError } from './errors.js';

/** The sizes a structure stays within; see docs/limits.md. */
export interface Limits {
  /** Entities in a Scene with the lists index. */
  sceneListsEntities: number;
  /** Entities in a Scene with the grid index. */
  sceneGridEntities: number;
  /** The most pending events a Scene may hold, and its default maxPendingEvents. */
  pendingEvents: number;
  /** Cells of a GridMap (width * height). */
  gridCells: number;
  /** Vertices of a Graph. */
  graphVertices: number;
  /** Arcs of a Graph (an undirected edge is two, but for a self-loop). */
  graphEdges: number;
  /** Items in a QuadTree. */
  quadtreeItems: number;
}

/** The limits as shipped. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  sceneListsEntities: 2 ** 21,
  // 2^24 - 1: the most entries a JavaScript Map holds (ids that do not index an array live in one).
  sceneGridEntities: 2 ** 24 - 1,
  pendingEvents: 2 ** 24,
  gridCells: 2 ** 24,
  graphVertices: 2 ** 24 - 1,
  graphEdges: 2 ** 24 - 1,
  quadtreeItems: 2 ** 23,
});

/**
 * The limits in force. Only tests change them (through the hook in
 * internals.ts), to reach a limit with small data.
 */
export const limits: Limits = { ...DEFAULT_LIMITS };

/** Throws LIMIT_EXCEEDED when `count` would pass `limit`; `what` names the count in the message. */
export function checkLimit(what: string, count: number, limit: number): void {
  if (count > limit) throw new SpatialError('LIMIT_EXCEEDED', `${what} would be ${count}, above the limit of ${limit} (see docs/limits.md)`);
}

/** Thrown by a Scene core (either backend) when an event would pass its event limit; the facade turns it into LIMIT_EXCEEDED. */
export class EventLimitReached extends Error {
  constructor() {
    super('the event limit is reached');
    this.name = 'EventLimitReached';
  }
}

/** The wasm core's import: called where an event would pass the limit, it throws EventLimitReached out of the core. */
export function eventLimitReached(): never {
  throw new EventLimitReached();
}

/**
 * A wasm core's import for an allocation it can do without: the block from
 * `alloc` (its module's allocator), or 0 where the allocator traps because
 * the memory cannot grow that far (the trap unwinds only this nested call,
 * and leaves the allocator as it was).
 */
export function tryAlloc(alloc: ((bytes: number) => number) | null, bytes: number): number {
  try {
    return alloc === null ? 0 : alloc(bytes >>> 0);
  } catch (error) {
    if (isOutOfMemory(error)) return 0;
    throw error;
  }
}

/**
 * Whether an error thrown out of a core means memory ran out: wasm memory
 * that could not grow (the allocator traps with `unreachable`), a block
 * larger than the allocator hands out ("Allocation too large"), or a js
 * array or buffer that could not be made (RangeError).
 */
export function isOutOfMemory(error: unknown): boolean {
  if (error instanceof WebAssembly.RuntimeError) return /unreachable/.test(error.message);
  if (error instanceof RangeError) return /^(Invalid (typed )?array( buffer)? length|Array buffer allocation failed|Invalid string length)/.test(error.message);
  return error instanceof Error && /Allocation too large/.test(error.message);
}

/** The SpatialError for running out of memory in `what`, or null when `error` means something else. */
export function outOfMemory(error: unknown, what: string): SpatialError | null {
  if (!isOutOfMemory(error)) return null;
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new SpatialError('OUT_OF_MEMORY', `${what} ran out of memory (${reason}); nothing changed`);
}

/** Runs fn, turning running out of memory into OUT_OF_MEMORY: for calls that change nothing when they fail (queries, searches). */
export function memoryGuarded<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw outOfMemory(error, what) ?? error;
  }
}
