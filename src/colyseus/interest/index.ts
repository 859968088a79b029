// spatialkit/colyseus: a Scene decides who sees whom, and every enter or
// leave becomes a view.add or view.remove on the watcher's Colyseus StateView
// (or, with shared views, on the StateView of the cell the client stands in).
// This entry imports the main entry ('./index.js', which the bundle keeps as
// the external 'spatialkit'), so both share one Scene class, one wasm module
// and one SpatialError.
import { $changes, $refId, type Schema, type StateView } from '@colyseus/schema';
import { ENTER, LEAVE, SpatialError, type AoiRange, type Scene } from '../../scene/index.js';
import { checkOptions } from '../../core/validate.js';
import { checkSharedViewOptions, SharedViews } from './shared-views.js';
import { SightQueue } from './sight-queue.js';

const INTEREST_OPTION_KEYS = ['onNpcSight', 'seeSelf', 'sharedViews'];
const PLACEMENT_KEYS = ['x', 'y', 'z', 'range'];

/**
 * The part of a Colyseus client the adapter uses: its StateView. Per client,
 * the room sets it before registering the client; with shared views, the
 * adapter sets it.
 */
export interface InterestClient {
  /** The view Colyseus encodes this client's patches from. */
  view?: StateView;
}

/** Where an entity stands and how far it sees. */
export interface InterestPlacement {
  /** Position on the x axis. */
  x: number;
  /** Position on the y axis. */
  y: number;
  /** Required in a 3-D scene, ignored in a 2-D one. */
  z?: number;
  /**
   * View range (see {@link AoiRange}). For a client: omitted means the scene's
   * default range. For an NPC: omitted or null means a marker that others see
   * and that watches nothing.
   */
  range?: AoiRange;
}

/**
 * What an NPC watcher starts or stops seeing. It is called once the call that
 * caused the sight has applied every view, so it may call any method of the
 * adapter (see {@link InterestOptions.onNpcSight}).
 */
export type NpcSight = (type: 'enter' | 'leave', watcher: number, target: number) => void;

/**
 * Shared views: clients standing in one cell of a square grid (a cube grid
 * in 3-D) share one StateView, so Colyseus encodes each patch once per
 * occupied cell rather than once per client. A cell's view holds every
 * entity inside the cell grown by the scene's `defaultRange` on every side:
 * everything that any position in the cell sees with that range. A client
 * therefore holds everything its own range covers, and nothing farther than
 * `defaultRange + cell` from it on any axis.
 */
export interface SharedViewOptions {
  /**
   * Side of a cell, > 0. Larger cells mean fewer encodes and more bytes per
   * client: 1.2 times the scene's `defaultRange` keeps bytes per client
   * within 2.5 times a view per client's (docs/colyseus.md, "Picking the cell").
   */
  cell: number;
}

/** Options of {@link Interest}. */
export interface InterestOptions {
  /**
   * Called for every enter and leave whose watcher is an NPC (clients' views
   * are updated instead), once the call that caused it has applied every
   * view. A hook may call any method: the call is applied at once, and the
   * sights it causes are delivered after those already waiting, so each
   * (watcher, target) pair's sights arrive in order, enter and leave in turn
   * (a sight may name an entity an earlier hook has since removed; its leave
   * follows). If a hook throws, the other sights are still delivered and the
   * outermost call then rethrows the first error, with every view applied.
   * Hooks whose calls keep causing sights make that call throw HOOK_LOOP,
   * with every view applied and the sights left undelivered: one call
   * delivers at most 64 rounds of sights (round n + 1 being those caused by
   * hooks during round n), and at most 64 times the sights it caused itself
   * (262,144 if that is more).
   */
  onNpcSight?: NpcSight;
  /** Whether each client's view holds its own entity (default true; shared views always hold it). */
  seeSelf?: boolean;
  /** Share one StateView among the clients of each cell (default: a view per client, exact). */
  sharedViews?: SharedViewOptions | null;
}

interface Entry {
  readonly object: Schema;
  /** The watcher's client view; undefined for NPCs and for clients on shared views. */
  readonly view: StateView | undefined;
  readonly isClient: boolean;
}

/**
 * Interest management for a Colyseus room: a Scene of entities, each tied to
 * the Schema object that represents it in the room state. Clients' entities
 * watch with their client's StateView: whatever the Scene says a client's
 * entity starts seeing is added to that view, whatever it stops seeing is
 * removed. NPCs are markers (seen, seeing nothing) or watchers reported
 * through {@link InterestOptions.onNpcSight}.
 *
 * Moves are staged by {@link Interest.move} and applied together by
 * {@link Interest.update}, one `moveMany` per tick. Every other call applies
 * its own visibility changes at once ({@link Interest.remove} applies the
 * staged moves first), so after each update every view holds exactly what its
 * entity sees in the Scene. NPC sights reach {@link InterestOptions.onNpcSight}
 * only after that, so a hook may call the adapter back.
 *
 * With {@link InterestOptions.sharedViews}, clients are markers in the Scene
 * and see through the view of the cell they stand in (see
 * {@link SharedViewOptions}): the adapter sets each client's `view`, and a
 * reconnected client must be handed over with {@link Interest.reconnect}.
 *
 * The adapter owns the scene's events: do not drain the scene elsewhere.
 * Rejected calls throw {@link SpatialError} and change nothing.
 */
export class Interest {
  /** The Scene holding every registered entity (read it freely; change it only through this adapter). */
  readonly scene: Scene;
  private readonly entries = new Map<number, Entry>();
  /** NPC sights waiting for onNpcSight; undefined without a hook. */
  private readonly sights: SightQueue | undefined;
  private readonly seeSelf: boolean;
  private shared: SharedViews | undefined;
  private clients = 0;
  /** Per watcher, per target: enters minus leaves in the events being applied. */
  private readonly net = new Map<number, Map<number, number>>();
  private stagedIds = new Int32Array(64);
  private stagedXs = new Float64Array(64);
  private stagedYs = new Float64Array(64);
  private stagedZs = new Float64Array(64);
  private staged = 0;

  constructor(scene: Scene, options: InterestOptions = {}) {
    checkOptions('Interest', options, INTEREST_OPTION_KEYS);
    this.scene = scene;
    this.sights = options.onNpcSight === undefined ? undefined : new SightQueue(options.onNpcSight);
    this.seeSelf = options.seeSelf ?? true;
    this.shared = this.sharedViewsFor(options.sharedViews ?? null);
  }

  /** The shared-view setting in force (null: a view per client). */
  get sharedViews(): SharedViewOptions | null {
    return this.shared === undefined ? null : { cell: this.shared.cell };
  }

  /** Number of StateViews Colyseus encodes per patch with shared views: one per occupied cell (clients on a bridge of their own aside); 0 without shared views. */
  get sharedViewCount(): number {
    return this.shared?.groupCount ?? 0;
  }

  /**
   * Switches between a view per client (null) and shared views. Throws
   * INVALID_NUMBER for a cell that is not finite, INVALID_ARGUMENT for one
   * that is not > 0 or while any client is registered (NPCs may be).
   */
  setSharedViews(options: SharedViewOptions | null): void {
    const shared = this.sharedViewsFor(options);
    if (this.clients > 0) {
      throw new SpatialError('INVALID_ARGUMENT', `cannot switch view sharing while ${this.clients} client(s) are registered`);
    }
    this.shared = shared;
    for (const [id, entry] of this.entries) this.enterShared(id, entry.object);
  }

  /** Number of registered entities. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether id is registered. */
  has(id: number): boolean {
    return this.entries.has(id);
  }

  /**
   * Registers a client's entity: `object` (already in the room state) placed
   * at `at`, watching with `client.view`. The view gets `object` itself (unless
   * `seeSelf` is false) and everything the entity sees. With shared views the
   * adapter sets `client.view` instead, the entity sees with the scene's
   * `defaultRange`, and `at.range` must be left out.
   * Throws DUPLICATE_ID, INVALID_ARGUMENT (no view, object not a Schema in the
   * state, a range with shared views), or the Scene's errors for bad ids,
   * coordinates and ranges; once registered, what `onNpcSight` threw or
   * HOOK_LOOP (see {@link InterestOptions.onNpcSight}).
   */
  addClient(id: number, client: InterestClient, object: Schema, at: InterestPlacement): void {
    this.checkFresh(id);
    if (this.shared !== undefined) this.addSharedClient(id, client, object, at);
    else this.addOwnViewClient(id, client, object, at);
    this.sights?.deliver();
  }

  /**
   * Registers an NPC: `object` (already in the room state) placed at `at`. With
   * no range (or null) it is a marker; with a range it watches, and what it
   * starts and stops seeing goes to `onNpcSight`.
   * Throws DUPLICATE_ID, INVALID_ARGUMENT (object not a Schema in the state),
   * or the Scene's errors for bad ids, coordinates and ranges; once
   * registered, what `onNpcSight` threw or HOOK_LOOP.
   */
  addNpc(id: number, object: Schema, at: InterestPlacement): void {
    this.checkFresh(id);
    checkAttached(id, object);
    this.place(id, at, at?.range ?? null);
    this.entries.set(id, { object, view: undefined, isClient: false });
    this.apply();
    this.enterShared(id, object);
    this.sights?.deliver();
  }

  /**
   * Hands the entity of a client that reconnected to the client object
   * Colyseus created for it (call it from the room's `onReconnect`). With
   * shared views the adapter keeps setting the view of the client it holds,
   * so without this call the reconnected client would stop following its
   * cell; with a view per client it changes nothing. Throws UNKNOWN_ID, or
   * INVALID_ARGUMENT when id is an NPC or client is not an object.
   */
  reconnect(id: number, client: InterestClient): void {
    const entry = this.entry(id);
    if (!entry.isClient) throw new SpatialError('INVALID_ARGUMENT', `entity ${String(id)} is an NPC, not a client`);
    if (client === null || typeof client !== 'object') throw new SpatialError('INVALID_ARGUMENT', `client of entity ${String(id)} must be a Colyseus client`);
    this.shared?.reconnect(id, client);
  }

  /**
   * Stages a move of id to (x, y[, z]); {@link update} applies all staged
   * moves in call order. Throws UNKNOWN_ID or INVALID_NUMBER (nothing staged).
   */
  move(id: number, x: number, y: number, z?: number): void {
    if (!this.entries.has(id)) throw new SpatialError('UNKNOWN_ID', `no entity ${String(id)} to move`);
    const is3d = this.scene.dimensions === 3;
    if (!Number.isFinite(x) || !Number.isFinite(y) || (is3d && !Number.isFinite(z))) {
      throw new SpatialError('INVALID_NUMBER', `move of entity ${id} to (${String(x)}, ${String(y)}${is3d ? `, ${String(z)}` : ''}) is not finite`);
    }
    if (this.staged === this.stagedIds.length) this.growStaging();
    const k = this.staged++;
    this.stagedIds[k] = id;
    this.stagedXs[k] = x;
    this.stagedYs[k] = y;
    this.stagedZs[k] = z ?? 0;
  }

  /**
   * Applies every staged move in one `moveMany`, then the views' adds and
   * removes it causes. With shared views it also moves clients whose bridge
   * has been sent onto their cell's shared view, so call it every tick.
   * Moves a hook stages meanwhile wait for the next update. Throws what
   * `onNpcSight` threw or HOOK_LOOP, after applying every view.
   */
  update(): void {
    this.applyStaged();
    this.sights?.deliver();
  }

  /**
   * Changes what id sees (a client's view follows at once). Throws UNKNOWN_ID,
   * INVALID_ARGUMENT for a client on shared views, or the Scene's range errors;
   * once applied, what `onNpcSight` threw or HOOK_LOOP.
   */
  setRange(id: number, range: AoiRange): void {
    const entry = this.entry(id);
    if (entry.isClient && this.shared !== undefined) {
      throw new SpatialError('INVALID_ARGUMENT', `entity ${String(id)} is a client on shared views: it sees with the scene's defaultRange`);
    }
    this.scene.setRange(id, range);
    this.apply();
    this.sights?.deliver();
  }

  /**
   * Unregisters id: every view that held it drops it, and its own view (a
   * client's) is emptied. Staged moves are applied first. Call it before
   * deleting the object from the state. Throws UNKNOWN_ID; once removed,
   * what `onNpcSight` threw or HOOK_LOOP.
   */
  remove(id: number): void {
    this.unregister(id, this.entry(id));
    this.sights?.deliver();
  }

  /**
   * Unregisters every entity as {@link remove} would, leaving the scene
   * empty; `onNpcSight` then hears the leaves (what a hook registers then
   * stays registered).
   */
  clear(): void {
    for (const [id, entry] of [...this.entries]) this.unregister(id, entry);
    this.sights?.deliver();
  }

  /** Applies the staged moves, their view changes and the shared views' moves; queues the sights. */
  private applyStaged(): void {
    this.shared?.settle();
    if (this.staged === 0) return;
    const n = this.staged;
    const ids = this.stagedIds.subarray(0, n);
    const xs = this.stagedXs.subarray(0, n);
    const ys = this.stagedYs.subarray(0, n);
    const zs = this.scene.dimensions === 3 ? this.stagedZs.subarray(0, n) : undefined;
    this.scene.moveMany(ids, xs, ys, zs);
    this.staged = 0;
    this.apply();
    this.shared?.refresh(ids, xs, ys, zs, n);
  }

  /** remove() without the delivery of sights. */
  private unregister(id: number, entry: Entry): void {
    this.applyStaged();
    this.scene.remove(id);
    this.apply();
    this.shared?.removed(id);
    this.entries.delete(id);
    if (entry.isClient) this.clients--;
    if (this.seeSelf && entry.view !== undefined) entry.view.remove(entry.object);
  }

  /** A client with a view of its own, which the room set on client.view. */
  private addOwnViewClient(id: number, client: InterestClient, object: Schema, at: InterestPlacement): void {
    const view = client?.view;
    if (view === undefined || view === null || typeof view.add !== 'function' || typeof view.remove !== 'function') {
      throw new SpatialError('INVALID_ARGUMENT', `client of entity ${id} has no StateView: set client.view = new StateView() first`);
    }
    checkAttached(id, object);
    this.place(id, at, at?.range);
    this.entries.set(id, { object, view, isClient: true });
    this.clients++;
    if (this.seeSelf) view.add(object);
    this.apply();
  }

  /** A client on shared views: a marker in the scene, seeing through its cell's view. */
  private addSharedClient(id: number, client: InterestClient, object: Schema, at: InterestPlacement): void {
    const shared = this.shared as SharedViews;
    if (client === null || typeof client !== 'object') throw new SpatialError('INVALID_ARGUMENT', `client of entity ${String(id)} must be a Colyseus client`);
    checkAttached(id, object);
    if (at !== null && typeof at === 'object' && at.range !== undefined) {
      throw new SpatialError('INVALID_ARGUMENT', `entity ${String(id)}: a client on shared views sees with the scene's defaultRange; leave out range`);
    }
    this.place(id, at, null);
    this.entries.set(id, { object, view: undefined, isClient: true });
    this.clients++;
    this.apply();
    const { x, y, z } = this.scene.position(id);
    shared.join(id, object, client, x, y, z);
  }

  /** Tells the shared views (if any) where a registered entity stands. */
  private enterShared(id: number, object: Schema): void {
    if (this.shared === undefined) return;
    const { x, y, z } = this.scene.position(id);
    this.shared.entered(id, object, x, y, z);
  }

  /** Validates a shared-view setting; undefined for null (a view per client). */
  private sharedViewsFor(options: SharedViewOptions | null): SharedViews | undefined {
    if (options === null) return undefined;
    checkSharedViewOptions(options);
    if (!this.seeSelf) throw new SpatialError('INVALID_ARGUMENT', 'shared views always hold each client\'s own entity: seeSelf false does not apply');
    const { scene } = this;
    return new SharedViews(options.cell, scene.defaultRange, scene.dimensions === 3, scene);
  }

  private checkFresh(id: number): void {
    if (this.entries.has(id)) throw new SpatialError('DUPLICATE_ID', `entity ${String(id)} is already registered`);
  }

  private entry(id: number): Entry {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new SpatialError('UNKNOWN_ID', `no entity ${String(id)}`);
    return entry;
  }

  /** Adds id to the scene (the Scene validates id, coordinates and range before changing anything). */
  private place(id: number, at: InterestPlacement, range: AoiRange | undefined): void {
    if (at === null || typeof at !== 'object') throw new SpatialError('INVALID_ARGUMENT', `entity ${String(id)} needs a placement {x, y}`);
    checkOptions(`placement of entity ${String(id)}`, at, PLACEMENT_KEYS);
    if (this.scene.dimensions === 3) this.scene.add3(id, at.x, at.y, at.z as number, range);
    else this.scene.add(id, at.x, at.y, range);
  }

  /**
   * Turns the scene's pending enters and leaves into view changes and queued
   * NPC sights. Only each pair's net change counts: a target that leaves and
   * comes back within one update stays in the view instead of being deleted
   * and sent again whole. It calls no hook, so nothing changes the scene or
   * the views while it runs.
   */
  private apply(): void {
    const events = this.scene.drainArray();
    const net = this.net;
    for (let i = 0; i < events.length; i += 3) {
      const type = events[i];
      if (type !== ENTER && type !== LEAVE) continue;
      const watcher = events[i + 1];
      let targets = net.get(watcher);
      if (targets === undefined) net.set(watcher, (targets = new Map()));
      const target = events[i + 2];
      targets.set(target, (targets.get(target) ?? 0) + (type === ENTER ? 1 : -1));
    }
    for (const [watcher, targets] of net) {
      const view = (this.entries.get(watcher) as Entry).view;
      for (const [target, change] of targets) {
        if (change === 0) continue;
        if (view === undefined) this.sights?.push(change > 0 ? ENTER : LEAVE, watcher, target);
        else if (change > 0) view.add((this.entries.get(target) as Entry).object);
        else view.remove((this.entries.get(target) as Entry).object);
      }
    }
    net.clear();
  }

  private growStaging(): void {
    const size = this.stagedIds.length * 2;
    const grow = <T extends Int32Array | Float64Array>(old: T, fresh: T): T => {
      fresh.set(old);
      return fresh;
    };
    this.stagedIds = grow(this.stagedIds, new Int32Array(size));
    this.stagedXs = grow(this.stagedXs, new Float64Array(size));
    this.stagedYs = grow(this.stagedYs, new Float64Array(size));
    this.stagedZs = grow(this.stagedZs, new Float64Array(size));
  }
}

/** Throws INVALID_ARGUMENT unless object is a Schema instance placed in a room state (StateView refuses detached ones). */
function checkAttached(id: number, object: Schema): void {
  const tree = (object as unknown as Record<symbol, { parent?: unknown } | undefined> | null)?.[$changes];
  if (tree === undefined || tree === null) {
    throw new SpatialError('INVALID_ARGUMENT', `object of entity ${String(id)} is not a Schema instance`);
  }
  if (tree.parent === undefined && (object as unknown as Record<symbol, unknown>)[$refId] !== 0) {
    throw new SpatialError('INVALID_ARGUMENT', `object of entity ${String(id)} is not in the room state yet: assign it to the state before registering it`);
  }
}
