// A world of walkers for the region tests: each tick a list of operations
// (moves across borders, pacing back and forth over one, circling a corner
// where four regions meet, teleports, range and layer changes, removals and
// re-adds near borders), drawn from a seeded generator so fast-check can
// shrink and replay a failing world.
import type { AddOptions, AoiRange, Scene, SetRangeOptions } from '../../src/index.js';
import type { RegionPeer, RegionWorld } from '../../src/regions/index.js';
import { mulberry32 } from '../../bench/random.js';

/** One operation of a tick, as a test applies it to a RegionWorld and to a single Scene. */
export type WorldOp =
  | { kind: 'add'; id: number; x: number; y: number; range: AoiRange; options: AddOptions }
  | { kind: 'move'; id: number; x: number; y: number }
  | { kind: 'remove'; id: number }
  | { kind: 'range'; id: number; range: AoiRange; options: SetRangeOptions }
  | { kind: 'layers'; id: number; layer: number; sees: number };

/** The sizes a world of walkers keeps within. */
export interface WalkerSizes {
  /** The world is [0, size] on both axes. */
  size: number;
  /** Borders the pacers cross: x = each of these, and y = each of these. */
  borders: number[];
  /** Largest range (square half-extent, box half-extent or radius). */
  maxRange: number;
  /** Largest margin. */
  margin: number;
  /** Largest step per tick (on either axis) of a walker that does not teleport. */
  maxStep: number;
}

type Role = 'pacer' | 'corner' | 'wanderer';

interface Walker {
  id: number;
  role: Role;
  x: number;
  y: number;
  alive: boolean;
  /** Pacers: the border they cross, and on which axis. */
  border: number;
  axis: 0 | 1;
}

/** Walkers that produce each tick's operations; coordinates are multiples of 0.5, so equal coordinates and exact range edges are common. */
export class Walkers {
  private readonly walkers: Walker[] = [];
  private readonly rng: () => number;

  constructor(
    readonly sizes: WalkerSizes,
    count: number,
    seed: number,
  ) {
    this.rng = mulberry32(seed);
    const roles: Role[] = ['pacer', 'corner', 'wanderer'];
    for (let id = 0; id < count; id++) {
      const role = roles[id % 3];
      const w: Walker = { id: id * 7 + 3, role, x: 0, y: 0, alive: false, border: this.pick(sizes.borders), axis: this.rng() < 0.5 ? 0 : 1 };
      this.walkers.push(w);
    }
  }

  /** The first tick: every walker added, near its border or corner. */
  start(): WorldOp[] {
    return this.walkers.map((w) => this.spawn(w));
  }

  /** One tick's operations. */
  next(): WorldOp[] {
    const ops: WorldOp[] = [];
    const { maxRange, margin, maxStep, size } = this.sizes;
    for (const w of this.walkers) {
      const r = this.rng();
      if (!w.alive) {
        if (r < 0.2) ops.push(this.spawn(w));
        continue;
      }
      if (r < 0.01) {
        w.alive = false;
        ops.push({ kind: 'remove', id: w.id });
        if (this.rng() < 0.3) ops.push(this.spawn(w)); // removed and added again in one tick
        continue;
      }
      if (r < 0.03) {
        ops.push({ kind: 'range', id: w.id, range: this.range(maxRange), options: this.rng() < 0.5 ? {} : { margin: this.half(margin) } });
      } else if (r < 0.04) {
        ops.push({ kind: 'layers', id: w.id, layer: 1 + Math.floor(this.rng() * 3), sees: this.pick([1, 2, 3, -1]) });
      }
      const steps = this.rng() < 0.03 ? 2 : 1;
      for (let s = 0; s < steps; s++) {
        if (this.rng() < 0.01) {
          w.x = this.half(size);
          w.y = this.half(size);
        } else this.step(w, maxStep, size);
        ops.push({ kind: 'move', id: w.id, x: w.x, y: w.y });
      }
    }
    return ops;
  }

  private spawn(w: Walker): WorldOp {
    const { size, borders, maxRange, margin } = this.sizes;
    const b = this.pick(borders);
    w.alive = true;
    w.x = clamp(b + this.half(12) - 6, size);
    w.y = w.role === 'corner' ? clamp(b + this.half(12) - 6, size) : this.half(size);
    if (w.role === 'wanderer') w.x = this.half(size);
    const options: AddOptions = { margin: this.half(margin) };
    if (this.rng() < 0.2) Object.assign(options, { layer: 1 + Math.floor(this.rng() * 3), sees: this.pick([1, 2, -1]) });
    return { kind: 'add', id: w.id, x: w.x, y: w.y, range: this.range(maxRange), options };
  }

  private step(w: Walker, maxStep: number, size: number): void {
    const { borders } = this.sizes;
    const d = (): number => this.half(2 * maxStep) - maxStep;
    if (w.role === 'pacer') {
      // Across the border every tick: from one side to the other, never farther than maxStep.
      const crossing = (v: number): number => (v < w.border ? w.border + this.half(maxStep / 2) : w.border - 0.5 - this.half(maxStep / 2 - 0.5));
      if (w.axis === 0) {
        w.x = crossing(w.x);
        w.y = clamp(w.y + d(), size);
      } else {
        w.y = crossing(w.y);
        w.x = clamp(w.x + d(), size);
      }
      return;
    }
    w.x = clamp(w.x + d(), size);
    w.y = clamp(w.y + d(), size);
    if (w.role === 'corner') {
      // Pulled back toward the nearest corner where four regions meet.
      const cx = nearest(borders, w.x);
      const cy = nearest(borders, w.y);
      if (Math.abs(w.x - cx) > 8) w.x -= Math.sign(w.x - cx) * Math.min(maxStep, 1);
      if (Math.abs(w.y - cy) > 8) w.y -= Math.sign(w.y - cy) * Math.min(maxStep, 1);
    }
  }

  /** A range of any shape within maxRange: a square, a box, a circle, or now and then a marker. */
  private range(maxRange: number): AoiRange {
    const r = this.rng();
    if (r < 0.05) return null;
    if (r < 0.45) return this.half(maxRange);
    if (r < 0.7) return { x: this.half(maxRange), y: this.half(maxRange) };
    return { radius: this.half(maxRange) };
  }

  /** A multiple of 0.5 in [0, max]. */
  private half(max: number): number {
    return Math.floor(this.rng() * (2 * max + 1)) / 2;
  }

  private pick<T>(values: T[]): T {
    return values[Math.floor(this.rng() * values.length)];
  }
}

/** What takes a world's operations: a RegionWorld, or a RegionPeer (which applies those of its own region). */
export type WorldLike = Pick<RegionWorld | RegionPeer, 'add' | 'move' | 'remove' | 'setRange' | 'setLayers'>;

/** Applies one operation to a RegionWorld or a RegionPeer (it takes effect at the next tick). */
export function applyToWorld(world: WorldLike, op: WorldOp): void {
  switch (op.kind) {
    case 'add':
      world.add(op.id, op.x, op.y, op.range, op.options);
      return;
    case 'move':
      world.move(op.id, op.x, op.y);
      return;
    case 'remove':
      world.remove(op.id);
      return;
    case 'range':
      world.setRange(op.id, op.range, op.options);
      return;
    case 'layers':
      world.setLayers(op.id, op.layer, op.sees);
      return;
  }
}

/** Applies a tick's operations to a single Scene in the world's order: entity by entity in ascending id, each entity's in the order given. */
export function applyToScene(scene: Scene, ops: ReadonlyArray<WorldOp>): void {
  const ordered = ops.map((op, i) => [op, i] as const).sort((a, b) => a[0].id - b[0].id || a[1] - b[1]);
  for (const [op] of ordered) {
    switch (op.kind) {
      case 'add':
        scene.add(op.id, op.x, op.y, op.range, op.options);
        break;
      case 'move':
        scene.move(op.id, op.x, op.y);
        break;
      case 'remove':
        scene.remove(op.id);
        break;
      case 'range':
        scene.setRange(op.id, op.range, op.options);
        break;
      case 'layers':
        scene.setLayers(op.id, op.layer, op.sees);
        break;
    }
  }
}

/** A net drain's events as 'watcher target: type' strings, sorted (a net drain holds one event per pair at most). */
export function byPair(flat: Int32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < flat.length; i += 3) out.push(`${flat[i + 1]} ${flat[i + 2]}: ${flat[i]}`);
  return out.sort();
}

function clamp(v: number, size: number): number {
  return Math.min(size, Math.max(0, v));
}

function nearest(values: number[], v: number): number {
  return values.reduce((best, b) => (Math.abs(b - v) < Math.abs(best - v) ? b : best), values[0]);
}
