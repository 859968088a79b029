// Entity id -> core slot for the Scene facade. Servers number entities
// densely from 0, and a batch of moves looks up every id, so ids below a
// bound that grows with the table live in a typed array (one read, no
// hashing); any other id lives in a Map.

/** Ints the dense part may hold beyond four per entity, so small scenes take small ids there too. */
const DENSE_SLACK = 1024;

/** A map from entity id to slot, with the Map methods the Scene uses. */
export class SlotTable {
  /** Slot + 1 by id, for every id below its length (0: absent). */
  private dense = new Int32Array(64);
  /** The ids at or above dense.length. */
  private readonly sparse = new Map<number, number>();
  private count = 0;

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

  /** Maps id (an id checked by checkId) to slot. */
  set(id: number, slot: number): void {
    if (!this.has(id)) this.count++;
    if (id >= this.dense.length && id < 4 * this.count + DENSE_SLACK) this.widen(id);
    if (id < this.dense.length) this.dense[id] = slot + 1;
    else this.sparse.set(id, slot);
  }

  /** Removes id; false when it was not there. */
  delete(id: number): boolean {
    const slot = this.get(id);
    if (slot === undefined) return false;
    if (id < this.dense.length) this.dense[id] = 0;
    else this.sparse.delete(id);
    this.count--;
    return true;
  }

  /** Empties the table, giving back the dense part's room. */
  clear(): void {
    this.dense = new Int32Array(64);
    this.sparse.clear();
    this.count = 0;
  }

  /** Every id in the table, in no particular order. */
  keys(): number[] {
    const ids: number[] = [];
    const dense = this.dense;
    for (let id = 0; id < dense.length; id++) if (dense[id] !== 0) ids.push(id);
    for (const id of this.sparse.keys()) ids.push(id);
    return ids;
  }

  /** Makes the dense part cover id, moving the Map's ids that it now covers. */
  private widen(id: number): void {
    let length = this.dense.length;
    while (length <= id) length *= 2;
    const dense = new Int32Array(length);
    dense.set(this.dense);
    for (const [other, slot] of this.sparse) {
      if (other < length) {
        dense[other] = slot + 1;
        this.sparse.delete(other);
      }
    }
    this.dense = dense;
  }
}
