// The Graph's vertex ids and their dense slots. Numbers and strings are kept
// apart (1 and '1' are two vertices). A number id that sits in the slot of
// the same number (every vertex of Graph.fromEdges) needs no map entry, so a
// million-vertex bulk graph costs one array, not a million map entries.

/** A vertex id: a string, or an integer in [0, 2^31 - 1]. */
export type VertexId = string | number;

export class VertexIds {
  /** Slot -> id; undefined for a free slot. */
  private ids: Array<VertexId | undefined>;
  private byNumber: Map<number, number>;
  private byString: Map<string, number>;
  private free: number[];
  private live: number;

  constructor(
    ids: Array<VertexId | undefined> = [],
    byNumber = new Map<number, number>(),
    byString = new Map<string, number>(),
    free: number[] = [],
    live = 0,
  ) {
    this.ids = ids;
    this.byNumber = byNumber;
    this.byString = byString;
    this.free = free;
    this.live = live;
  }

  /** Ids 0..n-1 in slots 0..n-1. */
  static identity(n: number): VertexIds {
    const ids = new Array<VertexId | undefined>(n);
    for (let i = 0; i < n; i++) ids[i] = i;
    return new VertexIds(ids, new Map(), new Map(), [], n);
  }

  /**
   * Rebuilds the ids from a slot layout (slot -> id, undefined for a free
   * slot) and the free-slot stack, as `layout` gives them. The caller
   * guarantees the ids are distinct and the stack lists the free slots once.
   */
  static fromLayout(ids: Array<VertexId | undefined>, free: number[]): VertexIds {
    const byNumber = new Map<number, number>();
    const byString = new Map<string, number>();
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot];
      if (typeof id === 'string') byString.set(id, slot);
      else if (id !== undefined && id !== slot) byNumber.set(id, slot);
    }
    return new VertexIds(ids, byNumber, byString, free, ids.length - free.length);
  }

  /** The slot layout and the free-slot stack (top last), read-only, for a snapshot. */
  layout(): { ids: ReadonlyArray<VertexId | undefined>; free: readonly number[] } {
    return { ids: this.ids, free: this.free };
  }

  /** Number of vertices. */
  get size(): number {
    return this.live;
  }

  /** Slots in use or free: every slot index is below this. */
  get slotCount(): number {
    return this.ids.length;
  }

  /** The slot of id, or -1. */
  slotOf(id: VertexId): number {
    if (typeof id === 'string') return this.byString.get(id) ?? -1;
    if (id < this.ids.length && this.ids[id] === id) return id;
    return this.byNumber.get(id) ?? -1;
  }

  /** The id in a slot (the slot must be in use). */
  idAt(slot: number): VertexId {
    return this.ids[slot] as VertexId;
  }

  /** The slot the k-th next add will give, giving none. */
  nextSlot(k: number): number {
    const free = this.free.length;
    return k < free ? this.free[free - 1 - k] : this.ids.length + (k - free);
  }

  /** Gives a new id a slot, reusing a free one first. */
  add(id: VertexId): number {
    const slot = this.free.length > 0 ? (this.free.pop() as number) : this.ids.length;
    this.ids[slot] = id;
    if (typeof id === 'string') this.byString.set(id, slot);
    else if (slot !== id) this.byNumber.set(id, slot);
    this.live++;
    return slot;
  }

  /** Frees id's slot (id must be present) and returns it. */
  remove(id: VertexId): number {
    const slot = this.slotOf(id);
    this.ids[slot] = undefined;
    if (typeof id === 'string') this.byString.delete(id);
    else this.byNumber.delete(id);
    this.free.push(slot);
    this.live--;
    return slot;
  }

  /** An independent copy, for results that must keep seeing today's ids. */
  clone(): VertexIds {
    return new VertexIds(this.ids.slice(), new Map(this.byNumber), new Map(this.byString), this.free.slice(), this.live);
  }
}
