// The flat event buffer every AOI peer writes: [type, watcher, target, ...],
// type 0 enter, 1 leave, 2 move, the layout of Scene.drainArray().
export class EventBuffer {
  private data = new Int32Array(1 << 16);
  private length = 0;

  push(type: number, watcher: number, target: number): void {
    if (this.length + 3 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = type;
    this.data[this.length++] = watcher;
    this.data[this.length++] = target;
  }

  /** A copy of the events since the last drain, then forgets them. */
  drain(): Int32Array {
    const out = this.data.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

/** One AOI implementation with equal square ranges, driven by the benchmark. */
export interface ScenePeer {
  addAll(ids: Int32Array, xs: Float64Array, ys: Float64Array): void;
  move(id: number, x: number, y: number): void;
  drainArray(): Int32Array;
}
