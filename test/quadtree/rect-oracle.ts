// Brute-force rectangle index: the third opinion in QuadTree parity tests.
export type Rect = [number, number, number, number];

/** Squared distance from the point to the closed rect, 0 inside. */
const squared = (x: number, y: number, r: Rect): number => {
  const dx = Math.max(r[0] - x, 0, x - r[2]);
  const dy = Math.max(r[1] - y, 0, y - r[3]);
  return dx * dx + dy * dy;
};

/** The parameter interval [lo, hi] of s + t d inside [a, b] on one axis (t unbounded), or null. */
function slab(s: number, d: number, a: number, b: number): [number, number] | null {
  if (d === 0) return s >= a && s <= b ? [-Infinity, Infinity] : null;
  const ta = (a - s) / d, tb = (b - s) / d;
  return ta <= tb ? [ta, tb] : [tb, ta];
}

const meets = (a: Rect, b: Rect): boolean => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

export class RectOracle {
  readonly rects = new Map<number, Rect>();

  insert(id: number, rect: Rect): void {
    this.rects.set(id, rect);
  }

  remove(id: number): boolean {
    return this.rects.delete(id);
  }

  /** Ids meeting the closed box, ascending. */
  query(box: Rect): number[] {
    const hits: number[] = [];
    for (const [id, rect] of this.rects) if (meets(rect, box)) hits.push(id);
    return hits.sort((a, b) => a - b);
  }

  /** The k ids nearest to the point, by (squared distance, id), within maxDistance. */
  nearest(x: number, y: number, k: number, maxDistance = Infinity): number[] {
    const limit = maxDistance * maxDistance;
    return [...this.rects]
      .map(([id, rect]) => ({ id, d: squared(x, y, rect) }))
      .filter((e) => e.d <= limit)
      .sort((a, b) => a.d - b.d || a.id - b.id)
      .slice(0, k)
      .map((e) => e.id);
  }

  /** Ids of rects meeting the closed disc, ascending. */
  circle(x: number, y: number, r: number): number[] {
    const hits: number[] = [];
    for (const [id, rect] of this.rects) if (squared(x, y, rect) <= r * r) hits.push(id);
    return hits.sort((a, b) => a - b);
  }

  /** Ids of rects the closed segment meets, by (entry t, id). */
  segment(x0: number, y0: number, x1: number, y1: number): number[] {
    const hits: Array<{ id: number; t: number }> = [];
    for (const [id, rect] of this.rects) {
      const sx = slab(x0, x1 - x0, rect[0], rect[2]);
      const sy = slab(y0, y1 - y0, rect[1], rect[3]);
      if (sx === null || sy === null) continue;
      const enter = Math.max(0, sx[0], sy[0]);
      if (enter <= Math.min(1, sx[1], sy[1])) hits.push({ id, t: enter });
    }
    return hits.sort((a, b) => a.t - b.t || a.id - b.id).map((h) => h.id);
  }

  /** Every intersecting pair once, a < b, sorted by (a, b). */
  pairs(): Array<[number, number]> {
    const entries = [...this.rects].sort((p, q) => p[0] - q[0]);
    const out: Array<[number, number]> = [];
    for (let i = 0; i < entries.length; i++) {
      for (let j = i + 1; j < entries.length; j++) {
        if (meets(entries[i][1], entries[j][1])) out.push([entries[i][0], entries[j][0]]);
      }
    }
    return out;
  }
}
