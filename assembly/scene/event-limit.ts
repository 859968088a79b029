// Called by a Scene core where an event would pass its event limit. The
// TypeScript side throws from it (src/core/limits.ts), which ends the call
// part way; the Scene then rebuilds its core as it was before the call.
@external("env", "eventLimitReached")
export declare function eventLimitReached(): void;
