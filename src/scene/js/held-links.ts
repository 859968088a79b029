// The (watcher, target) slot pairs a reference lists core keeps seeing only
// because of a hysteresis margin (the target is inside the watcher's range +
// margin, outside its range), kept as a link on each slot of a pair: a step
// finds the held pairs of the slot it changes without a search. The same
// structure as assembly/scene/held-links.ts, changes journaled the same way.

/** The held pairs of a scene, as links per slot. */
export class HeldLinks {
  /** links[s]: 2 * t for each held pair (s, t), 2 * w + 1 for each held pair (w, s). */
  private readonly links: number[][] = [];
  /** Pairs held. */
  size = 0;
  /** The current call's changes: w, t, then 1 (held) or -1 (dropped); the scene empties it as a call begins. */
  readonly journal: number[] = [];

  /** Makes room for slots below capacity. */
  grow(capacity: number): void {
    while (this.links.length < capacity) this.links.push([]);
  }

  /** Pair (w, t) is held: looked up in w's links. */
  has(w: number, t: number): boolean {
    return this.size !== 0 && this.links[w].includes(2 * t);
  }

  /** Pair (w, t) is held: looked up in t's links (the ones at hand when t is the slot being changed). */
  hasWatcher(t: number, w: number): boolean {
    return this.size !== 0 && this.links[t].includes(2 * w + 1);
  }

  /** Holds pair (w, t), which is not held. */
  add(w: number, t: number): void {
    this.journal.push(w, t, 1);
    this.links[w].push(2 * t);
    this.links[t].push(2 * w + 1);
    this.size++;
  }

  /** Drops pair (w, t), which is held. */
  delete(w: number, t: number): void {
    this.journal.push(w, t, -1);
    removeValue(this.links[w], 2 * t);
    removeValue(this.links[t], 2 * w + 1);
    this.size--;
  }

  /** Slot s's links: 2 * t for a held pair (s, t), 2 * w + 1 for a held pair (w, s). */
  of(s: number): readonly number[] {
    return this.links[s];
  }

  /** Drops every held pair of slot s, as watcher or as target. */
  release(s: number): void {
    const own = this.links[s];
    for (const link of own) this.journal.push(link & 1 ? link >> 1 : s, link & 1 ? s : link >> 1, -1);
    for (const link of own) removeValue(this.links[link >> 1], link & 1 ? 2 * s : 2 * s + 1);
    this.size -= own.length;
    own.length = 0;
  }

  /** Every pair as watcher, target. */
  list(): number[] {
    const out: number[] = [];
    this.links.forEach((own, w) => {
      for (const link of own) if ((link & 1) === 0) out.push(w, link >> 1);
    });
    return out;
  }

  clear(): void {
    for (const own of this.links) own.length = 0;
    this.size = 0;
  }
}

/** Removes one occurrence of value from an unordered list (swap with the last). */
function removeValue(list: number[], value: number): void {
  const k = list.indexOf(value);
  const last = list.pop()!;
  if (k < list.length) list[k] = last;
}
