// The events a js Scene core has written since the last drain, as the wasm
// cores keep them: flat [type, watcher id, target id, ...], bounded by a
// limit (an event past it throws, ending the call part way; the Scene then
// rebuilds its core as it was), silent while a snapshot or a recovery loads
// entities, and marked where the current call began.
import { EventLimitReached } from '../../core/limits.js';

/** A js core's pending events. */
export class EventLog {
  private entries: number[] = [];
  /** Int32 entries the log may hold. */
  limit = Infinity;
  /** While true, nothing is written. */
  silent = false;
  /** Entries when the current call began. */
  private start = 0;

  /** Appends one event, or throws EventLimitReached when it would pass the limit. */
  push(type: number, watcher: number, target: number): void {
    if (this.silent) return;
    if (this.entries.length + 3 > this.limit) throw new EventLimitReached();
    this.entries.push(type, watcher, target);
  }

  /** Int32 entries held (three per event). */
  get length(): number {
    return this.entries.length;
  }

  /** Marks the start of a call. */
  beginCall(): void {
    this.start = this.entries.length;
  }

  /** The events written before the current call began. */
  beforeCall(): Int32Array {
    return Int32Array.from(this.entries.slice(0, this.start));
  }

  /** Every event, then forgets them. */
  drain(): Int32Array {
    const out = Int32Array.from(this.entries);
    this.entries.length = 0;
    this.start = 0;
    return out;
  }

  clear(): void {
    this.entries.length = 0;
    this.start = 0;
  }
}
