// Brute-force AOI straight from the contract: every question is answered by
// looking at every pair. It shares no code with either backend.
export type Fact = [type: 'enter' | 'leave' | 'move', watcher: number, target: number];

interface Entity {
  p: [number, number, number];
  r: [number, number, number] | null;
  /** The range is a circle (sphere) of radius r[0], inside its bounding box r. */
  round: boolean;
  /** Masks: W sees T only when W.sees & T.layer is not 0. */
  layer: number;
  sees: number;
  /** Hysteresis: a pair already visible stays visible while T is within r + margin. */
  margin: number;
}

export class AoiOracle {
  readonly entities = new Map<number, Entity>();
  events: Fact[] = [];
  /** The pairs visible now, keyed 'watcher target': visibility depends on each pair's history once margins exist. */
  private readonly visible = new Set<string>();

  /**
   * `abs` judges |T - W| <= range, the contract's words; `bounds` judges
   * W - range <= T <= W + range as the README defines it to the last bit.
   * The two agree whenever the arithmetic is exact (as with halves).
   */
  constructor(
    readonly dimensions: 2 | 3,
    readonly form: 'abs' | 'bounds' = 'abs',
  ) {}

  /** An independent copy: entities, visible pairs and pending events. */
  clone(): AoiOracle {
    const copy = new AoiOracle(this.dimensions, this.form);
    for (const [id, e] of this.entities) copy.entities.set(id, { ...e, p: [...e.p], r: e.r === null ? null : [...e.r] });
    for (const key of this.visible) copy.visible.add(key);
    copy.events = [...this.events];
    copy.seenAtDrain = new Map(this.seenAtDrain);
    return copy;
  }

  /** W sees T now: the pair is visible. */
  sees(w: number, t: number): boolean {
    return this.visible.has(`${w} ${t}`);
  }

  /** T lies within W's range, grown by W's margin when `grown`, on every axis (and, for a circle, dx² + dy² (+ dz²) <= radius²). */
  private within(a: Entity, b: Entity, grown: boolean): boolean {
    if (a.r === null) return false;
    const extra = grown ? a.margin : 0;
    for (let k = 0; k < this.dimensions; k++) {
      const r = a.r[k] + extra;
      const inside = this.form === 'abs' ? Math.abs(b.p[k] - a.p[k]) <= r : a.p[k] - r <= b.p[k] && b.p[k] <= a.p[k] + r;
      if (!inside) return false;
    }
    if (!a.round) return true;
    let squares = 0;
    for (let k = 0; k < this.dimensions; k++) squares += (b.p[k] - a.p[k]) ** 2;
    return squares <= (a.r[0] + extra) ** 2;
  }

  /**
   * Judges pair (w, t) after a change to either: visible when the masks meet
   * and T is in W's range, or was visible and is still in W's range + margin.
   * Records the answer and returns [before, now].
   */
  private judge(w: number, t: number): [boolean, boolean] {
    const key = `${w} ${t}`;
    const before = this.visible.has(key);
    const a = this.entities.get(w);
    const b = this.entities.get(t);
    const now = a !== undefined && b !== undefined && w !== t && (a.sees & b.layer) !== 0 && (this.within(a, b, false) || (before && this.within(a, b, true)));
    if (now) this.visible.add(key);
    else this.visible.delete(key);
    return [before, now];
  }

  private others(id: number): number[] {
    return [...this.entities.keys()].filter((o) => o !== id);
  }

  /** Judges both pairs of id with each other entity, emitting enter / leave (and move for others watching id when `moved`). */
  private settle(id: number, moved: boolean, others = this.others(id)): void {
    for (const o of others) {
      const [oSaw, oSees] = this.judge(o, id);
      const [idSaw, idSees] = this.judge(id, o);
      if (oSees && !oSaw) this.events.push(['enter', o, id]);
      if (!oSees && oSaw) this.events.push(['leave', o, id]);
      if (oSees && oSaw && moved) this.events.push(['move', o, id]);
      if (idSees && !idSaw) this.events.push(['enter', id, o]);
      if (!idSees && idSaw) this.events.push(['leave', id, o]);
    }
  }

  add(id: number, p: [number, number, number], r: [number, number, number] | null, round = false, layer = 1, sees = -1, margin = 0): void {
    this.entities.set(id, { p: this.dimensions === 2 ? [p[0], p[1], 0] : p, r, round: round && r !== null, layer, sees, margin });
    this.settle(id, false);
  }

  move(id: number, p: [number, number, number]): void {
    const e = this.entities.get(id)!;
    const next: [number, number, number] = this.dimensions === 2 ? [p[0], p[1], 0] : p;
    // A scene keeps the coordinates it was last given (-0 included), even when they compare equal.
    const same = next.every((v, k) => v === e.p[k]);
    e.p = next;
    if (!same) this.settle(id, true);
  }

  remove(id: number): void {
    const others = this.others(id);
    this.entities.delete(id);
    this.settle(id, false, others);
  }

  /** New range for id (margin undefined: keep id's margin); only id's own view changes. */
  setRange(id: number, r: [number, number, number] | null, round = false, margin?: number): void {
    const e = this.entities.get(id)!;
    e.r = r;
    e.round = round && r !== null;
    if (margin !== undefined) e.margin = margin;
    this.settle(id, false);
  }

  /** Removes every entity and forgets pending events, as Scene.clear does (no leave events). */
  clear(): void {
    this.entities.clear();
    this.visible.clear();
    this.events = [];
    this.seenAtDrain.clear();
  }

  /** New masks for id: enter / leave for every pair, either way, whose visibility changes. */
  setLayers(id: number, layer: number, sees: number): void {
    const e = this.entities.get(id)!;
    e.layer = layer;
    e.sees = sees;
    this.settle(id, false);
  }

  query(id: number): number[] {
    return this.others(id).filter((o) => this.sees(id, o)).sort((a, b) => a - b);
  }

  watchers(id: number): number[] {
    return this.others(id).filter((o) => this.sees(o, id)).sort((a, b) => a - b);
  }

  queryBox(min: number[], max: number[]): number[] {
    const out: number[] = [];
    for (const [id, e] of this.entities) {
      let inside = true;
      for (let k = 0; k < this.dimensions; k++) if (!(min[k] <= e.p[k] && e.p[k] <= max[k])) inside = false;
      if (inside) out.push(id);
    }
    return out.sort((a, b) => a - b);
  }

  /**
   * The k entities nearest to q (z ignored in 2-D), by the contract: squared
   * distance dx * dx + dy * dy + dz * dz in doubles, then id; only those
   * within maxDistance (closed, compared squared) and, with a layer mask,
   * those whose layer shares a bit with it.
   */
  nearest(q: [number, number, number], k: number, maxDistance = Infinity, layer?: number): number[] {
    const limit = maxDistance * maxDistance;
    const found: Array<[number, number]> = [];
    for (const [id, e] of this.entities) {
      if (layer !== undefined && (e.layer & layer) === 0) continue;
      const dx = e.p[0] - q[0];
      const dy = e.p[1] - q[1];
      const dz = this.dimensions === 3 ? e.p[2] - q[2] : 0;
      const d = dx * dx + dy * dy + dz * dz;
      if (d <= limit) found.push([d, id]);
    }
    found.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    return found.slice(0, k).map(([, id]) => id);
  }

  /** Every id, ascending. */
  ids(): number[] {
    return [...this.entities.keys()].sort((a, b) => a - b);
  }

  drain(): Fact[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /** Every visible pair now, keyed 'watcher target', with the target's position. */
  private visiblePairs(): Map<string, [number, number, number]> {
    const pairs = new Map<string, [number, number, number]>();
    for (const [w] of this.entities) {
      for (const [t, e] of this.entities) if (this.sees(w, t)) pairs.set(`${w} ${t}`, [...e.p]);
    }
    return pairs;
  }

  private seenAtDrain = new Map<string, [number, number, number]>();

  /**
   * The net view, from the visible pairs at the last net drain and now (not
   * from the event log): enter for a pair visible now only, leave for one
   * visible then only, move for one visible at both whose target stands
   * elsewhere (when moveEvents). Forgets the log too.
   */
  drainNet(moveEvents = true): Fact[] {
    const now = this.visiblePairs();
    const out: Fact[] = [];
    for (const [key, p] of now) {
      const [w, t] = key.split(' ').map(Number);
      const then = this.seenAtDrain.get(key);
      if (then === undefined) out.push(['enter', w, t]);
      else if (moveEvents && then.some((v, k) => v !== p[k])) out.push(['move', w, t]);
    }
    for (const key of this.seenAtDrain.keys()) {
      const [w, t] = key.split(' ').map(Number);
      if (!now.has(key)) out.push(['leave', w, t]);
    }
    this.seenAtDrain = now;
    this.events = [];
    return out;
  }
}

/** Events as sorted strings, so two multisets compare with toEqual. */
export function normalize(events: ReadonlyArray<{ type: string; watcher: number; target: number } | Fact>): string[] {
  return events
    .map((e) => (Array.isArray(e) ? `${e[0]} ${e[1]} ${e[2]}` : `${e.type} ${e.watcher} ${e.target}`))
    .sort();
}
