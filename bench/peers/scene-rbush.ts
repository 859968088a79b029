// AOI the way many JS servers do it today: an rbush index of points; a move
// is remove + insert + a box search, and the visible sets are diffed.
import RBush from 'rbush';
import { EventBuffer, type ScenePeer } from './scene-events.js';

interface Item {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  id: number;
}

export class RbushScenePeer implements ScenePeer {
  private readonly tree = new RBush<Item>();
  private readonly items: Item[] = [];
  private readonly visible: Array<Set<number>> = [];
  private readonly events = new EventBuffer();

  constructor(private readonly range: number) {}

  addAll(ids: Int32Array, xs: Float64Array, ys: Float64Array): void {
    const fresh: Item[] = [];
    for (let k = 0; k < ids.length; k++) {
      const item = { minX: xs[k], minY: ys[k], maxX: xs[k], maxY: ys[k], id: ids[k] };
      this.items[ids[k]] = item;
      this.visible[ids[k]] = new Set();
      fresh.push(item);
    }
    this.tree.load(fresh);
    for (const item of fresh) {
      for (const other of this.search(item)) {
        if (other.id === item.id) continue;
        this.visible[item.id].add(other.id);
        this.events.push(0, item.id, other.id);
      }
    }
  }

  private search(item: Item): Item[] {
    const r = this.range;
    return this.tree.search({ minX: item.minX - r, minY: item.minY - r, maxX: item.minX + r, maxY: item.minY + r });
  }

  move(id: number, x: number, y: number): void {
    const item = this.items[id];
    if (item.minX === x && item.minY === y) return;
    this.tree.remove(item);
    item.minX = item.maxX = x;
    item.minY = item.maxY = y;
    this.tree.insert(item);
    const before = this.visible[id];
    const now = new Set<number>();
    for (const other of this.search(item)) {
      if (other.id === id) continue;
      now.add(other.id);
      if (before.has(other.id)) {
        this.events.push(2, other.id, id);
      } else {
        this.events.push(0, other.id, id);
        this.events.push(0, id, other.id);
        this.visible[other.id].add(id);
      }
    }
    for (const other of before) {
      if (now.has(other)) continue;
      this.events.push(1, other, id);
      this.events.push(1, id, other);
      this.visible[other].delete(id);
    }
    this.visible[id] = now;
  }

  drainArray(): Int32Array {
    return this.events.drain();
  }
}
