// Brute-force AOI straight from the contract: every question is answered by
// looking at every pair. It shares no code with either backend.
export type Fact = [type: 'enter' | 'leave' | 'move', watcher: number, target: number];

interface Entity {
  p: [number, number, number];
  r: [number, number, number] | null;
}

export class AoiOracle {
  readonly entities = new Map<number, Entity>();
  events: Fact[] = [];

  /**
   * `abs` judges |T - W| <= range, the contract's words; `bounds` judges
   * W - range <= T <= W + range as the README defines it to the last bit.
   * The two agree whenever the arithmetic is exact (as with halves).
   */
  constructor(
    readonly dimensions: 2 | 3,
    readonly form: 'abs' | 'bounds' = 'abs',
  ) {}

  /** W sees T iff W has a range and T is within it on every axis. */
  sees(w: number, t: number): boolean {
    if (w === t) return false;
    const a = this.entities.get(w)!;
    const b = this.entities.get(t)!;
    if (a.r === null) return false;
    for (let k = 0; k < this.dimensions; k++) {
      const inside = this.form === 'abs' ? Math.abs(b.p[k] - a.p[k]) <= a.r[k] : a.p[k] - a.r[k] <= b.p[k] && b.p[k] <= a.p[k] + a.r[k];
      if (!inside) return false;
    }
    return true;
  }

  private others(id: number): number[] {
    return [...this.entities.keys()].filter((o) => o !== id);
  }

  add(id: number, p: [number, number, number], r: [number, number, number] | null): void {
    this.entities.set(id, { p: this.dimensions === 2 ? [p[0], p[1], 0] : p, r });
    for (const o of this.others(id)) {
      if (this.sees(o, id)) this.events.push(['enter', o, id]);
      if (this.sees(id, o)) this.events.push(['enter', id, o]);
    }
  }

  move(id: number, p: [number, number, number]): void {
    const e = this.entities.get(id)!;
    const next: [number, number, number] = this.dimensions === 2 ? [p[0], p[1], 0] : p;
    if (next.every((v, k) => v === e.p[k])) return;
    const others = this.others(id);
    const before = others.map((o) => [this.sees(o, id), this.sees(id, o)]);
    e.p = next;
    others.forEach((o, k) => {
      const [oSaw, idSaw] = before[k];
      const oSees = this.sees(o, id);
      const idSees = this.sees(id, o);
      if (oSees && !oSaw) this.events.push(['enter', o, id]);
      if (!oSees && oSaw) this.events.push(['leave', o, id]);
      if (oSees && oSaw) this.events.push(['move', o, id]);
      if (idSees && !idSaw) this.events.push(['enter', id, o]);
      if (!idSees && idSaw) this.events.push(['leave', id, o]);
    });
  }

  remove(id: number): void {
    for (const o of this.others(id)) {
      if (this.sees(o, id)) this.events.push(['leave', o, id]);
      if (this.sees(id, o)) this.events.push(['leave', id, o]);
    }
    this.entities.delete(id);
  }

  setRange(id: number, r: [number, number, number] | null): void {
    const others = this.others(id);
    const before = others.map((o) => this.sees(id, o));
    this.entities.get(id)!.r = r;
    others.forEach((o, k) => {
      const now = this.sees(id, o);
      if (now && !before[k]) this.events.push(['enter', id, o]);
      if (!now && before[k]) this.events.push(['leave', id, o]);
    });
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
