// The ghost operations a region receives for one step, entity by entity in
// ascending id, each with the region that sent it (the entity's owner), so
// that the step can walk them beside its own operations without a Map or an
// object per entity. The lists are kept from one step to the next.
import type { GhostBatch, GhostOp } from './messages.js';

/** The entities of the ghost batches addressed to one region, ascending id. */
export class ReceivedGhosts {
  /** Entities taken. */
  count = 0;
  private readonly ids: number[] = [];
  private readonly from: number[] = [];
  private readonly ops: GhostOp[][] = [];
  /** Indices into the lists above, by ascending id. */
  private readonly order: number[] = [];

  /** Takes the entities of the batches addressed to region `to`; of an entity in two batches, the later batch's. */
  take(to: number, batches: ReadonlyArray<GhostBatch>): void {
    const { ids, from, ops, order } = this;
    ids.length = from.length = ops.length = order.length = 0;
    for (const b of batches) {
      if (b.to !== to) continue;
      for (const e of b.entities) {
        order.push(ids.length);
        ids.push(e.id);
        from.push(b.from);
        ops.push(e.ops);
      }
    }
    order.sort((a, b) => ids[a] - ids[b] || b - a);
    let kept = 0;
    for (let k = 0; k < order.length; k++) if (kept === 0 || ids[order[kept - 1]] !== ids[order[k]]) order[kept++] = order[k];
    order.length = this.count = kept;
  }

  /** The id of the k-th entity. */
  idAt(k: number): number {
    return this.ids[this.order[k]];
  }

  /** The region that sent the k-th entity's operations. */
  fromAt(k: number): number {
    return this.from[this.order[k]];
  }

  /** The k-th entity's operations, in order. */
  opsAt(k: number): GhostOp[] {
    return this.ops[this.order[k]];
  }
}
