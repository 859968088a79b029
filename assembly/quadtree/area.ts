// The area a QuadTree covers: the root's exact region, which holds every
// item. With bounds it starts as them; with none the tree has no area until
// its items first outnumber the capacity, and then takes the square around
// them. An item beyond the area doubles it towards the item (width and
// height, as often as it takes), so a world of any size costs a few
// doublings, and an area that has grown stays aligned with the one it grew
// from. Mirrored by src/quadtree/js/area.ts.

const LARGEST: f64 = f64.MAX_VALUE;

@unmanaged
export class Area {
  // The bounds given, when bounded.
  bounded: bool = false;
  boundsX0: f64 = 0;
  boundsY0: f64 = 0;
  boundsX1: f64 = 0;
  boundsY1: f64 = 0;
  // Whether there is an area yet, and where.
  covered: bool = false;
  minX: f64 = 0;
  minY: f64 = 0;
  maxX: f64 = 0;
  maxY: f64 = 0;
  // Doublings since the area was set.
  growth: i32 = 0;
  // Items sharing one point give no square: the next pick waits for this many.
  retryAt: i32 = 0;

  /** Takes new bounds (or none, when bounded is false) and goes back to them. */
  setBounds(bounded: bool, x0: f64, y0: f64, x1: f64, y1: f64): void {
    this.bounded = bounded;
    this.boundsX0 = x0;
    this.boundsY0 = y0;
    this.boundsX1 = x1;
    this.boundsY1 = y1;
    this.restart();
  }

  /** Back to the bounds, or to no area. */
  restart(): void {
    this.covered = this.bounded;
    this.minX = this.boundsX0;
    this.minY = this.boundsY0;
    this.maxX = this.boundsX1;
    this.maxY = this.boundsY1;
    this.growth = 0;
    this.retryAt = 0;
  }

  /** Whether the area holds the closed rect. */
  @inline holds(x0: f64, y0: f64, x1: f64, y1: f64): bool {
    return x0 >= this.minX && x1 <= this.maxX && y0 >= this.minY && y1 <= this.maxY;
  }

  /**
   * Makes the area hold the box of count items: grows it, or, with no area
   * yet, picks one once the items outnumber the capacity. Returns whether
   * the area changed.
   */
  fit(x0: f64, y0: f64, x1: f64, y1: f64, count: i32, capacity: i32): bool {
    if (this.covered) {
      if (this.holds(x0, y0, x1, y1)) return false;
      this.cover(x0, y0, x1, y1);
      return true;
    }
    if (count <= capacity || count < this.retryAt) return false;
    if (x0 == x1 && y0 == y1) {
      this.retryAt = count << 1;
      return false;
    }
    // The square around the box, its short side extended from its low end.
    const side = max(x1 - x0, y1 - y0);
    this.minX = x0;
    this.minY = y0;
    this.maxX = max(x1, min(LARGEST, x0 + side));
    this.maxY = max(y1, min(LARGEST, y0 + side));
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
  cover(x0: f64, y0: f64, x1: f64, y1: f64): void {
    while (!this.holds(x0, y0, x1, y1)) {
      let w = this.maxX - this.minX, h = this.maxY - this.minY;
      if (w == 0) w = h;
      if (h == 0) h = w;
      if (w == 0) {
        w = max(max(x1 - this.minX, this.minX - x0), max(y1 - this.minY, this.minY - y0));
        h = w;
      }
      if (x0 * 0.5 + x1 * 0.5 < this.minX * 0.5 + this.maxX * 0.5) {
        const side = this.minX - w;
        if (side < this.minX && side >= -LARGEST) this.minX = side;
        else this.wholeX();
      } else {
        const side = this.maxX + w;
        if (side > this.maxX && side <= LARGEST) this.maxX = side;
        else this.wholeX();
      }
      if (y0 * 0.5 + y1 * 0.5 < this.minY * 0.5 + this.maxY * 0.5) {
        const side = this.minY - h;
        if (side < this.minY && side >= -LARGEST) this.minY = side;
        else this.wholeY();
      } else {
        const side = this.maxY + h;
        if (side > this.maxY && side <= LARGEST) this.maxY = side;
        else this.wholeY();
      }
      this.growth++;
    }
  }

  // The whole finite line on one axis: it holds every finite value.
  @inline wholeX(): void {
    this.minX = -LARGEST;
    this.maxX = LARGEST;
  }

  @inline wholeY(): void {
    this.minY = -LARGEST;
    this.maxY = LARGEST;
  }
}
