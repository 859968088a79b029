// The (watcher, target) slot pairs a reference Scene core keeps seeing only
// because of a hysteresis margin: the target is inside the watcher's range +
// margin but outside its range. The wasm grid core keeps a few of each
// watcher's held targets in its record (assembly/scene/held-targets.ts) and
// the rest in its PairSet (pair-set.ts); here they are all one set of
// targets per watcher, changes journaled the same way.

export class HeldPairs {
  private readonly byWatcher = new Map<number, Set<number>>();
  /** Pairs held. */
  size = 0;
  /** The current call's changes: w, t, then 1 (added) or -1 (deleted); the scene empties it as a call begins. */
  readonly journal: number[] = [];

  has(w: number, t: number): boolean {
    return this.size !== 0 && this.byWatcher.get(w)?.has(t) === true;
  }

  add(w: number, t: number): void {
    let targets = this.byWatcher.get(w);
    if (targets === undefined) this.byWatcher.set(w, (targets = new Set()));
    if (targets.has(t)) return;
    this.journal.push(w, t, 1);
    targets.add(t);
    this.size++;
  }

  delete(w: number, t: number): void {
    const targets = this.byWatcher.get(w);
    if (targets === undefined || !targets.has(t)) return;
    this.journal.push(w, t, -1);
    targets.delete(t);
    this.size--;
    if (targets.size === 0) this.byWatcher.delete(w);
  }

  /** Every pair as watcher, target. */
  list(): number[] {
    const out: number[] = [];
    for (const [w, targets] of this.byWatcher) for (const t of targets) out.push(w, t);
    return out;
  }

  clear(): void {
    this.byWatcher.clear();
    this.size = 0;
  }
}
