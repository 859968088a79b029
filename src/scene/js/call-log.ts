// What both js Scene cores keep about the calls made to them, so that a
// Scene can put a core back as it was when a call fails part way (see
// ../recovery.ts): the event log (bounded, silent while entities load,
// marked where each call began) and the journal of the pairs held thanks
// to a margin. The wasm cores keep the same inside the module.
import { EventLog } from './event-log.js';
import { heldBefore, type CallRecord } from '../recovery.js';

/** Held pairs that journal their changes: HeldLinks and HeldPairs. */
export interface JournaledPairs {
  /** The current call's changes: w, t, then 1 (held) or -1 (dropped). */
  readonly journal: number[];
  /** Every pair as watcher, target. */
  list(): number[];
}

/** The part of a js Scene core that records calls; the cores extend it. */
export abstract class CallLog {
  protected readonly events = new EventLog();
  protected abstract readonly held: JournaledPairs;
  /** Nothing to spare in js: a reload asks for what it asks for. */
  lean = false;

  /** Int32 entries the event log may hold. */
  get eventLimit(): number {
    return this.events.limit;
  }

  set eventLimit(limit: number) {
    this.events.limit = limit;
  }

  /** While true, no event is written. */
  get silent(): boolean {
    return this.events.silent;
  }

  set silent(on: boolean) {
    this.events.silent = on;
  }

  /** Marks the start of a call made from the facade. */
  beginCall(): void {
    this.events.beginCall();
    this.held.journal.length = 0;
  }

  /** After a call failed part way: the events logged before it and the held pairs as they were. */
  beforeCall(): CallRecord {
    return { events: this.events.beforeCall(), held: heldBefore(this.held.list(), this.held.journal) };
  }
}
