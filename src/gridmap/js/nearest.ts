// The cell a search cut short by its budget ends at: of the cells expanded,
// the one nearest the target (by the search's own distance estimate), the
// cheaper to reach on a tie, the first expanded on a full tie. The same rule
// as assembly/gridmap/map.ts's offerNearest.
export class Nearest {
  cell = -1;
  private distance = Infinity;
  private cost = Infinity;

  clear(): void {
    this.cell = -1;
    this.distance = Infinity;
    this.cost = Infinity;
  }

  offer(cell: number, distance: number, cost: number): void {
    if (distance < this.distance || (distance === this.distance && cost < this.cost)) {
      this.cell = cell;
      this.distance = distance;
      this.cost = cost;
    }
  }
}
