// Brute-force rectangle index: the third opinion in QuadTree parity tests.
export type Rect = [number, number, number, number];

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
