// What a Scene core calls out to the TypeScript side for (src/core/limits.ts
// provides both at instantiation).

/**
 * Called where an event would pass the scene's event limit. The TypeScript
 * side throws from it, which ends the call part way; the Scene then rebuilds
 * its core as it was before the call.
 */
@external("env", "eventLimitReached")
export declare function eventLimitReached(): void;

/**
 * Allocates `bytes` like heap.alloc, or returns 0 where the memory cannot
 * grow that far: for allocations a core can do without (renumbering list
 * records in memory order), which must never be what makes a call fail.
 * (i32 rather than usize, so the import needs no adapter in the bindings.)
 */
@external("env", "tryAlloc")
export declare function tryAlloc(bytes: i32): i32;
