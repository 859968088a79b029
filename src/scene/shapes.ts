// What a Scene's facade remembers of each entity: its position, range
// (half-extents and kind), margin and layer masks, by slot, as of the last
// call that succeeded. The cores keep these in their own layouts; holding a
// copy here lets toBuffer read every entity in one pass on either backend
// without a call per entity, lets a call that fails part way put a fresh
// core back exactly as the scene was (see recovery.ts), and gives the net
// view (net.ts) where each entity stands now: the facade keeps no other
// copy of it (the net view keeps only where a moved entity stood at the
// last drain).

/** The kind of an entity's range: MARKER (null, watches nothing), BOX (half-extents rx, ry, rz) or CIRCLE (radius rx = ry = rz). */
export type RangeKind = 0 | 1 | 2;
export const MARKER: RangeKind = 0;
export const BOX: RangeKind = 1;
export const CIRCLE: RangeKind = 2;

/** Per-slot ranges and masks, in arrays grown on demand. */
export class SceneShapes {
  private positions = new Float64Array(3 * 64);
  private halfExtents = new Float64Array(3 * 64);
  private kinds = new Uint8Array(64);
  private margins = new Float64Array(64);
  private layers = new Int32Array(64);
  private sees = new Int32Array(64);

  /** Records slot's range (`watcher` false is a marker, `round` a circle) and margin (kept for a marker too, for a later setRange). */
  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean, round: boolean, margin: number): void {
    this.room(slot);
    this.halfExtents[3 * slot] = rx;
    this.halfExtents[3 * slot + 1] = ry;
    this.halfExtents[3 * slot + 2] = rz;
    this.kinds[slot] = !watcher ? MARKER : round ? CIRCLE : BOX;
    this.margins[slot] = margin;
  }

  /** Records slot's position. */
  place(slot: number, x: number, y: number, z: number): void {
    this.room(slot);
    this.positions[3 * slot] = x;
    this.positions[3 * slot + 1] = y;
    this.positions[3 * slot + 2] = z;
  }

  /** Records the positions of a batch, in order (z 0 when zs is null). */
  placeMany(slots: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null): void {
    for (let k = 0; k < slots.length; k++) this.place(slots[k], xs[k], ys[k], zs === null ? 0 : zs[k]);
  }

  /** Coordinate `axis` (0 x, 1 y, 2 z) of slot's position. */
  coordinate(slot: number, axis: number): number {
    return this.positions[3 * slot + axis];
  }

  /** Records slot's masks (int32). */
  setLayers(slot: number, layer: number, sees: number): void {
    this.room(slot);
    this.layers[slot] = layer;
    this.sees[slot] = sees;
  }

  kind(slot: number): RangeKind {
    return this.kinds[slot] as RangeKind;
  }

  /** Half-extent `axis` (0 x, 1 y, 2 z) of slot's range. */
  halfExtent(slot: number, axis: number): number {
    return this.halfExtents[3 * slot + axis];
  }

  margin(slot: number): number {
    return this.margins[slot];
  }

  layer(slot: number): number {
    return this.layers[slot];
  }

  seen(slot: number): number {
    return this.sees[slot];
  }

  private room(slot: number): void {
    if (slot < this.kinds.length) return;
    let capacity = this.kinds.length * 2;
    while (capacity <= slot) capacity *= 2;
    this.positions = grow(this.positions, new Float64Array(3 * capacity));
    this.halfExtents = grow(this.halfExtents, new Float64Array(3 * capacity));
    this.kinds = grow(this.kinds, new Uint8Array(capacity));
    this.margins = grow(this.margins, new Float64Array(capacity));
    this.layers = grow(this.layers, new Int32Array(capacity));
    this.sees = grow(this.sees, new Int32Array(capacity));
  }
}

function grow<T extends Float64Array | Uint8Array | Int32Array>(old: T, grown: T): T {
  grown.set(old);
  return grown;
}
