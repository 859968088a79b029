// A QuadTree core that running out of memory cannot leave half changed. It
// runs another core (wasm or js) and keeps, by slot, what that core was
// last told and did: each item's id and rect, and the tree's settings. When
// a call that changes the tree fails part way (wasm memory that cannot
// grow, an allocation too large, a js array that cannot be made), the inner
// core is emptied and refilled in one batch with the items as they were,
// then OUT_OF_MEMORY is thrown; its nodes are then those of a tree filled in
// one batch (as after QuadTree.fromBuffer), its items and answers as before.
// A read that fails changes nothing and throws OUT_OF_MEMORY too.
import { outOfMemory } from '../core/limits.js';
import type { Box, QuadTreeBackend, QuadTreeSettings, SegmentHits } from './backend.js';

/** Items reloaded per insertMany after a failure. */
const RELOAD_CHUNK = 1 << 16;

export class RecoveringCore implements QuadTreeBackend {
  /** Per slot: its item's id (-1 for a free slot) and rect. */
  private ids = new Int32Array(64).fill(-1);
  private rects = new Float64Array(4 * 64);
  private slotCount = 0;
  private bounds: Box | null;
  private capacity: number;

  /** Runs `inner`, an empty core built with these bounds (or none) and capacity. */
  constructor(
    /** The core that holds the tree. */
    readonly inner: QuadTreeBackend,
    bounds: Box | null,
    capacity: number,
  ) {
    this.bounds = bounds;
    this.capacity = capacity;
  }

  get levels(): number {
    return this.inner.levels;
  }

  get bytes(): number {
    return this.inner.bytes;
  }

  insert(slot: number, id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    try {
      this.inner.insert(slot, id, minX, minY, maxX, maxY);
    } catch (error) {
      this.recover(error);
    }
    this.keep(slot, id);
    this.keepRect(slot, minX, minY, maxX, maxY);
  }

  update(slot: number, minX: number, minY: number, maxX: number, maxY: number): void {
    try {
      this.inner.update(slot, minX, minY, maxX, maxY);
    } catch (error) {
      this.recover(error);
    }
    this.keepRect(slot, minX, minY, maxX, maxY);
  }

  insertMany(slots: Int32Array, ids: Int32Array, rects: Float64Array): void {
    try {
      this.inner.insertMany(slots, ids, rects);
    } catch (error) {
      this.recover(error);
    }
    for (let i = 0; i < slots.length; i++) {
      this.keep(slots[i], ids[i]);
      this.keepRect(slots[i], rects[4 * i], rects[4 * i + 1], rects[4 * i + 2], rects[4 * i + 3]);
    }
  }

  updateMany(slots: Int32Array, rects: Float64Array): void {
    try {
      this.inner.updateMany(slots, rects);
    } catch (error) {
      this.recover(error);
    }
    for (let i = 0; i < slots.length; i++) this.keepRect(slots[i], rects[4 * i], rects[4 * i + 1], rects[4 * i + 2], rects[4 * i + 3]);
  }

  remove(slot: number): void {
    try {
      this.inner.remove(slot);
    } catch (error) {
      this.recover(error);
    }
    this.ids[slot] = -1;
  }

  clear(): void {
    try {
      this.inner.clear();
    } catch (error) {
      this.recover(error);
    }
    this.ids.fill(-1, 0, this.slotCount);
    this.slotCount = 0;
  }

  setBounds(bounds: Box | null): void {
    try {
      this.inner.setBounds(bounds);
    } catch (error) {
      this.recover(error);
    }
    this.bounds = bounds;
  }

  setCapacity(capacity: number): void {
    try {
      this.inner.setCapacity(capacity);
    } catch (error) {
      this.recover(error);
    }
    this.capacity = capacity;
  }

  query(minX: number, minY: number, maxX: number, maxY: number, limit?: number): Int32Array {
    try {
      return this.inner.query(minX, minY, maxX, maxY, limit);
    } catch (error) {
      throw this.readFailure(error);
    }
  }

  pairs(): Int32Array {
    try {
      return this.inner.pairs();
    } catch (error) {
      throw this.readFailure(error);
    }
  }

  cells(): Float64Array {
    try {
      return this.inner.cells();
    } catch (error) {
      throw this.readFailure(error);
    }
  }

  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array {
    try {
      return this.inner.nearest(x, y, k, maxSquared);
    } catch (error) {
      throw this.readFailure(error);
    }
  }

  within(x: number, y: number, r2: number): Int32Array {
    try {
      return this.inner.within(x, y, r2);
    } catch (error) {
      throw this.readFailure(error);
    }
  }

  segment(x0: number, y0: number, x1: number, y1: number, first: boolean): SegmentHits {
    try {
      return this.inner.segment(x0, y0, x1, y1, first);
    } catch (error) {
      throw this.readFailure(error);
    }
  }

  rectsOf(slots: Int32Array): Float64Array {
    const out = new Float64Array(4 * slots.length);
    for (let i = 0; i < slots.length; i++) out.set(this.rects.subarray(4 * slots[i], 4 * slots[i] + 4), 4 * i);
    return out;
  }

  settings(): QuadTreeSettings {
    return this.inner.settings();
  }

  dispose(): void {
    this.inner.dispose();
  }

  /**
   * After a change failed part way: empties the core (keeping the room its
   * arrays have, so that refilling it asks for little new memory), puts its
   * settings back and reloads the items as they were, then throws.
   */
  private recover(error: unknown): never {
    this.inner.clear();
    this.inner.setCapacity(this.capacity);
    this.inner.setBounds(this.bounds);
    const slots: number[] = [];
    for (let slot = 0; slot < this.slotCount; slot++) if (this.ids[slot] >= 0) slots.push(slot);
    // In chunks, so that no bulk build of every item needs its scratch all at once.
    for (let start = 0; start < slots.length; start += RELOAD_CHUNK) {
      const chunk = Int32Array.from(slots.slice(start, start + RELOAD_CHUNK));
      this.inner.insertMany(chunk, chunk.map((slot) => this.ids[slot]), this.rectsOf(chunk));
    }
    throw outOfMemory(error, 'this QuadTree') ?? error;
  }

  private readFailure(error: unknown): unknown {
    return outOfMemory(error, 'this QuadTree') ?? error;
  }

  /** Records that slot holds id, making room for it. */
  private keep(slot: number, id: number): void {
    if (slot >= this.ids.length) {
      const capacity = Math.max(slot + 1, 2 * this.ids.length);
      const ids = new Int32Array(capacity).fill(-1);
      ids.set(this.ids);
      const rects = new Float64Array(4 * capacity);
      rects.set(this.rects);
      this.ids = ids;
      this.rects = rects;
    }
    this.ids[slot] = id;
    this.slotCount = Math.max(this.slotCount, slot + 1);
  }

  private keepRect(slot: number, minX: number, minY: number, maxX: number, maxY: number): void {
    const at = 4 * slot;
    this.rects[at] = minX;
    this.rects[at + 1] = minY;
    this.rects[at + 2] = maxX;
    this.rects[at + 3] = maxY;
  }
}
