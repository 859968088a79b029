// The k best candidates of a nearest search, by (squared distance, id): a
// bounded max-heap whose top is the worst kept candidate, so a search can
// stop once nothing it has left can beat that top. The same structure as
// src/scene/js/k-nearest.ts.
import { IntList } from './int-list';

/** Relative slack on a geometric lower bound, for the rounding of the cell and band edges it comes from. */
const EDGE_SLACK: f64 = 1e-12;

/** True when (da, ia) comes after (db, ib): farther, or as far with a larger id. */
@inline function worse(da: f64, ia: i32, db: f64, ib: i32): bool {
  return da > db || (da == db && ia > ib);
}

/**
 * True when every entity at least `gap` away on one axis (a gap measured
 * between coordinates of magnitude up to `scale`) lies beyond the squared
 * distance `bound`: the gap less rounding slack, squared as a distance is,
 * exceeds it.
 */
export function beyondBound(gap: f64, scale: f64, bound: f64): bool {
  // Written so that an infinite gap stays infinite.
  const g = gap * (1 - EDGE_SLACK) - EDGE_SLACK * scale;
  return g > 0 && g * g > bound;
}

/**
 * Keeps the k smallest (squared distance, id) pairs offered: squared
 * distances dx * dx + dy * dy + dz * dz in double precision, only those
 * <= maxDistance * maxDistance.
 */
@unmanaged
export class KNearest {
  distances: usize = 0;
  ids: usize = 0;
  capacity: i32 = 0;
  count: i32 = 0;
  k: i32 = 0;
  maxSquared: f64 = Infinity;
  filtered: bool = false;
  mask: i32 = 0;

  @inline distanceAt(i: i32): f64 {
    return load<f64>(this.distances + (<usize>i << 3));
  }
  @inline idAt(i: i32): i32 {
    return load<i32>(this.ids + (<usize>i << 2));
  }
  @inline put(i: i32, d: f64, id: i32): void {
    store<f64>(this.distances + (<usize>i << 3), d);
    store<i32>(this.ids + (<usize>i << 2), id);
  }

  /** Starts a search for the k nearest within maxDistance; with `filtered`, only layers meeting mask count. */
  reset(k: i32, maxDistance: f64, filtered: bool, mask: i32): void {
    if (this.capacity < k) {
      if (this.distances != 0) {
        heap.free(this.distances);
        heap.free(this.ids);
      }
      this.distances = heap.alloc(<usize>k << 3);
      this.ids = heap.alloc(<usize>k << 2);
      this.capacity = k;
    }
    this.count = 0;
    this.k = k;
    this.maxSquared = maxDistance * maxDistance;
    this.filtered = filtered;
    this.mask = mask;
  }

  /** The squared distance beyond which nothing can be kept: maxDistance squared until k are kept, then the worst kept one's. */
  @inline bound(): f64 {
    return this.count < this.k ? this.maxSquared : this.distanceAt(0);
  }

  /** Offers entity `id` on `layer` at (x, y, z), seen from (qx, qy, qz). */
  offer(id: i32, layer: i32, x: f64, y: f64, z: f64, qx: f64, qy: f64, qz: f64): void {
    if (this.filtered && (layer & this.mask) == 0) return;
    const dx = x - qx;
    const dy = y - qy;
    const dz = z - qz;
    const d = dx * dx + dy * dy + dz * dz;
    if (!(d <= this.maxSquared) || this.k == 0) return;
    if (this.count < this.k) {
      let i = this.count++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(d, id, this.distanceAt(parent), this.idAt(parent))) break;
        this.put(i, this.distanceAt(parent), this.idAt(parent));
        i = parent;
      }
      this.put(i, d, id);
      return;
    }
    if (!worse(this.distanceAt(0), this.idAt(0), d, id)) return;
    this.siftDown(0, d, id, this.count);
  }

  /** Places (d, id) at hole i of a heap of n entries, moving worse children up. */
  siftDown(i: i32, d: f64, id: i32, n: i32): void {
    while (true) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && worse(this.distanceAt(c + 1), this.idAt(c + 1), this.distanceAt(c), this.idAt(c))) c++;
      if (!worse(this.distanceAt(c), this.idAt(c), d, id)) break;
      this.put(i, this.distanceAt(c), this.idAt(c));
      i = c;
    }
    this.put(i, d, id);
  }

  /** Writes the kept ids into out, nearest first, ties by ascending id; empties the heap; returns their count. */
  take(out: IntList): i32 {
    const n = this.count;
    out.length = 0;
    out.reserve(n);
    for (let m = n; m > 0; m--) {
      out.set(m - 1, this.idAt(0));
      this.siftDown(0, this.distanceAt(m - 1), this.idAt(m - 1), m - 1);
    }
    out.length = n;
    this.count = 0;
    return n;
  }

  release(): void {
    if (this.distances != 0) {
      heap.free(this.distances);
      heap.free(this.ids);
    }
    this.distances = 0;
    this.ids = 0;
    this.capacity = 0;
  }
}

export function newKNearest(): KNearest {
  const picker = changetype<KNearest>(heap.alloc(offsetof<KNearest>()));
  memory.fill(changetype<usize>(picker), 0, offsetof<KNearest>());
  picker.maxSquared = Infinity;
  return picker;
}

export function freeKNearest(picker: KNearest): void {
  picker.release();
  heap.free(changetype<usize>(picker));
}
