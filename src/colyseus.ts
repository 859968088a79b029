// spatialkit/colyseus: a Scene decides who sees whom, and every enter or
// leave becomes a view.add or view.remove on the watcher's Colyseus StateView.
// This entry imports the main entry ('./index.js', which the bundle keeps as
// the external 'spatialkit'), so both share one Scene class, one wasm module
// and one SpatialError.
import { $changes, $refId, type Schema, type StateView } from '@colyseus/schema';
import { SpatialError, type AoiRange, type Scene } from './index.js';
import { checkOptions } from './core/validate.js';

const INTEREST_OPTION_KEYS = ['onNpcSight', 'seeSelf'];
const PLACEMENT_KEYS = ['x', 'y', 'z', 'range'];

/** The part of a Colyseus client the adapter uses: its StateView, set before the client is registered. */
export interface InterestClient {
  view?: StateView;
}

/** Where an entity stands and how far it sees. */
export interface InterestPlacement {
  x: number;
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

/** What an NPC watcher starts or stops seeing. */
export type NpcSight = (type: 'enter' | 'leave', watcher: number, target: number) => void;

export interface InterestOptions {
  /** Called for every enter and leave whose watcher is an NPC (clients' views are updated instead). */
  onNpcSight?: NpcSight;
  /** Whether each client's view holds its own entity (default true). */
  seeSelf?: boolean;
}

interface Entry {
  readonly object: Schema;
  /** The watcher's client view; undefined for NPCs. */
  readonly view: StateView | undefined;
}

const ENTER = 0;
const LEAVE = 1;

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
 * entity sees in the Scene.
 *
 * The adapter owns the scene's events: do not drain the scene elsewhere.
 * Rejected calls throw {@link SpatialError} and change nothing.
 */
export class Interest {
  /** The Scene holding every registered entity (read it freely; change it only through this adapter). */
  readonly scene: Scene;
  private readonly entries = new Map<number, Entry>();
  private readonly onNpcSight: NpcSight | undefined;
  private readonly seeSelf: boolean;
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
    this.onNpcSight = options.onNpcSight;
    this.seeSelf = options.seeSelf ?? true;
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
   * `seeSelf` is false) and everything the entity sees.
   * Throws DUPLICATE_ID, INVALID_ARGUMENT (no view, object not a Schema in the
   * state), or the Scene's errors for bad ids, coordinates and ranges.
   */
  addClient(id: number, client: InterestClient, object: Schema, at: InterestPlacement): void {
    this.checkFresh(id);
    const view = client?.view;
    if (view === undefined || view === null || typeof view.add !== 'function' || typeof view.remove !== 'function') {
      throw new SpatialError('INVALID_ARGUMENT', `client of entity ${id} has no StateView: set client.view = new StateView() first`);
    }
    checkAttached(id, object);
    this.place(id, at, at?.range);
    this.entries.set(id, { object, view });
    if (this.seeSelf) view.add(object);
    this.apply();
  }

  /**
   * Registers an NPC: `object` (already in the room state) placed at `at`. With
   * no range (or null) it is a marker; with a range it watches, and what it
   * starts and stops seeing goes to `onNpcSight`.
   * Throws DUPLICATE_ID, INVALID_ARGUMENT (object not a Schema in the state),
   * or the Scene's errors for bad ids, coordinates and ranges.
   */
  addNpc(id: number, object: Schema, at: InterestPlacement): void {
    this.checkFresh(id);
    checkAttached(id, object);
    this.place(id, at, at?.range ?? null);
    this.entries.set(id, { object, view: undefined });
    this.apply();
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

  /** Applies every staged move in one `moveMany`, then the views' adds and removes it causes. */
  update(): void {
    if (this.staged === 0) return;
    const n = this.staged;
    const zs = this.scene.dimensions === 3 ? this.stagedZs.subarray(0, n) : undefined;
    this.scene.moveMany(this.stagedIds.subarray(0, n), this.stagedXs.subarray(0, n), this.stagedYs.subarray(0, n), zs);
    this.staged = 0;
    this.apply();
  }

  /**
   * Changes what id sees (a client's view follows at once). Throws UNKNOWN_ID
   * or the Scene's range errors.
   */
  setRange(id: number, range: AoiRange): void {
    this.entry(id);
    this.scene.setRange(id, range);
    this.apply();
  }

  /**
   * Unregisters id: every view that held it drops it, and its own view (a
   * client's) is emptied. Staged moves are applied first. Call it before
   * deleting the object from the state. Throws UNKNOWN_ID.
   */
  remove(id: number): void {
    const entry = this.entry(id);
    this.update();
    this.scene.remove(id);
    this.apply();
    this.entries.delete(id);
    if (this.seeSelf && entry.view !== undefined) entry.view.remove(entry.object);
  }

  /** Unregisters every entity as {@link remove} would, leaving the scene empty. */
  clear(): void {
    for (const id of [...this.entries.keys()]) this.remove(id);
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
   * Turns the scene's pending enters and leaves into view changes and NPC
   * sights. Only each pair's net change counts: a target that leaves and comes
   * back within one update stays in the view instead of being deleted and sent
   * again whole.
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
        if (view === undefined) this.onNpcSight?.(change > 0 ? 'enter' : 'leave', watcher, target);
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
