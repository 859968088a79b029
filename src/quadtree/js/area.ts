// The area a QuadTree covers: the root's exact region, which holds every
// item. With bounds it starts as them; with none the tree has no area until
// its items first outnumber the capacity, and then takes the square around
// them. An item beyond the area doubles it towards the item (width and
// height, as often as it takes), so a world of any size costs a few
// doublings, and an area that has grown stays aligned with the one it grew
// from. The same rule as assembly/quadtree/area.ts.

import type { Box } from '../backend.js';

const LARGEST = Number.MAX_VALUE;

export class Area {
  /** The bounds given, or null. */
  bounds: Box | null = null;
  /** Whether there is an area yet. */
  covered = false;
  minX = 0;
  minY = 0;
  maxX = 0;
  maxY = 0;
  /** Doublings since the area was set. */
  growth = 0;
  /** Items sharing one point give no square: the next pick waits for this many. */
  retryAt = 0;

  constructor(bounds: Box | null) {
    this.setBounds(bounds);
  }

  /** Takes new bounds (or none) and goes back to them. */
  setBounds(bounds: Box | null): void {
    this.bounds = bounds;
    this.restart();
  }

  /** Back to the bounds, or to no area. */
  restart(): void {
    const [minX, minY, maxX, maxY] = this.bounds ?? [0, 0, 0, 0];
    this.covered = this.bounds !== null;
    this.minX = minX;
    this.minY = minY;
    this.maxX = maxX;
    this.maxY = maxY;
    this.growth = 0;
    this.retryAt = 0;
  }

  /** Whether the area holds the closed rect. */
  holds(x0: number, y0: number, x1: number, y1: number): boolean {
    return x0 >= this.minX && x1 <= this.maxX && y0 >= this.minY && y1 <= this.maxY;
  }

  /**
   * Makes the area hold the box of count items: grows it, or, with no area
   * yet, picks one once the items outnumber the capacity. Returns whether
   * the area changed.
   */
  fit([x0, y0, x1, y1]: Box, count: number, capacity: number): boolean {
    if (this.covered) {
      if (this.holds(x0, y0, x1, y1)) return false;
      this.cover(x0, y0, x1, y1);
      return true;
    }
    if (count <= capacity || count < this.retryAt) return false;
    if (x0 === x1 && y0 === y1) {
      this.retryAt = count * 2;
      return false;
    }
    // The square around the box, its short side extended from its low end.
    const side = Math.max(x1 - x0, y1 - y0);
    this.minX = x0;
    this.minY = y0;
    this.maxX = Math.max(x1, Math.min(LARGEST, x0 + side));
    this.maxY = Math.max(y1, Math.min(LARGEST, y0 + side));
    this.covered = true;
    return true;
  }

  /**
   * Doubles the area towards the rect until it holds it: on each axis the
   * new half goes to the side of the rect's centre. A flat area takes its
   * missing size from the other side, a point from its distance to the
   * rect. An axis whose side cannot move out any more (it would pass the
   * largest finite double, or rounding keeps it where it is) takes the whole
   * finite line, -MAX_VALUE to MAX_VALUE, which holds every finite value:
   * so the doubling always ends.
   */
  cover(x0: number, y0: number, x1: number, y1: number): void {
    while (!this.holds(x0, y0, x1, y1)) {
      let w = this.maxX - this.minX, h = this.maxY - this.minY;
      if (w === 0) w = h;
      if (h === 0) h = w;
      if (w === 0) w = h = Math.max(x1 - this.minX, this.minX - x0, y1 - this.minY, this.minY - y0);
      [this.minX, this.maxX] = doubled(this.minX, this.maxX, w, x0 * 0.5 + x1 * 0.5 < this.minX * 0.5 + this.maxX * 0.5);
      [this.minY, this.maxY] = doubled(this.minY, this.maxY, h, y0 * 0.5 + y1 * 0.5 < this.minY * 0.5 + this.maxY * 0.5);
      this.growth++;
    }
  }
}

/** The interval [lo, hi] grown by size on its low side (or high side): the whole finite line when that side cannot move out. */
function doubled(lo: number, hi: number, size: number, low: boolean): [number, number] {
  const side = low ? lo - size : hi + size;
  if (low ? side < lo && side >= -LARGEST : side > hi && side <= LARGEST) return low ? [side, hi] : [lo, side];
  return [-LARGEST, LARGEST];
}
