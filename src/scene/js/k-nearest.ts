// The k best candidates of a nearest search, by (squared distance, id): a bounded
// max-heap whose top is the worst kept candidate, so a search can stop once
// nothing it has left can beat that top. The same structure as
// assembly/scene/k-nearest.ts.

/**
 * Keeps the k smallest (squared distance, id) pairs offered. Distances are
 * compared squared, dx * dx + dy * dy + dz * dz in double precision, as the
 * QuadTree's nearest does; only those <= maxDistance * maxDistance count.
 */
export class KNearest {
  private distances = new Float64Array(16);
  private ids = new Int32Array(16);
  private count = 0;
  private k = 0;
  private maxSquared = Infinity;
  private filtered = false;
  private mask = 0;

  /** Starts a search for the k nearest within maxDistance; with `filtered`, only layers meeting mask count. */
  reset(k: number, maxDistance: number, filtered: boolean, mask: number): void {
    this.maxSquared = maxDistance * maxDistance;
    if (this.distances.length < k) {
      this.distances = new Float64Array(k);
      this.ids = new Int32Array(k);
    }
    this.count = 0;
    this.k = k;
    this.filtered = filtered;
    this.mask = mask;
  }

  /**
   * The squared distance beyond which no candidate can be kept: maxDistance
   * squared until k are kept, then the worst kept one's (a candidate at
   * exactly that distance may still win on its id).
   */
  bound(): number {
    return this.count < this.k ? this.maxSquared : this.distances[0];
  }

  /** Offers entity `id` on `layer` at (x, y, z), seen from (qx, qy, qz). */
  offer(id: number, layer: number, x: number, y: number, z: number, qx: number, qy: number, qz: number): void {
    if (this.filtered && (layer & this.mask) === 0) return;
    const dx = x - qx;
    const dy = y - qy;
    const dz = z - qz;
    const d = dx * dx + dy * dy + dz * dz;
    if (!(d <= this.maxSquared) || this.k === 0) return;
    const dist = this.distances;
    const ids = this.ids;
    if (this.count < this.k) {
      // Sift up from the new leaf.
      let i = this.count++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(d, id, dist[parent], ids[parent])) break;
        dist[i] = dist[parent];
        ids[i] = ids[parent];
        i = parent;
      }
      dist[i] = d;
      ids[i] = id;
      return;
    }
    if (!worse(dist[0], ids[0], d, id)) return;
    this.siftDown(0, d, id, this.count);
  }

  /** Places (d, id) at hole i of a heap of n entries, moving worse children up. */
  private siftDown(i: number, d: number, id: number, n: number): void {
    const dist = this.distances;
    const ids = this.ids;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && worse(dist[c + 1], ids[c + 1], dist[c], ids[c])) c++;
      if (!worse(dist[c], ids[c], d, id)) break;
      dist[i] = dist[c];
      ids[i] = ids[c];
      i = c;
    }
    dist[i] = d;
    ids[i] = id;
  }

  /** The kept ids, nearest first, ties by ascending id; empties the heap. */
  take(): Int32Array {
    const out = new Int32Array(this.count);
    for (let n = this.count; n > 0; n--) {
      out[n - 1] = this.ids[0];
      this.siftDown(0, this.distances[n - 1], this.ids[n - 1], n - 1);
    }
    this.count = 0;
    return out;
  }
}

/** True when (da, ia) comes after (db, ib): farther, or as far with a larger id. */
function worse(da: number, ia: number, db: number, ib: number): boolean {
  return da > db || (da === db && ia > ib);
}

/** Relative slack on a geometric lower bound, for the rounding of the cell and band edges it comes from. */
const EDGE_SLACK = 1e-12;

/**
 * True when every entity at least `gap` away on one axis (a gap measured
 * between coordinates of magnitude up to `scale`) lies beyond the squared
 * distance `bound`: the gap less rounding slack, squared as a distance is,
 * exceeds it.
 */
export function beyondBound(gap: number, scale: number, bound: number): boolean {
  // Written so that an infinite gap stays infinite.
  const g = gap * (1 - EDGE_SLACK) - EDGE_SLACK * scale;
  return g > 0 && g * g > bound;
}
