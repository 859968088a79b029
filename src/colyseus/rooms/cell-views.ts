// Shared views for a region room (RegionRoom.sharedViews): the clients whose
// players stand in one cell share one StateView (interest/shared-views.ts),
// so Colyseus encodes a patch once per occupied cell instead of once per
// client. The state then holds every entity of the region, owned or ghost,
// and a cell's view holds those inside the cell grown by the layout's
// maxRange on every side: each client receives at least what its player
// sees, and nothing farther than maxRange + cell from it on either axis.
import type { Client } from '@colyseus/core';
import type { Region } from '../../regions/index.js';
import { SharedViews } from '../interest/shared-views.js';
import { RegionEntity, type RegionState } from './region-state.js';

/** A player to show: its id (the region owns its entity) and its client. */
export interface ShownPlayer {
  readonly id: number;
  readonly client: Client;
}

/** The cells' views of one region room; see the file comment. */
export class CellViews {
  private readonly views: SharedViews;
  /** The region's entities the views hold, where they stood at the last refresh. */
  private readonly placed = new Map<number, { x: number; y: number }>();
  /** Players whose clients see through the views. */
  private readonly members = new Set<number>();

  /**
   * @param cell side of a cell
   * @param range how far beyond its cell a client's view reaches (the layout's maxRange)
   * @param region the room's region as it is now (a takeover restores another)
   */
  constructor(
    cell: number,
    range: number,
    private readonly region: () => Region,
  ) {
    this.views = new SharedViews(cell, range, false, { queryBox: (minX, minY, maxX, maxY) => this.region().queryBox(minX, minY, maxX, maxY) });
  }

  /** Occupied cells: the shared views Colyseus encodes, bridges aside. */
  get cellCount(): number {
    return this.views.groupCount;
  }

  /**
   * After a tick: every entity of the region in `entities` at its place (a
   * player's `seq` from seqOf), the cells' views following, and the
   * clients of `shown` players not seen through the views yet put on them.
   */
  refresh(entities: RegionState['entities'], seqOf: (id: number) => number, shown: ReadonlyArray<ShownPlayer>): void {
    // Clients whose bridge Colyseus has sent since go onto their cell's view first.
    this.views.settle();
    const region = this.region();
    const ids = [...region.ownedIds(), ...region.ghostIds()];
    const here = new Set(ids);
    for (const id of [...this.placed.keys()]) if (!here.has(id)) this.forget(id, entities);
    const moved: number[] = [];
    const xs: number[] = [];
    const ys: number[] = [];
    for (const id of ids) {
      const { x, y } = region.position(id);
      let entity = entities.get(String(id));
      if (entity === undefined) entities.set(String(id), (entity = new RegionEntity({ x, y, seq: 0 })));
      entity.x = x;
      entity.y = y;
      entity.seq = seqOf(id);
      const at = this.placed.get(id);
      if (at === undefined) {
        this.placed.set(id, { x, y });
        this.views.entered(id, entity, x, y, 0);
      } else if (at.x !== x || at.y !== y) {
        at.x = x;
        at.y = y;
        moved.push(id);
        xs.push(x);
        ys.push(y);
      }
    }
    this.views.refresh(moved, xs, ys, undefined, moved.length);
    for (const { id, client } of shown) {
      if (this.members.has(id)) continue;
      const at = this.placed.get(id)!;
      this.views.join(id, entities.get(String(id))!, client, at.x, at.y, 0);
      this.members.add(id);
    }
  }

  /**
   * Takes player id's client off the views (its player handed on): its
   * view is emptied. Its entity, should the region still hold it as a
   * ghost, joins the others' views again at the next refresh.
   */
  leave(id: number): void {
    if (!this.members.delete(id)) return;
    this.views.removed(id);
    this.placed.delete(id);
  }

  /** Hands player id's view to the client that replaced its dropped one. */
  reconnect(id: number, client: Client): void {
    if (this.members.has(id)) this.views.reconnect(id, client);
  }

  /** An entity that left the region: out of every view and out of the state. */
  private forget(id: number, entities: RegionState['entities']): void {
    this.members.delete(id);
    this.views.removed(id);
    this.placed.delete(id);
    entities.delete(String(id));
  }
}
