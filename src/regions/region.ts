// One region of a world cut into regions: a Scene of the entities it owns
// plus ghosts of its neighbours' entities within the band, and the four
// phases of a tick that keep it in step with its neighbours. The phases run
// in every region before the next phase starts anywhere (a transport's
// barrier, or RegionWorld in one process), in the order tick.ts writes once:
//
//   1. handOff      entities whose tick ends in another region leave, with
//                   what they see; here they become ghosts
//   2. receive      entities handed in arrive, at their start-of-tick place,
//                   seeing what they saw (after a teleport, ghosts of what
//                   they saw come along, and the owners learn it)
//   3. ghostBatches one batch per neighbour: the tick's operations of every
//                   owned entity in (or leaving) that neighbour's band
//   4. step         own and ghost operations applied entity by entity in
//                   ascending id; the drain is the tick's events
//
// Ascending id is the world's order of operations within a tick, so every
// region replays, for the entities it holds, the sequence a single Scene of
// the whole world would, and its events for owned watchers are that Scene's,
// pair for pair, margins included. The events are each pair's net change
// over the tick (a Scene's 'net' mode): a watcher that teleports into a
// region arrives without the entities around its old place, so the order
// of what it saw there within the tick is not known, only its outcome.
// Ghosts are markers (they watch nothing), so each watcher's events come
// from its owner alone.
import { checkOptions } from '../core/validate.js';
import { Scene, type SceneIndex, type Backend } from '../scene/index.js';
import { checkLayout, type RegionLayout, type RegionRect, type WorldBounds } from './layout.js';
import type { RegionCheckpoint } from './checkpoint.js';
import { MoveRun } from './move-run.js';
import { MOVE_REF, OpColumns } from './op-columns.js';
import { ReceivedGhosts } from './received-ghosts.js';
import type { EntityOp, EntityState, GhostBatch, GhostOp, GhostRecord, Handoff } from './messages.js';

/** Options of a {@link Region}'s Scene. */
export interface RegionOptions {
  /** The Scene backend: 'wasm' (default, needs init()) or 'js'. */
  backend?: Backend;
  /** The Scene index: 'lists' or 'grid'. */
  index?: SceneIndex;
  /** The grid index's cell side (see SceneOptions.cellSize); default: the layout's maxRange. */
  cellSize?: number;
  /** false: no move events (default true). */
  moveEvents?: boolean;
}

/** The keys of {@link RegionOptions}. */
export const REGION_OPTION_KEYS = ['backend', 'index', 'cellSize', 'moveEvents'] as const;

/**
 * An owned entity's state, as at the start of the tick, but for its place:
 * the Scene holds that (until the step, where the tick started).
 */
interface Owned extends Omit<EntityState, 'x' | 'y'> {
  /** The other regions holding a ghost of it. */
  holders: Set<number>;
}

/** A ghost held here: the layer it is on and the region that owns it. */
interface Ghost {
  layer: number;
  owner: number;
}

/** Where an entity's operations of this tick leave it: alive or not, and where. */
interface Outcome {
  alive: boolean;
  x: number;
  y: number;
  /** True when its operations are moves alone: it is owned here, and stays alive. */
  movesOnly: boolean;
}

/** One region: its own entities, its ghosts, and the phases of a tick (see the file comment). */
export class Region {
  /** This region's id in the layout. */
  readonly id: number;
  /** This region's rectangle. */
  readonly rect: RegionRect;
  /** The part of the rectangle farther inside than the band: no other region holds a ghost of an entity there. */
  private readonly deep: WorldBounds;
  private scene: Scene;
  private readonly owned = new Map<number, Owned>();
  /**
   * Owned entities that may have holders: every one that has (and some
   * whose holders have emptied since), so that the ghost batches read the
   * holders of these alone, not of every entity that moves.
   */
  private readonly mayBeHeld = new Set<number>();
  /**
   * Ghosts held here, by id. Each one's owner is kept from the ghost
   * batches, hand-off records and hand-offs every region hears, so that the
   * ghosts of a region lost with its process can be dropped.
   */
  private readonly ghosts = new Map<number, Ghost>();
  /** The current tick's operations on entities this region owns or will own. */
  private readonly ops = new OpColumns();
  /** Where the entity of the last {@link outcome} ends: one record, refilled for each entity. */
  private readonly end: Outcome = { alive: false, x: 0, y: 0, movesOnly: false };
  /** The ghost operations received for a step: sender, entity and operations, by entity ascending once sorted. */
  private readonly received = new ReceivedGhosts();
  /** The groups ghostBatches looks at (see {@link groupsNearNeighbours}), kept for the next tick. */
  private readonly nearby: number[] = [];
  /** Holders of entities added this tick and not yet in `owned`. */
  private readonly newHolders = new Map<number, Set<number>>();
  private tickCount = 0;
  /** Consecutive moves of the merged sequence, applied as one Scene.moveMany (the same events as one move after another). */
  private readonly moves = new MoveRun();

  /**
   * An empty region of layout: region id's rectangle, its Scene made with
   * options. INVALID_LAYOUT when layout is not a RegionLayout, UNKNOWN_ID
   * when it has no region id, and what the Scene constructor throws
   * (INVALID_ARGUMENT for options that are not a plain object or have an
   * unknown key).
   */
  constructor(
    /** The layout this region is part of. */
    readonly layout: RegionLayout,
    id: number,
    options: RegionOptions = {},
  ) {
    checkLayout(layout);
    checkOptions('Region', options, REGION_OPTION_KEYS);
    this.rect = layout.rect(id);
    const { minX, minY, maxX, maxY } = this.rect;
    const band = layout.band;
    this.deep = { minX: minX + band, minY: minY + band, maxX: maxX - band, maxY: maxY - band };
    this.id = id;
    const cellSize = options.cellSize ?? (layout.maxRange > 0 ? layout.maxRange : undefined);
    this.scene = new Scene({ ...options, cellSize, dimensions: 2, events: 'net' });
  }

  /**
   * The region rebuilt from a checkpoint of layout's region `cp.region`,
   * its Scene on options' backend: at the start of tick `cp.tick`, with the
   * operations submitted for it, so that the tick runs again as it ran, or
   * would have run, where the checkpoint was taken.
   */
  static restore(layout: RegionLayout, cp: Omit<RegionCheckpoint, 'epoch' | 'extra'>, options: RegionOptions = {}): Region {
    const region = new Region(layout, cp.region, options);
    region.scene.dispose();
    region.scene = Scene.fromBuffer(cp.scene, { backend: options.backend });
    for (const { id, holders, range, margin, layer, sees } of cp.owned) region.own(id, { range, margin, layer, sees, holders: new Set(holders) });
    for (const g of cp.ghosts) region.ghosts.set(g.id, { layer: g.layer, owner: g.owner });
    for (const [id, ops] of cp.ops) for (const op of ops) region.ops.push(id, op);
    region.tickCount = cp.tick;
    return region;
  }

  /** What {@link restore} needs to rebuild this region as it stands now, between two ticks. */
  checkpoint(): Omit<RegionCheckpoint, 'epoch' | 'extra'> {
    const owned = [...this.owned].sort((a, b) => a[0] - b[0]).map(([id, o]) => ({ id, ...this.stateOf(id, o), holders: [...o.holders] }));
    const ghosts = [...this.ghosts].sort((a, b) => a[0] - b[0]).map(([id, g]) => ({ id, layer: g.layer, owner: g.owner }));
    return { region: this.id, tick: this.tickCount, scene: this.scene.toBuffer(), owned, ghosts, ops: this.pendingOps() };
  }

  /** The operations submitted for the next tick so far, by entity in ascending id, each entity's in order. */
  pendingOps(): Array<[number, EntityOp[]]> {
    return this.ops.entities();
  }

  /** Ticks completed. */
  get ticks(): number {
    return this.tickCount;
  }

  /** Number of entities this region owns. */
  get ownedCount(): number {
    return this.owned.size;
  }

  /** Number of ghosts this region holds. */
  get ghostCount(): number {
    return this.ghosts.size;
  }

  /** True when this region owns entity id. */
  owns(id: number): boolean {
    return this.owned.has(id);
  }

  /** True when this region holds a ghost of entity id: another region owns it. */
  holdsGhost(id: number): boolean {
    return this.ghosts.has(id) && !this.owned.has(id);
  }

  /** The ids this region owns, ascending. */
  ownedIds(): number[] {
    return [...this.owned.keys()].sort((a, b) => a - b);
  }

  /** The ids of the ghosts this region holds, ascending. */
  ghostIds(): number[] {
    return [...this.ghosts.keys()].sort((a, b) => a - b);
  }

  /** Where entity id (owned or a ghost) stands now; UNKNOWN_ID when this region holds no such entity. */
  position(id: number): { x: number; y: number } {
    const { x, y } = this.scene.position(id);
    return { x, y };
  }

  /** What owned entity id sees now, ascending (ghosts included). */
  query(id: number): number[] {
    return this.scene.query(id);
  }

  /** The entities (owned and ghosts) inside the box, closed on every side, ascending. */
  queryBox(minX: number, minY: number, maxX: number, maxY: number): number[] {
    return this.scene.queryBox(minX, minY, maxX, maxY);
  }

  /**
   * Queues an operation of the current tick on entity id, which this region
   * owns (or, for an add, which lies in it or which this region removed in
   * this tick). The caller has checked it, as RegionWorld does.
   */
  submit(id: number, op: EntityOp): void {
    this.ops.push(id, op);
  }

  /** Queues a move of the current tick, as {@link submit} does, with no object made for it. */
  submitMove(id: number, x: number, y: number): void {
    this.ops.pushMove(id, x, y);
  }

  /** Phase 1: the hand-offs of the entities whose tick ends in another region; each becomes a ghost here. */
  handOff(): Handoff[] {
    const out: Handoff[] = [];
    const { ops, end, rect } = this;
    ops.group();
    for (let g = 0; g < ops.groups; g++) {
      // A lone move that ends inside the rectangle (its far edges aside) stays.
      const move = ops.singleMove(g);
      if (move >= 0 && ops.xs[move] >= rect.minX && ops.xs[move] < rect.maxX && ops.ys[move] >= rect.minY && ops.ys[move] < rect.maxY) continue;
      const id = ops.groupIds[g];
      this.outcome(g);
      if (!end.alive || this.layout.contains(this.id, end.x, end.y)) continue;
      const to = this.layout.regionAt(end.x, end.y);
      const o = this.owned.get(id);
      const holders = o === undefined ? new Set<number>() : new Set(o.holders).add(this.id);
      holders.delete(to);
      const seen = o === undefined ? [] : this.scene.query(id).map((t) => this.record(t));
      out.push({
        id,
        from: this.id,
        to,
        tick: this.tickCount,
        state: o === undefined ? null : this.stateOf(id, o),
        seen,
        far: seen.filter((t) => !this.layout.inBand(to, t.x, t.y)).map((t) => t.id),
        holders: [...holders],
        ops: ops.opsOf(g),
      });
      ops.dropGroup(g);
    }
    for (const h of out) {
      const o = this.owned.get(h.id);
      if (o === undefined) continue;
      this.scene.setRange(h.id, null);
      this.owned.delete(h.id);
      this.mayBeHeld.delete(h.id);
      this.ghosts.set(h.id, { layer: o.layer, owner: h.to });
    }
    return out;
  }

  /**
   * Phase 2: takes the hand-offs addressed to this region. Each entity
   * arrives where its tick started, sees again what it saw, and gets its
   * operations of the tick. The events this makes (and those of phase 1)
   * restate what is already known and are dropped. Hand-offs addressed
   * elsewhere count only for their `far` ids that this region owns: their
   * new owner holds ghosts of them now.
   */
  receive(handoffs: ReadonlyArray<Handoff>): void {
    const mine = handoffs.filter((h) => h.to === this.id).sort((a, b) => a.id - b.id);
    // A hand-off's operations are its entity's whole tick: they replace any routed here (by a router that had not seen the entity's removal elsewhere).
    for (const h of mine) this.ops.dropEntity(h.id);
    for (const h of mine) {
      for (const op of h.ops) this.ops.push(h.id, op);
      if (h.state === null) {
        this.newHolders.set(h.id, new Set(h.holders));
        continue;
      }
      const s = h.state;
      if (this.scene.has(h.id)) {
        this.scene.setLayers(h.id, s.layer, s.sees);
        this.scene.setRange(h.id, s.range, { margin: s.margin });
        this.ghosts.delete(h.id);
      } else {
        this.scene.add(h.id, s.x, s.y, s.range, { layer: s.layer, sees: s.sees, margin: s.margin });
      }
      this.own(h.id, { range: s.range, margin: s.margin, layer: s.layer, sees: s.sees, holders: new Set(h.holders) });
    }
    for (const h of mine) {
      for (const t of h.seen) {
        if (!this.scene.has(t.id)) {
          this.scene.add(t.id, t.x, t.y, null, { layer: t.layer });
          this.ghosts.set(t.id, { layer: t.layer, owner: t.owner });
        }
        this.scene.hold(h.id, t.id);
      }
    }
    for (const h of handoffs) {
      for (const id of h.far) {
        if (h.to === this.id || !this.owned.has(id)) continue;
        this.owned.get(id)!.holders.add(h.to);
        this.mayBeHeld.add(id);
      }
      const ghost = this.ghosts.get(h.id);
      if (ghost !== undefined) ghost.owner = h.to;
    }
    this.scene.drainArray();
  }

  /**
   * Phase 3: one batch for every neighbour (empty ones too, so a neighbour
   * waiting for each knows the tick is whole), plus one for any other region
   * still holding a ghost of an entity that teleported away.
   */
  ghostBatches(): GhostBatch[] {
    const batches = new Map<number, GhostBatch>();
    const batchFor = (to: number): GhostBatch => {
      let b = batches.get(to);
      if (b === undefined) batches.set(to, (b = { from: this.id, to, tick: this.tickCount, entities: [] }));
      return b;
    };
    const neighbours = this.layout.neighbours(this.id);
    for (const n of neighbours) batchFor(n);
    const { ops, end } = this;
    ops.group();
    for (const g of this.groupsNearNeighbours()) {
      const id = ops.groupIds[g];
      this.outcome(g);
      // An entity that only moves and has no holders is sent to no one unless it ends in a neighbour's band.
      if (end.movesOnly && !this.mayBeHeld.has(id) && !this.wantedByNeighbour(neighbours, end)) continue;
      const holders = this.holdersOf(id);
      if (holders.size === 0 && !(end.alive && this.wantedByNeighbour(neighbours, end))) continue;
      // The neighbours, then the other regions holding a ghost of it (after a teleport).
      for (const n of neighbours) this.sendGhost(g, n, holders, batchFor);
      for (const n of holders) if (!neighbours.includes(n)) this.sendGhost(g, n, holders, batchFor);
      if (holders.size > 0) this.mayBeHeld.add(id);
      else this.mayBeHeld.delete(id);
    }
    return [...batches.values()];
  }

  /**
   * Phase 4: applies this region's operations and the ghost batches
   * addressed to it, entity by entity in ascending id, and returns the
   * tick's events (flat
   * [type, watcher, target, ...], as Scene.drainArray in 'net' mode): each
   * pair's change over the tick, for every watcher this region owned.
   */
  step(batches: ReadonlyArray<GhostBatch>): Int32Array {
    this.received.take(this.id, batches);
    this.apply(true);
    this.ops.clear();
    this.newHolders.clear();
    this.tickCount++;
    return this.scene.drainArray();
  }

  /**
   * Applies ghost batches of the previous tick alone, in ascending id, and
   * returns the events they make: a region that runs without the ghost
   * barrier calls this at the start of a tick (before phase 1), so that its
   * ghosts stand where they stood at the end of the previous tick, one tick
   * behind their owners.
   */
  applyLate(batches: ReadonlyArray<GhostBatch>): Int32Array {
    this.received.take(this.id, batches);
    this.apply(false);
    return this.scene.drainArray();
  }

  /**
   * Removes every ghost owned by one of regions (regions lost with their
   * processes, and the entities handed to them): the watchers that saw them
   * see them leave at the next step.
   */
  dropGhostsOf(regions: ReadonlySet<number>): void {
    for (const [id, ghost] of this.ghosts) {
      if (!regions.has(ghost.owner)) continue;
      this.scene.remove(id);
      this.ghosts.delete(id);
    }
  }

  /** Frees the region's Scene. */
  dispose(): void {
    this.scene.dispose();
  }

  /**
   * Applies the received ghost operations, and with `own` this region's
   * operations, entity by entity in ascending id; an entity with operations
   * of its own here takes those.
   */
  private apply(own: boolean): void {
    const { ops, received } = this;
    if (own) ops.group();
    const groups = own ? ops.groups : 0;
    let g = 0;
    let k = 0;
    while (g < groups || k < received.count) {
      const ownId = g < groups ? ops.groupIds[g] : Infinity;
      const ghostId = k < received.count ? received.idAt(k) : Infinity;
      if (ownId <= ghostId) {
        if (ghostId === ownId) k++;
        const move = ops.singleMove(g);
        if (move >= 0) this.moves.push(ownId, ops.xs[move], ops.ys[move]);
        else this.applyOwnGroup(g);
        g++;
        continue;
      }
      const from = received.fromAt(k);
      for (const op of received.opsAt(k++)) {
        if (op.kind === 'move') this.moves.push(ghostId, op.x, op.y);
        else {
          this.moves.flush(this.scene);
          this.applyGhost(ghostId, op, from);
        }
      }
    }
    this.moves.flush(this.scene);
  }

  /** Applies entity g's own operations, its moves gathered into the run. */
  private applyOwnGroup(g: number): void {
    const { ids, xs, ys, refs, others, order, starts } = this.ops;
    for (let k = starts[g]; k < starts[g + 1]; k++) {
      const row = order[k];
      const ref = refs[row];
      if (ref === MOVE_REF) this.moves.push(ids[row], xs[row], ys[row]);
      else {
        this.moves.flush(this.scene);
        this.applyOwn(ids[row], others[ref] as Exclude<EntityOp, { kind: 'move' }>);
      }
    }
  }

  /**
   * Where entity g's operations of this tick leave it, into `this.end`. A
   * move or an add places it; an entity that has neither stays where the
   * Scene holds it, alive when this region owns it.
   */
  private outcome(g: number): void {
    const { ids, xs, ys, refs, others, order, starts } = this.ops;
    const end = this.end;
    let placed = false;
    let movesOnly = true;
    // A move is only ever routed to a live entity: after it, the entity is alive.
    let alive: boolean | null = null;
    for (let k = starts[g]; k < starts[g + 1]; k++) {
      const row = order[k];
      const ref = refs[row];
      if (ref === MOVE_REF) {
        end.x = xs[row];
        end.y = ys[row];
        alive = placed = true;
        continue;
      }
      movesOnly = false;
      const op = others[ref];
      if (op.kind === 'remove') alive = false;
      else if (op.kind === 'add') {
        end.x = op.x;
        end.y = op.y;
        alive = placed = true;
      }
    }
    end.movesOnly = movesOnly;
    const id = ids[order[starts[g]]];
    end.alive = alive ?? this.owned.has(id);
    if (end.alive && !placed) {
      const { x, y } = this.scene.position(id);
      end.x = x;
      end.y = y;
    }
  }

  /**
   * Adds entity g's ghost operations for region n, if any, to n's batch, and
   * n to its holders when n should hold its ghost once the tick is over (or
   * drops n from them); `this.end` holds the entity's outcome.
   */
  private sendGhost(g: number, n: number, holders: Set<number>, batchFor: (to: number) => GhostBatch): void {
    const end = this.end;
    const wanted = end.alive && this.layout.inBand(n, end.x, end.y);
    // A neighbour that neither holds a ghost nor should hold one hears nothing: whatever passes outside its band cannot change what its watchers see.
    if ((!wanted && !holders.has(n)) || n === this.id) return;
    const ghostOps = this.ghostOps(g, holders.has(n), wanted);
    if (wanted) holders.add(n);
    else holders.delete(n);
    if (ghostOps.length > 0) batchFor(n).entities.push({ id: this.ops.groupIds[g], ops: ghostOps });
  }

  /**
   * The groups ghostBatches must look at, ascending: all but the lone moves
   * that end deep inside, where no neighbour wants them, unless a region
   * holds a ghost of theirs (which must hear it go). Those few are found
   * from the held entities, so the many that walk deep inside cost a test
   * each and no lookup.
   */
  private groupsNearNeighbours(): number[] {
    const { ops, nearby } = this;
    nearby.length = 0;
    for (let g = 0; g < ops.groups; g++) {
      const move = ops.singleMove(g);
      if (move < 0 || !this.isDeep(ops.xs[move], ops.ys[move])) nearby.push(g);
    }
    const near = nearby.length;
    for (const id of this.mayBeHeld) {
      const g = ops.find(id);
      const move = g < 0 ? -1 : ops.singleMove(g);
      if (move >= 0 && this.isDeep(ops.xs[move], ops.ys[move])) nearby.push(g);
    }
    if (nearby.length > near) nearby.sort((a, b) => a - b);
    return nearby;
  }

  /** True when (x, y) lies deep inside this region (as RegionLayout.deepInside). */
  private isDeep(x: number, y: number): boolean {
    const d = this.deep;
    return x > d.minX && x < d.maxX && y > d.minY && y < d.maxY;
  }

  /** True when a neighbour's band holds (x, y) (false at once deep inside this region, where none does). */
  private wantedByNeighbour(neighbours: ReadonlyArray<number>, { x, y }: Outcome): boolean {
    if (neighbours.length === 0 || this.isDeep(x, y)) return false;
    for (const n of neighbours) if (this.layout.inBand(n, x, y)) return true;
    return false;
  }

  /**
   * Entity g's operations as a neighbour's ghost sees them, given whether
   * that neighbour holds a ghost of it now (`present`) and should once the
   * tick is over (`wanted`); `this.end` holds the entity's outcome.
   */
  private ghostOps(g: number, present: boolean, wanted: boolean): GhostOp[] {
    const { ids, xs, ys, refs, others, order, starts } = this.ops;
    const out: GhostOp[] = [];
    let layer = this.owned.get(ids[order[starts[g]]])?.layer ?? 0;
    for (let k = starts[g]; k < starts[g + 1]; k++) {
      const row = order[k];
      const ref = refs[row];
      if (ref === MOVE_REF) {
        out.push(present ? { kind: 'move', x: xs[row], y: ys[row] } : { kind: 'add', x: xs[row], y: ys[row], layer });
        present = true;
        continue;
      }
      const op = others[ref];
      switch (op.kind) {
        case 'add':
          layer = op.layer;
          out.push({ kind: 'add', x: op.x, y: op.y, layer });
          present = true;
          break;
        case 'layers':
          layer = op.layer;
          if (present) out.push({ kind: 'layer', layer });
          break;
        case 'remove':
          if (present) out.push({ kind: 'remove' });
          present = false;
          break;
        default:
          break;
      }
    }
    if (present && !wanted) out.push({ kind: 'remove' });
    if (!present && wanted) out.push({ kind: 'add', x: this.end.x, y: this.end.y, layer });
    return out;
  }

  private applyOwn(id: number, op: Exclude<EntityOp, { kind: 'move' }>): void {
    switch (op.kind) {
      case 'add': {
        this.scene.add(id, op.x, op.y, op.range, { layer: op.layer, sees: op.sees, margin: op.margin });
        const holders = this.newHolders.get(id) ?? this.owned.get(id)?.holders ?? new Set<number>();
        this.own(id, { range: op.range, margin: op.margin, layer: op.layer, sees: op.sees, holders });
        break;
      }
      case 'range': {
        const o = this.owned.get(id)!;
        const margin = op.margin ?? o.margin;
        this.scene.setRange(id, op.range, { margin });
        o.range = op.range;
        o.margin = margin;
        break;
      }
      case 'layers': {
        const o = this.owned.get(id)!;
        this.scene.setLayers(id, op.layer, op.sees);
        o.layer = op.layer;
        o.sees = op.sees;
        break;
      }
      case 'remove': {
        // Its holders stay known until the tick ends: a re-add in the same tick keeps them.
        const o = this.owned.get(id)!;
        this.scene.remove(id);
        this.owned.delete(id);
        this.mayBeHeld.delete(id);
        this.newHolders.set(id, o.holders);
        break;
      }
    }
  }

  /** Applies a ghost operation sent by region `from`, the entity's owner. */
  private applyGhost(id: number, op: Exclude<GhostOp, { kind: 'move' }>, from: number): void {
    switch (op.kind) {
      case 'add':
        if (this.scene.has(id)) {
          this.scene.move(id, op.x, op.y);
          if (this.ghosts.get(id)?.layer !== op.layer) this.scene.setLayers(id, op.layer, -1);
        } else {
          this.scene.add(id, op.x, op.y, null, { layer: op.layer });
        }
        this.ghosts.set(id, { layer: op.layer, owner: from });
        break;
      case 'layer':
        this.scene.setLayers(id, op.layer, -1);
        this.ghosts.set(id, { layer: op.layer, owner: from });
        break;
      case 'remove':
        this.scene.remove(id);
        this.ghosts.delete(id);
        break;
    }
  }

  /** The other regions holding a ghost of entity id (owned, or added in this tick). */
  private holdersOf(id: number): Set<number> {
    const o = this.owned.get(id);
    if (o !== undefined) return o.holders;
    let h = this.newHolders.get(id);
    if (h === undefined) this.newHolders.set(id, (h = new Set()));
    return h;
  }

  /** Makes entity id owned here, with its state. */
  private own(id: number, o: Owned): void {
    this.owned.set(id, o);
    if (o.holders.size > 0) this.mayBeHeld.add(id);
  }

  /** Owned entity id's state as at the start of the tick: its place is the Scene's until the step. */
  private stateOf(id: number, o: Owned): EntityState {
    const { x, y } = this.scene.position(id);
    return { x, y, range: o.range, margin: o.margin, layer: o.layer, sees: o.sees };
  }

  /** Entity id (owned or a ghost) as a neighbour needs to see it. */
  private record(id: number): GhostRecord {
    const { x, y } = this.scene.position(id);
    const o = this.owned.get(id);
    if (o !== undefined) return { id, owner: this.id, x, y, layer: o.layer };
    const { layer, owner } = this.ghosts.get(id)!;
    return { id, owner, x, y, layer };
  }
}
