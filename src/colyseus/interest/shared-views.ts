// Shared views: the clients standing in one cell of a grid share a StateView,
// so Colyseus encodes each patch once per occupied cell instead of once per
// client. A cell's view holds every entity inside the cell grown by the view
// range on every side: whatever any position in the cell sees.
//
// Each entity keeps the range of cells whose boxes hold it (three by three
// when the cell equals the range), so a move changes views only when it takes
// the entity across a box's edge, and then only the views of the cells it
// entered or left: nothing is queried per tick.
//
// Colyseus sends a view's patch as the change since that view's last encode,
// so a client can only be handed a view that holds what the client holds. A
// client that changes cell (or joins, or reconnects) therefore gets a bridge:
// a StateView of its own that starts from what the client holds and changes
// to the new cell's content, then follows every change of that cell. Once
// Colyseus has encoded the bridge (its pending changes are gone), the client
// holds exactly the cell's content and moves onto the cell's shared view.
import { StateView, type Schema } from '@colyseus/schema';
import { SpatialError } from '../../scene/index.js';
import { checkFinite, checkOptions } from '../../core/validate.js';
import { EMPTY, transform, unmark, type Content, type ReadonlyContent } from './view-content.js';

/** Checks a `sharedViews` setting other than null: a plain object `{ cell }` with a finite cell > 0 (INVALID_ARGUMENT otherwise). */
export function checkSharedViewOptions(options: unknown): asserts options is { cell: number } {
  if (typeof options !== 'object' || options === null) throw new SpatialError('INVALID_ARGUMENT', `sharedViews must be {cell} or null, got ${String(options)}`);
  checkOptions('sharedViews', options, ['cell']);
  const { cell } = options as { cell: number };
  checkFinite('sharedViews.cell', cell);
  if (!(cell > 0)) throw new SpatialError('INVALID_ARGUMENT', `sharedViews.cell must be > 0, got ${cell}`);
}

/** The part of a Colyseus client used here: the view Colyseus encodes for it. */
export interface ViewHolder {
  view?: StateView;
}

/** What the shared views need of the scene. */
export interface BoxIndex {
  queryBox(minX: number, minY: number, maxX: number, maxY: number, minZ?: number, maxZ?: number): number[];
}

/** A cell's key: its three indexes packed in one number, or joined in a string when they are too large to pack. */
type CellKey = number | string;

/** One occupied cell: its shared view, what the view holds and what changed since its last encode, and who stands in it. */
interface Group {
  readonly key: CellKey;
  readonly view: StateView;
  readonly content: Content;
  /** Entries added to and removed from the view since Colyseus last encoded it (see sentContent). */
  readonly added: Content;
  readonly removed: Content;
  readonly members: Set<Member>;
}

/** A registered entity: where it stands, and the cells whose boxes hold it (inclusive index ranges). */
interface Placed {
  readonly object: Schema;
  x: number;
  y: number;
  z: number;
  span: Span;
}

interface Span {
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
  readonly z0: number;
  readonly z1: number;
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
  private readonly groups = new Map<CellKey, Group>();
  private readonly placed = new Map<number, Placed>();
  private readonly members = new Map<number, Member>();
  private readonly bridged = new Set<Member>();
  /** Views no longer in use, emptied: reused rather than disposed (a dispose visits every tree of the state). */
  private readonly spare: StateView[] = [];

  /**
   * @param cell side of a cell (x, y and, in 3-D, z)
   * @param range half-extent of what a position sees, on every axis
   * @param is3d whether cells and boxes have a z extent
   * @param index where entities stand (the scene)
   */
  constructor(
    readonly cell: number,
    private readonly range: number,
    private readonly is3d: boolean,
    private readonly index: BoxIndex,
  ) {}

  /** Number of occupied cells: the shared views Colyseus encodes (bridges aside). */
  get groupCount(): number {
    return this.groups.size;
  }

  /** Number of clients on a bridge of their own this moment. */
  get bridgeCount(): number {
    return this.bridged.size;
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

  /** Registers an entity that appeared at (x, y, z): every view whose box holds it gets it. */
  entered(id: number, object: Schema, x: number, y: number, z: number): void {
    const placed: Placed = { object, x, y, z, span: this.spanAt(x, y, z) };
    this.placed.set(id, placed);
    this.forEachCell(placed.span, undefined, (group) => this.include(group, id, object));
  }

  /**
   * Takes id out of every view. A client's own view is then emptied: its
   * client is handed a view whose patch deletes everything it holds.
   */
  removed(id: number): void {
    const placed = this.placed.get(id);
    if (placed === undefined) return;
    this.forEachCell(placed.span, undefined, (group) => this.exclude(group, id));
    this.placed.delete(id);
    const member = this.members.get(id);
    if (member === undefined) return;
    const group = member.group;
    if (member.bridge !== undefined) {
      transform(member.bridge, group.content, EMPTY);
      this.bridged.delete(member);
    } else {
      const emptied = new StateView();
      for (const object of this.sentContent(group).values()) emptied.remove(object);
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
      group.added.clear();
      group.removed.clear();
      member.client.view = group.view;
      member.bridge = undefined;
      this.recycle(bridge, group.content);
      this.bridged.delete(member);
    }
  }

  /**
   * After a batch of moves (ids[k] to xs[k], ys[k], zs[k]): the views of the
   * cells whose boxes an entity entered or left follow, and every client that
   * stands in another cell now goes over to that cell through a bridge.
   */
  refresh(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>, zs: ArrayLike<number> | undefined, n: number): void {
    const moved = new Set<Member>();
    for (let k = 0; k < n; k++) {
      const placed = this.placed.get(ids[k]);
      if (placed === undefined) continue;
      this.shift(ids[k], placed, xs[k], ys[k], zs === undefined ? 0 : zs[k]);
      const member = this.members.get(ids[k]);
      if (member !== undefined) moved.add(member);
    }
    const arrivals: Array<[Member, Group]> = [];
    for (const member of moved) {
      const { x, y, z } = this.placed.get(member.id) as Placed;
      if (this.keyAt(x, y, z) !== member.group.key) arrivals.push([member, this.groupAt(x, y, z)]);
    }
    // Groups are dropped only once everyone has arrived: a group one client
    // leaves may be the one another client enters.
    const left: Group[] = [];
    for (const [member, group] of arrivals) {
      left.push(member.group);
      this.moveTo(member, group);
    }
    for (const group of left) this.dropIfEmpty(group);
  }

  /** Moves a placed entity: only the views of cells whose boxes it entered or left change. */
  private shift(id: number, placed: Placed, x: number, y: number, z: number): void {
    placed.x = x;
    placed.y = y;
    placed.z = z;
    const from = placed.span;
    const to = this.spanAt(x, y, z);
    if (from.x0 === to.x0 && from.x1 === to.x1 && from.y0 === to.y0 && from.y1 === to.y1 && from.z0 === to.z0 && from.z1 === to.z1) return;
    placed.span = to;
    this.forEachCell(from, to, (group) => this.exclude(group, id));
    this.forEachCell(to, from, (group) => this.include(group, id, placed.object));
  }

  /** Calls visit with the group of every occupied cell of span that is not in except. */
  private forEachCell(span: Span, except: Span | undefined, visit: (group: Group) => void): void {
    for (let ix = span.x0; ix <= span.x1; ix++) {
      for (let iy = span.y0; iy <= span.y1; iy++) {
        for (let iz = span.z0; iz <= span.z1; iz++) {
          if (except !== undefined && ix >= except.x0 && ix <= except.x1 && iy >= except.y0 && iy <= except.y1 && iz >= except.z0 && iz <= except.z1) continue;
          const group = this.groups.get(cellKey(ix, iy, iz));
          if (group !== undefined) visit(group);
        }
      }
    }
  }

  /** The cells whose boxes hold (x, y, z). */
  private spanAt(x: number, y: number, z: number): Span {
    return {
      x0: this.lowestCell(x),
      x1: this.highestCell(x),
      y0: this.lowestCell(y),
      y1: this.highestCell(y),
      z0: this.is3d ? this.lowestCell(z) : 0,
      z1: this.is3d ? this.highestCell(z) : 0,
    };
  }

  /** Lowest i whose box [i * cell - range, (i + 1) * cell + range] holds v (the same sums as the boxes, so edges agree). */
  private lowestCell(v: number): number {
    const { cell, range } = this;
    let i = Math.floor((v - range) / cell) - 2;
    while ((i + 1) * cell + range < v) i++;
    return i;
  }

  /** Highest i whose box holds v. */
  private highestCell(v: number): number {
    const { cell, range } = this;
    let i = Math.floor((v + range) / cell) + 1;
    while (i * cell - range > v) i--;
    return i;
  }

  /** Adds an entity to a group's view and to every bridge following the group. */
  private include(group: Group, id: number, object: Schema): void {
    if (group.content.get(id) === object) return;
    forgetIfSent(group);
    if (group.removed.get(id) === object) group.removed.delete(id);
    else group.added.set(id, object);
    group.content.set(id, object);
    group.view.add(object);
    for (const member of group.members) member.bridge?.add(object);
  }

  /** Takes an entity out of a group's view and out of every bridge following the group. */
  private exclude(group: Group, id: number): void {
    const object = group.content.get(id);
    if (object === undefined) return;
    forgetIfSent(group);
    if (group.added.get(id) === object) group.added.delete(id);
    else group.removed.set(id, object);
    group.content.delete(id);
    group.view.remove(object);
    for (const member of group.members) member.bridge?.remove(object);
  }

  /** The content a view's clients hold: what it had at its last encode. */
  private sentContent(group: Group): ReadonlyContent {
    forgetIfSent(group);
    const { added, removed } = group;
    if (added.size === 0 && removed.size === 0) return group.content;
    const sent = new Map(group.content);
    for (const id of added.keys()) sent.delete(id);
    for (const [id, object] of removed) sent.set(id, object);
    return sent;
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
  private giveBridge(member: Member, held: ReadonlyContent, content: ReadonlyContent, markKept: boolean): void {
    const bridge = this.takeView();
    if (bridge.id < 0) bridge.add(member.object);
    transform(bridge, held, content, markKept);
    member.bridge = bridge;
    member.client.view = bridge;
    this.bridged.add(member);
  }

  private dropIfEmpty(group: Group): void {
    if (group.members.size > 0 || this.groups.get(group.key) !== group) return;
    this.groups.delete(group.key);
    this.recycle(group.view, group.content);
  }

  private takeView(): StateView {
    return this.spare.pop() ?? new StateView();
  }

  /** Empties a view that holds `content` (its entries and its pending changes) and keeps it for reuse. */
  private recycle(view: StateView, content: ReadonlyContent): void {
    unmark(view, content);
    view.changes.clear();
    this.spare.push(view);
  }

  /** The group of the cell holding (x, y, z), created with what its box holds if nobody stands there yet. */
  private groupAt(x: number, y: number, z: number): Group {
    const { cell, range } = this;
    const ix = Math.floor(x / cell);
    const iy = Math.floor(y / cell);
    const iz = this.is3d ? Math.floor(z / cell) : 0;
    const key = cellKey(ix, iy, iz);
    let group = this.groups.get(key);
    if (group !== undefined) return group;
    group = { key, view: this.takeView(), content: new Map(), added: new Map(), removed: new Map(), members: new Set() };
    this.groups.set(key, group);
    const [minX, minY, maxX, maxY] = [ix * cell - range, iy * cell - range, (ix + 1) * cell + range, (iy + 1) * cell + range];
    const ids = this.is3d ? this.index.queryBox(minX, minY, maxX, maxY, iz * cell - range, (iz + 1) * cell + range) : this.index.queryBox(minX, minY, maxX, maxY);
    for (const id of ids) this.include(group, id, (this.placed.get(id) as Placed).object);
    return group;
  }

  private keyAt(x: number, y: number, z: number): CellKey {
    const { cell } = this;
    return cellKey(Math.floor(x / cell), Math.floor(y / cell), this.is3d ? Math.floor(z / cell) : 0);
  }
}

const PACKED = 32768;

function cellKey(ix: number, iy: number, iz: number): CellKey {
  if (Math.abs(ix) < PACKED && Math.abs(iy) < PACKED && Math.abs(iz) < PACKED) {
    return ((ix + PACKED) * 2 * PACKED + (iy + PACKED)) * 2 * PACKED + (iz + PACKED);
  }
  return `${ix},${iy},${iz}`;
}

/**
 * A view with no changes pending has been encoded since its last change: its
 * clients hold its content, and the record of changes starts afresh.
 */
function forgetIfSent(group: Group): void {
  if (group.view.changes.size > 0 || (group.added.size === 0 && group.removed.size === 0)) return;
  group.added.clear();
  group.removed.clear();
}

function hasSettled(group: Group): boolean {
  for (const member of group.members) if (member.bridge === undefined) return true;
  return false;
}
