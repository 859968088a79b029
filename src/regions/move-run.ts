// A run of consecutive moves gathered for one Scene.moveMany: one crossing
// into the core instead of one per move, with the same events, since a batch
// applies its moves in array order.
import type { Scene } from '../scene/index.js';

/** Moves waiting to be applied together, in order. */
export class MoveRun {
  private ids = new Int32Array(256);
  private xs = new Float64Array(256);
  private ys = new Float64Array(256);
  private length = 0;

  /** Appends a move of id to (x, y). */
  push(id: number, x: number, y: number): void {
    if (this.length === this.ids.length) this.grow();
    this.ids[this.length] = id;
    this.xs[this.length] = x;
    this.ys[this.length] = y;
    this.length++;
  }

  /** Applies the moves gathered so far to scene, in order, and forgets them. */
  flush(scene: Scene): void {
    if (this.length === 0) return;
    const n = this.length;
    this.length = 0;
    scene.moveMany(this.ids.subarray(0, n), this.xs.subarray(0, n), this.ys.subarray(0, n));
  }

  private grow(): void {
    const size = this.ids.length * 2;
    const [ids, xs, ys] = [new Int32Array(size), new Float64Array(size), new Float64Array(size)];
    ids.set(this.ids);
    xs.set(this.xs);
    ys.set(this.ys);
    [this.ids, this.xs, this.ys] = [ids, xs, ys];
  }
}
