// Entity id -> core slot, for the facades. Servers number entities densely
// from 0, and a batch of moves looks up every id, so ids below a bound that
// grows with the table live in a typed array (one read, no hashing); any
// other id lives in a Map. A table either stores the slots its owner picks
// (set) or hands them out itself (add, addMany), reusing freed ones.
import { SpatialError } from './errors.js';

/** The dense part's largest length: ids from 2^24 up always live in the Map. */
const DENSE_IDS = 1 << 24;

/** A map from entity id to slot, with the Map methods the facades use. */
export class SlotTable {
  /** Slot + 1 by id, for every id below its length (0: absent). */
  private dense = new Int32Array(0);
  /** The ids at or above dense.length. */
  private readonly sparse = new Map<number, number>();
  /** Id by slot, -1 for a slot that holds none. */
  private idOfSlot = new Int32Array(0);
  /** Slots ever taken: [0, slotCount). */
  private slotCount = 0;
  /** The slots add gives out again, last freed first (only for a table that hands out its slots). */
  private readonly free: number[] = [];
  /** The slots of the last addMany: kept, so a batch allocates (and faults in) no fresh memory. */
  private batch = new Int32Array(0);
  private count = 0;

  private readonly handsOutSlots: boolean;

  /** `handsOutSlots`: the table picks the slots (add, addMany) rather than being told them (set). */
  constructor(options?: { handsOutSlots: boolean }) {
    this.handsOutSlots = options?.handsOutSlots ?? false;
  }

  /** Entities in the table. */
  get size(): number {
    return this.count;
  }

  /** id's slot, or undefined when id is not in the table (whatever id is). */
  get(id: number): number | undefined {
    if (typeof id === 'number' && id < this.dense.length) {
      // Undefined for an index that is negative or not an integer: such an id can only be in the Map.
      const slot = this.dense[id];
      if (slot !== undefined) return slot === 0 ? undefined : slot - 1;
    }
    return this.sparse.get(id);
  }

  /** True when id is in the table. */
  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Maps id (an id checked by checkId) to the slot its owner picked. */
  set(id: number, slot: number): void {
    const old = this.get(id);
    if (old === undefined) this.count++;
    else this.idOfSlot[old] = -1;
    this.place(id, slot);
  }

  /** Gives id (an id checked by checkId, not in the table) a slot: a freed one if any, else the next. */
  add(id: number): number {
    const slot = this.free.length > 0 ? this.free.pop()! : this.slotCount;
    this.count++;
    this.place(id, slot);
    return slot;
  }

  /**
   * Gives each id a slot, in order, as {@link add} does; throws
   * DUPLICATE_ID, naming `container`, with the table as before, when an id
   * is present or repeated. The tables are sized once for the whole batch.
   * The slots returned are valid until the next addMany.
   */
  addMany(ids: ArrayLike<number>, container: string): Int32Array {
    const count = ids.length;
    let top = -1;
    for (let i = 0; i < count; i++) top = Math.max(top, ids[i]);
    this.reach(top, this.count + count);
    this.growSlots(this.slotCount + count);
    if (this.batch.length < count) this.batch = new Int32Array(Math.max(count, this.batch.length * 2));
    const slots = this.batch.subarray(0, count);
    if (this.free.length === 0 && top < this.dense.length) return this.appendDense(ids, slots, container);
    for (let i = 0; i < count; i++) {
      if (this.has(ids[i])) {
        for (let k = i - 1; k >= 0; k--) this.delete(ids[k]);
        throw new SpatialError('DUPLICATE_ID', `id ${ids[i]} is already in ${container}`);
      }
      slots[i] = this.add(ids[i]);
    }
    return slots;
  }

  /** Removes id and returns its slot, or undefined when it was not there. */
  delete(id: number): number | undefined {
    const slot = this.get(id);
    if (slot === undefined) return undefined;
    if (id < this.dense.length) this.dense[id] = 0;
    else this.sparse.delete(id);
    this.idOfSlot[slot] = -1;
    if (this.handsOutSlots) this.free.push(slot);
    this.count--;
    return slot;
  }

  /** Empties the table; `keepRoom` keeps its arrays' size, ready for a refill, rather than giving it back. */
  clear(keepRoom = false): void {
    if (keepRoom) {
      this.dense.fill(0);
      this.idOfSlot.fill(-1, 0, this.slotCount);
    } else {
      this.dense = new Int32Array(0);
      this.idOfSlot = new Int32Array(0);
      this.batch = new Int32Array(0);
    }
    this.sparse.clear();
    this.slotCount = 0;
    this.free.length = 0;
    this.count = 0;
  }

  /** Every id in the table, in slot order. */
  keys(): number[] {
    const ids: number[] = [];
    const idOfSlot = this.idOfSlot;
    for (let slot = 0; slot < this.slotCount; slot++) if (idOfSlot[slot] >= 0) ids.push(idOfSlot[slot]);
    return ids;
  }

  /** Records id <-> slot for an id not in the table (count already includes it). */
  private place(id: number, slot: number): void {
    this.growSlots(slot + 1);
    this.idOfSlot[slot] = id;
    this.slotCount = Math.max(this.slotCount, slot + 1);
    this.reach(id, this.count);
    if (id < this.dense.length) this.dense[id] = slot + 1;
    else this.sparse.set(id, slot);
  }

  /**
   * addMany when every id fits the dense part and no slot is free (a batch
   * into a fresh table): the ids take the next slots in order, in one tight
   * loop. On a duplicate, the ids taken so far are given back and the table
   * is exactly as before.
   */
  private appendDense(ids: ArrayLike<number>, slots: Int32Array, container: string): Int32Array {
    const dense = this.dense, idOfSlot = this.idOfSlot, first = this.slotCount;
    for (let i = 0; i < slots.length; i++) {
      const id = ids[i];
      if (dense[id] !== 0) {
        for (let k = 0; k < i; k++) {
          dense[ids[k]] = 0;
          idOfSlot[first + k] = -1;
        }
        throw new SpatialError('DUPLICATE_ID', `id ${id} is already in ${container}`);
      }
      dense[id] = first + i + 1;
      idOfSlot[first + i] = id;
      slots[i] = first + i;
    }
    this.slotCount = first + slots.length;
    this.count += slots.length;
    return slots;
  }

  /** Widens the dense part to cover id when id stays within a few times `size` ids (and below 2^24), moving the Map's ids it now covers. */
  private reach(id: number, size: number): void {
    if (id < this.dense.length || id >= DENSE_IDS || id >= 8 * size + 4096) return;
    const grown = new Int32Array(Math.min(DENSE_IDS, Math.max(id + 1, this.dense.length * 2, 1024)));
    grown.set(this.dense);
    this.dense = grown;
    for (const [other, slot] of this.sparse) {
      if (other < grown.length) {
        grown[other] = slot + 1;
        this.sparse.delete(other);
      }
    }
  }

  /** Makes idOfSlot hold at least `needed` slots. */
  private growSlots(needed: number): void {
    if (needed <= this.idOfSlot.length) return;
    const grown = new Int32Array(Math.max(needed, this.idOfSlot.length * 2, 64)).fill(-1);
    grown.set(this.idOfSlot);
    this.idOfSlot = grown;
  }
}
