// Entity id -> a value >= 0 (the region that owns it), for a router that
// looks up every id of a tick's batch. Servers number entities densely from
// 0, so ids below a bound that grows with the map live in a typed array,
// read in id order without hashing; any other id lives in a Map.

/** The dense part's largest length: ids from 2^24 up always live in the Map. */
const DENSE_IDS = 1 << 24;
/** A dense entry with no value. */
const ABSENT = -1;

/** A map from entity id to an integer in [0, 2^31 - 1]. */
export class IdMap {
  /** The value by id, for every id below its length (ABSENT: none). */
  private dense = new Int32Array(0);
  /** The ids at or above dense.length. */
  private readonly sparse = new Map<number, number>();
  private count = 0;

  /** Ids in the map. */
  get size(): number {
    return this.count;
  }

  /** id's value, or undefined when id is not in the map (whatever id is). */
  get(id: number): number | undefined {
    if (typeof id === 'number' && id < this.dense.length) {
      // Undefined for an index that is negative or not an integer: such an id can only be in the Map.
      const value = this.dense[id];
      if (value !== undefined) return value === ABSENT ? undefined : value;
    }
    return this.sparse.get(id);
  }

  /** True when id is in the map. */
  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Gives id (an integer >= 0) the value. */
  set(id: number, value: number): void {
    if (!this.has(id)) this.count++;
    this.reach(id);
    if (id < this.dense.length) this.dense[id] = value;
    else this.sparse.set(id, value);
  }

  /** Removes id; true when it was there. */
  delete(id: number): boolean {
    if (!this.has(id)) return false;
    if (id < this.dense.length) this.dense[id] = ABSENT;
    else this.sparse.delete(id);
    this.count--;
    return true;
  }

  /** Every id with its value: the dense ones ascending, then the others. */
  *entries(): IterableIterator<[number, number]> {
    const dense = this.dense;
    for (let id = 0; id < dense.length; id++) if (dense[id] !== ABSENT) yield [id, dense[id]];
    yield* this.sparse;
  }

  /** Widens the dense part to cover id when id stays within a few times the map's size (and below 2^24), moving the Map's ids it now covers. */
  private reach(id: number): void {
    if (id < this.dense.length || id >= DENSE_IDS || id >= 8 * this.count + 4096) return;
    const grown = new Int32Array(Math.min(DENSE_IDS, Math.max(id + 1, this.dense.length * 2, 1024))).fill(ABSENT);
    grown.set(this.dense);
    this.dense = grown;
    for (const [other, value] of this.sparse) {
      if (other < grown.length) {
        grown[other] = value;
        this.sparse.delete(other);
      }
    }
  }
}
