// Shared views: clients that stand in one cell of a grid share one StateView,
// so Colyseus encodes each patch once per occupied cell instead of once per
// client. A cell's view holds every entity inside the cell grown by the view
// range on every side: whatever any position in the cell sees.
//
// Colyseus sends a view's patch as the change since that view's last encode,
// so a client can only be handed a view that holds what the client holds. A
// client that changes cell (or joins, or reconnects) therefore gets a bridge:
// a StateView of its own that starts from what the client holds and changes
// to the new cell's content, then follows every change of that cell. Once
// Colyseus has encoded the bridge (its pending changes are gone), the client
// holds exactly the cell's content and moves onto the cell's shared view.
import { StateView, type Schema } from '@colyseus/schema';
import { EMPTY, indexOf, transform, unmark, withEntity, withoutIndex, type Content } from './view-content.js';

/** The part of a Colyseus client used here: the view Colyseus encodes for it. */
export interface ViewHolder {
  view?: StateView;
}

/** What the shared views need of the scene. */
export interface BoxIndex {
  queryBox(minX: number, minY: number, maxX: number, maxY: number, minZ?: number, maxZ?: number): number[];
}

/** One occupied cell: its shared view, what the view holds and held at its last encode, and who stands in it. */
interface Group {
  readonly key: string;
  readonly view: StateView;
  /** minX, minY, minZ, maxX, maxY, maxZ of the entities the view holds. */
  readonly box: readonly number[];
  content: Content;
  /** The content the view had when Colyseus last encoded it (see sentContent). */
  sent: Content;
  readonly members: Set<Member>;
}

/** A client's entity. It is settled (its client on the group's view) unless it has a bridge. */
interface Member {
  readonly id: number;
  readonly object: Schema;
  client: ViewHolder;
  group: Group;
  bridge: StateView | undefined;
}

export class SharedViews {
  private readonly groups = new Map<string, Group>();
  private readonly members = new Map<number, Member>();
  private readonly bridged = new Set<Member>();
  /** Views no longer in use, emptied: reused rather than disposed (a dispose visits every tree of the state). */
  private readonly spare: StateView[] = [];

  /**
   * @param cell side of a cell (x, y and, in 3-D, z)
   * @param range half-extent of what a position sees, on every axis
   * @param is3d whether cells and boxes have a z extent
   * @param index where entities stand (the scene)
   * @param objectOf the Schema object of a registered id
   */
  constructor(
    readonly cell: number,
    private readonly range: number,
    private readonly is3d: boolean,
    private readonly index: BoxIndex,
    private readonly objectOf: (id: number) => Schema,
  ) {}

  /** Number of occupied cells: the shared views Colyseus encodes (bridges aside). */
  get groupCount(): number {
    return this.groups.size;
  }

  /** Number of clients on a bridge of their own this moment. */
  get bridgeCount(): number {
    return this.bridged.size;
  }

  isMember(id: number): boolean {
    return this.members.has(id);
  }

  /** Registers a client's entity standing at (x, y, z), already in the index. */
  join(id: number, object: Schema, client: ViewHolder, x: number, y: number, z: number): void {
    this.entered(id, object, x, y, z);
    const group = this.groupAt(x, y, z);
    const member: Member = { id, object, client, group, bridge: undefined };
    group.members.add(member);
    this.members.set(id, member);
    this.giveBridge(member, EMPTY, group.content, false);
  }

  /** Adds an entity that appeared at (x, y, z) to every view whose box holds it. */
  entered(id: number, object: Schema, x: number, y: number, z: number): void {
    for (const group of this.groups.values()) {
      if (inside(group.box, x, y, z) && indexOf(group.content, id) < 0) this.setContent(group, withEntity(group.content, id, object));
    }
  }

  /**
   * Takes id out of every view. A client's own view is then emptied: its
   * client is handed a view whose patch deletes everything it holds.
   */
  removed(id: number): void {
    for (const group of this.groups.values()) {
      const at = indexOf(group.content, id);
      if (at >= 0) this.setContent(group, withoutIndex(group.content, at));
    }
    const member = this.members.get(id);
    if (member === undefined) return;
    const group = member.group;
    if (member.bridge !== undefined) {
      transform(member.bridge, group.content, EMPTY);
      this.bridged.delete(member);
    } else {
      const emptied = new StateView();
      for (const object of this.sentContent(group).objects) emptied.remove(object);
      member.client.view = emptied;
    }
    this.members.delete(id);
    group.members.delete(member);
    this.dropIfEmpty(group);
  }

  /**
   * Hands id's view to the client object that replaced its dropped one. That
   * client is sent the full state of its view on rejoining, so it gets a
   * bridge holding the cell's content.
   */
  reconnect(id: number, client: ViewHolder): void {
    const member = this.members.get(id) as Member;
    if (member.bridge !== undefined) this.recycle(member.bridge, member.group.content);
    member.client = client;
    this.giveBridge(member, EMPTY, member.group.content, false);
  }

  /**
   * Moves a client onto its cell's shared view once Colyseus has encoded its
   * bridge since the bridge's last change (the client then holds the cell's
   * content) and the shared view's clients hold the same: the shared view
   * has been encoded since its last change too, or no client is on it, and
   * then its pending changes are for no one.
   */
  settle(): void {
    for (const member of this.bridged) {
      const bridge = member.bridge as StateView;
      if (bridge.changes.size > 0) continue;
      const group = member.group;
      if (group.view.changes.size > 0) {
        if (hasSettled(group)) continue;
        group.view.changes.clear();
      }
      group.sent = group.content;
      member.client.view = group.view;
      member.bridge = undefined;
      this.recycle(bridge, group.content);
      this.bridged.delete(member);
    }
  }

  /**
   * After a batch of moves: every view follows what its box holds now, and
   * every client whose last move (ids[k], xs[k], ys[k], zs[k]) took it into
   * another cell goes over to that cell through a bridge.
   */
  refresh(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>, zs: ArrayLike<number> | undefined, n: number): void {
    const lastMove = new Map<Member, number>();
    for (let k = 0; k < n; k++) {
      const member = this.members.get(ids[k]);
      if (member !== undefined) lastMove.set(member, k);
    }
    const arrivals = new Map<Member, Group>();
    const fresh = new Set<Group>();
    for (const [member, k] of lastMove) {
      const z = zs === undefined ? 0 : zs[k];
      if (this.keyAt(xs[k], ys[k], z) === member.group.key) continue;
      const size = this.groups.size;
      const group = this.groupAt(xs[k], ys[k], z);
      if (this.groups.size > size) fresh.add(group);
      arrivals.set(member, group);
    }
    for (const group of this.groups.values()) {
      if (!fresh.has(group)) this.setContent(group, this.query(group));
    }
    // Groups are dropped only once everyone has arrived: a group one client
    // leaves may be the one another client enters.
    for (const [member, group] of arrivals) this.moveTo(member, group);
    for (const group of this.groups.values()) this.dropIfEmpty(group);
  }

  /** The content a view's clients hold: what it had at its last encode (changes pending means not encoded since the last change). */
  private sentContent(group: Group): Content {
    if (group.view.changes.size === 0) group.sent = group.content;
    return group.sent;
  }

  /** Changes what a group's view holds, and every bridge that follows the group. */
  private setContent(group: Group, next: Content): void {
    if (next === group.content) return;
    this.sentContent(group);
    transform(group.view, group.content, next);
    for (const member of group.members) {
      if (member.bridge !== undefined) transform(member.bridge, group.content, next);
    }
    group.content = next;
  }

  /** Moves a client into another cell's group; its client goes onto a bridge from what it holds. */
  private moveTo(member: Member, group: Group): void {
    const from = member.group;
    if (member.bridge !== undefined) {
      transform(member.bridge, from.content, group.content);
    } else {
      this.giveBridge(member, this.sentContent(from), group.content, true);
    }
    member.group = group;
    group.members.add(member);
    from.members.delete(member);
  }

  /**
   * A view of the member's client's own that changes `held` (what the client
   * holds) into `content`. A view that has never been used is bound to the
   * state first, by adding the client's own entity (which the client holds
   * in any case), so that the entries it already holds can be marked.
   */
  private giveBridge(member: Member, held: Content, content: Content, markKept: boolean): void {
    const bridge = this.takeView();
    if (bridge.id < 0) bridge.add(member.object);
    transform(bridge, held, content, markKept);
    member.bridge = bridge;
    member.client.view = bridge;
    this.bridged.add(member);
  }

  private dropIfEmpty(group: Group): void {
    if (group.members.size > 0) return;
    this.groups.delete(group.key);
    this.recycle(group.view, group.content);
  }

  private takeView(): StateView {
    return this.spare.pop() ?? new StateView();
  }

  /** Empties a view that holds `content` (its entries and its pending changes) and keeps it for reuse. */
  private recycle(view: StateView, content: Content): void {
    unmark(view, content);
    view.changes.clear();
    this.spare.push(view);
  }

  /** The group of the cell holding (x, y, z), created with its content if nobody stands there yet. */
  private groupAt(x: number, y: number, z: number): Group {
    const key = this.keyAt(x, y, z);
    let group = this.groups.get(key);
    if (group !== undefined) return group;
    const { cell, range } = this;
    const ix = Math.floor(x / cell);
    const iy = Math.floor(y / cell);
    const iz = this.is3d ? Math.floor(z / cell) : 0;
    const box = this.is3d
      ? [ix * cell - range, iy * cell - range, iz * cell - range, (ix + 1) * cell + range, (iy + 1) * cell + range, (iz + 1) * cell + range]
      : [ix * cell - range, iy * cell - range, -Infinity, (ix + 1) * cell + range, (iy + 1) * cell + range, Infinity];
    group = { key, view: this.takeView(), box, content: EMPTY, sent: EMPTY, members: new Set() };
    this.groups.set(key, group);
    this.setContent(group, this.query(group));
    return group;
  }

  private keyAt(x: number, y: number, z: number): string {
    const { cell } = this;
    const key = `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
    return this.is3d ? `${key},${Math.floor(z / cell)}` : key;
  }

  /** What the group's box holds now. */
  private query(group: Group): Content {
    const [minX, minY, minZ, maxX, maxY, maxZ] = group.box;
    const ids = this.is3d ? this.index.queryBox(minX, minY, maxX, maxY, minZ, maxZ) : this.index.queryBox(minX, minY, maxX, maxY);
    const objects = ids.map(this.objectOf);
    return { ids, objects };
  }
}

function hasSettled(group: Group): boolean {
  for (const member of group.members) if (member.bridge === undefined) return true;
  return false;
}

function inside(box: readonly number[], x: number, y: number, z: number): boolean {
  return x >= box[0] && y >= box[1] && z >= box[2] && x <= box[3] && y <= box[4] && z <= box[5];
}
