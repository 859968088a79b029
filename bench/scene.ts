// Scene (AOI) workloads: ticks of small moves in an open world and in a
// crowd, teleports, and building from empty. Contenders: the wasm backend
// (moveMany and per-call move), the js backend, and the two ways JS servers
// do AOI without us: an rbush index with visible-set diffing and a
// typed-array uniform grid. Every contender's events are checked equal on a
// small instance before anything is timed.
import { init, Scene, type SceneEventMode, type SceneIndex } from '../src/index.js';
import type { Contender, ContenderKind, Suite, SuiteContext } from './harness.js';
import { compileFloor, FloorScenePeer } from './peers/scene-floor.js';
import { GridScenePeer } from './peers/scene-grid.js';
import type { ScenePeer } from './peers/scene-events.js';
import { RbushScenePeer } from './peers/scene-rbush.js';
import { mulberry32 } from './random.js';

interface World {
  count: number;
  size: number;
  /** Where the world starts on both axes (0 unless it was moved). */
  offset?: number;
  range: number;
  /** Fraction of entities moved per tick. */
  moving: number;
  /** Largest step of a walking move. */
  step: number;
  /** Fraction of a tick's moves that jump anywhere. */
  teleports: number;
  /** Mixed ranges: [share, multiple of range] pairs, shares summing to 1 (default: everyone has `range`). */
  mix?: Array<[number, number]>;
  /** Where entities start: uniform over the world (default) or in towns (Gaussian clusters joined by roads). */
  layout?: 'uniform' | 'towns';
}

/** Towns: share of the entities in clusters (the rest on roads), cluster count, and spread as a share of the world. */
const TOWNS = { share: 0.9, count: 6, sigma: 0.04 };

/** Initial positions for the towns layout: Gaussian clusters, and roads (straight, a little jitter) joining each town to the next. */
function townLayout(world: World, random: () => number, xs: Float64Array, ys: Float64Array): void {
  const offset = world.offset ?? 0;
  const size = world.size;
  const centres = Array.from({ length: TOWNS.count }, () => [size * (0.15 + 0.7 * random()), size * (0.15 + 0.7 * random())]);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const clamp = (v: number): number => offset + Math.min(size, Math.max(0, v));
  for (let i = 0; i < xs.length; i++) {
    const town = Math.floor(random() * TOWNS.count);
    const [cx, cy] = centres[town];
    if (random() < TOWNS.share) {
      xs[i] = clamp(cx + gauss() * TOWNS.sigma * size);
      ys[i] = clamp(cy + gauss() * TOWNS.sigma * size);
    } else {
      const [dx, dy] = centres[(town + 1) % TOWNS.count];
      const t = random();
      xs[i] = clamp(cx + (dx - cx) * t + gauss() * 10);
      ys[i] = clamp(cy + (dy - cy) * t + gauss() * 10);
    }
  }
}

/** Initial positions and an endless, seeded sequence of ticks; every contender gets its own copy. */
class Workload {
  readonly ids: Int32Array;
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly moveIds: Int32Array;
  readonly moveXs: Float64Array;
  readonly moveYs: Float64Array;
  /** Each entity's square half-extent. */
  readonly ranges: Float64Array;
  /** The largest of them. */
  readonly maxRange: number;
  private readonly random: () => number;

  constructor(readonly world: World, seed: number) {
    const random = mulberry32(seed);
    const n = world.count;
    const offset = world.offset ?? 0;
    this.ids = Int32Array.from({ length: n }, (_, i) => i);
    this.xs = Float64Array.from({ length: n }, () => offset + random() * world.size);
    this.ys = Float64Array.from({ length: n }, () => offset + random() * world.size);
    if (world.layout === 'towns') townLayout(world, random, this.xs, this.ys);
    const mix = world.mix ?? [[1, 1]];
    this.ranges = Float64Array.from({ length: n }, () => {
      let pick = random();
      for (const [share, multiple] of mix) {
        if (pick < share) return world.range * multiple;
        pick -= share;
      }
      return world.range * mix[mix.length - 1][1];
    });
    this.maxRange = this.ranges.reduce((a, b) => Math.max(a, b), 0);
    const m = Math.max(1, Math.round(n * world.moving));
    this.moveIds = new Int32Array(m);
    this.moveXs = new Float64Array(m);
    this.moveYs = new Float64Array(m);
    this.random = mulberry32(seed ^ 0x9e3779b9);
  }

  /** Starts where `other` has moved its entities to (a runner kept from a case on the same start ticks on from there). */
  takeOver(other: Workload): void {
    this.xs.set(other.xs);
    this.ys.set(other.ys);
  }

  /** Fills the move arrays with the next tick. */
  nextTick(): void {
    const { world, random } = this;
    const offset = world.offset ?? 0;
    const clamp = (v: number): number => Math.min(offset + world.size, Math.max(offset, v));
    for (let k = 0; k < this.moveIds.length; k++) {
      const id = Math.floor(random() * world.count);
      let x: number;
      let y: number;
      if (random() < world.teleports) {
        x = offset + random() * world.size;
        y = offset + random() * world.size;
      } else {
        const angle = random() * 2 * Math.PI;
        const length = random() * world.step;
        x = clamp(this.xs[id] + Math.cos(angle) * length);
        y = clamp(this.ys[id] + Math.sin(angle) * length);
      }
      this.xs[id] = x;
      this.ys[id] = y;
      this.moveIds[k] = id;
      this.moveXs[k] = x;
      this.moveYs[k] = y;
    }
  }
}

/** A contender as the check and the timing both drive it. */
interface Runner {
  name: string;
  /** Its headline column: the js backend, a library, a hand-written baseline. */
  kind?: ContenderKind;
  build(load: Workload): void;
  tick(load: Workload): Int32Array;
  dispose(): void;
}

/**
 * How a scene contender is built: `addMany`, one `add` per entity, or
 * `addMany` at the layout shifted back by `movedFrom` on both axes and one
 * `moveMany` to where the workload starts (the population migrates without growing).
 */
type SceneBuild = 'addMany' | 'add' | { movedFrom: number };

/**
 * How a tick's events reach the server: drainArray, drainGrouped, drainInto
 * a reused buffer, or drainArray followed by the server's own routing by
 * watcher (a counting sort over its dense ids).
 */
type Drain = 'array' | 'grouped' | 'into' | 'routed';

/** A scene's event options and drain, and what runs on the built scene, untimed (visibility rules). */
interface SceneSetup {
  events?: SceneEventMode;
  moveEvents?: boolean;
  drain?: Drain;
  prepare?: (scene: Scene, load: Workload) => void;
}

/** Routes flat events into per-watcher runs by a counting sort over dense watcher ids 0..count-1, as a server does by hand. */
function routeByWatcher(events: Int32Array, count: number, state: { starts: Int32Array; out: Int32Array }): Int32Array {
  if (state.starts.length < count + 1) state.starts = new Int32Array(count + 1);
  if (state.out.length < events.length) state.out = new Int32Array(events.length * 2);
  const starts = state.starts;
  starts.fill(0, 0, count + 1);
  for (let i = 1; i < events.length; i += 3) starts[events[i] + 1] += 3;
  for (let w = 0; w < count; w++) starts[w + 1] += starts[w];
  const out = state.out;
  for (let i = 0; i < events.length; i += 3) {
    const at = starts[events[i + 1]];
    out[at] = events[i];
    out[at + 1] = events[i + 1];
    out[at + 2] = events[i + 2];
    starts[events[i + 1]] = at + 3;
  }
  return out.subarray(0, events.length);
}

/** Drains a scene the way `drain` says. */
function drainer(drain: Drain, count: () => number): (scene: Scene) => Int32Array {
  if (drain === 'grouped') return (scene) => scene.drainGrouped().events;
  if (drain === 'into') {
    let buffer = new Int32Array(1024);
    return (scene) => {
      const needed = scene.pendingLength;
      if (needed > buffer.length) buffer = new Int32Array(needed * 2);
      return buffer.subarray(0, scene.drainInto(buffer));
    };
  }
  if (drain === 'routed') {
    const state = { starts: new Int32Array(0), out: new Int32Array(0) };
    return (scene) => routeByWatcher(scene.drainArray(), count(), state);
  }
  return (scene) => scene.drainArray();
}

/** A scene contender; `batch` picks moveMany over one move call per entity. */
function sceneRunner(name: string, backend: 'wasm' | 'js', batch: boolean, how: SceneBuild = 'addMany', index: SceneIndex = 'lists', setup: SceneSetup = {}): Runner {
  let scene: Scene;
  let entities = 0;
  const drain = drainer(setup.drain ?? 'array', () => entities);
  return {
    name,
    kind: backend === 'js' ? 'js' : undefined,
    build(load) {
      entities = load.world.count;
      scene = new Scene({ backend, index, defaultRange: load.world.range, events: setup.events, moveEvents: setup.moveEvents });
      if (how === 'add') {
        for (let i = 0; i < load.ids.length; i++) scene.add(load.ids[i], load.xs[i], load.ys[i], load.ranges[i]);
      } else if (how === 'addMany') {
        scene.addMany(load.ids, load.xs, load.ys, undefined, load.ranges);
      } else {
        scene.addMany(load.ids, load.xs.map((x) => x - how.movedFrom), load.ys.map((y) => y - how.movedFrom), undefined, load.ranges);
        scene.moveMany(load.ids, load.xs, load.ys);
      }
      setup.prepare?.(scene, load);
      scene.drainArray();
    },
    tick(load) {
      if (batch) {
        scene.moveMany(load.moveIds, load.moveXs, load.moveYs);
      } else {
        for (let k = 0; k < load.moveIds.length; k++) scene.move(load.moveIds[k], load.moveXs[k], load.moveYs[k]);
      }
      return drain(scene);
    },
    dispose() {
      scene.dispose();
    },
  };
}

function peerRunner(name: string, kind: ContenderKind, make: (load: Workload) => ScenePeer): Runner {
  let peer: ScenePeer;
  return {
    name,
    kind,
    build(load) {
      peer = make(load);
      peer.addAll(load.ids, load.xs, load.ys);
      peer.drainArray();
    },
    tick(load) {
      for (let k = 0; k < load.moveIds.length; k++) peer.move(load.moveIds[k], load.moveXs[k], load.moveYs[k]);
      return peer.drainArray();
    },
    dispose() {},
  };
}

/**
 * A runner built once and kept: its later builds take its entities over where
 * the last workload left them, so that a case on the same start ticks on from
 * the previous one instead of building again. `release` disposes it.
 */
function kept(runner: Runner): Runner & { release(): void } {
  let last: Workload | null = null;
  return {
    ...runner,
    build(load) {
      if (last === null) runner.build(load);
      else load.takeOver(last);
      last = load;
    },
    dispose() {},
    release: () => runner.dispose(),
  };
}

/** A runner whose tick's events are then routed by watcher with the server's counting sort. */
function routed(runner: Runner): Runner {
  const state = { starts: new Int32Array(0), out: new Int32Array(0) };
  let count = 0;
  return {
    name: `${runner.name} + counting sort by watcher`,
    kind: runner.kind,
    build(load) {
      count = load.world.count;
      runner.build(load);
    },
    tick: (load) => routeByWatcher(runner.tick(load), count, state),
    dispose: () => runner.dispose(),
  };
}

/** The uniform grid peer: cells as wide as the largest range, a range per entity when they differ. */
const gridPeer = (): Runner =>
  peerRunner('uniform grid (typed arrays)', 'hand-written', (load) => {
    const equal = load.world.mix === undefined;
    return new GridScenePeer(load.maxRange, load.world.size, load.world.count, equal ? undefined : load.ranges);
  });

/** rbush and the uniform grid; rbush's diffing assumes one range for all, so it runs on equal ranges only. */
const peers = (mixed = false): Runner[] => [...(mixed ? [] : [peerRunner('rbush + set diffing', 'library', (load) => new RbushScenePeer(load.world.range))]), gridPeer()];

/**
 * The floor: a kernel that only reads the cells under each mover's old and new
 * box and writes the events it finds, one call a tick (bench/peers/scene-floor.ts
 * and assembly/floor.ts say what it leaves out): a lower bound for any
 * index that emits the same events.
 */
function floorRunner(): Runner {
  let floor: FloorScenePeer;
  return {
    name: 'floor (cells read, events written)',
    build(load) {
      // Cells two ranges wide where a range-wide cell would hold fewer than 4 entities (W1), as the grid index picks: the faster of the two there.
      const perCell = (load.world.count * load.world.range ** 2) / load.world.size ** 2;
      floor = new FloorScenePeer(load.world.range, load.world.size, load.world.count, perCell < 4 ? 2 : 1);
      floor.addAll(load.ids, load.xs, load.ys);
      floor.drainArray();
    },
    tick(load) {
      floor.moveMany(load.moveIds, load.moveXs, load.moveYs);
      return floor.drainArray();
    },
    dispose() {},
  };
}

/**
 * Every tick contender: `full` adds the per-call paths and the js backend's
 * lists; `floor` adds the floor; `lists: false` leaves out the wasm lists
 * index, `rbush: false` the rbush peer (its diffing assumes one range for all).
 */
const runners = (full: boolean, { floor = false, lists = true, rbush = true } = {}): Runner[] => [
  sceneRunner('wasm moveMany, grid', 'wasm', true, 'addMany', 'grid'),
  ...(lists ? [sceneRunner('wasm moveMany, lists', 'wasm', true)] : []),
  ...(full ? [sceneRunner('wasm move per call, grid', 'wasm', false, 'addMany', 'grid'), sceneRunner('wasm move per call, lists', 'wasm', false)] : []),
  sceneRunner('js backend moveMany, grid', 'js', true, 'addMany', 'grid'),
  ...(full ? [sceneRunner('js backend moveMany, lists', 'js', true)] : []),
  ...peers(!rbush),
  ...(floor ? [floorRunner()] : []),
];

/** Visibility rules a W1 tick can run under: boxes (the plain tick), circles of the same radius, layer masks or hysteresis margins on everyone. */
const VISIBILITY: Record<string, (scene: Scene, load: Workload) => void> = {
  box: () => {},
  // Every range turned into the circle inscribed in its box.
  circles: (scene, load) => {
    for (let i = 0; i < load.ids.length; i++) scene.setRange(load.ids[i], { radius: load.ranges[i] });
  },
  // Four layers, everyone on one and seeing all but the next: a quarter of the pairs hidden.
  layers: (scene, load) => {
    for (let i = 0; i < load.ids.length; i++) scene.setLayers(load.ids[i], 1 << i % 4, ~(1 << (i + 1) % 4));
  },
  // Every box keeps what it sees until it is a tenth of the range beyond the box.
  margins: (scene, load) => {
    for (let i = 0; i < load.ids.length; i++) scene.setRange(load.ids[i], load.ranges[i], { margin: load.ranges[i] / 10 });
  },
};

/** W1 under each visibility rule, on the wasm indexes; the plain box tick of the same index is the baseline. */
function visibilityCase(context: SuiteContext, world: World, index: SceneIndex, rules: string[]): void {
  const name = (rule: string): string => `wasm moveMany, ${index}, ${rule}`;
  const make = (rule: string): Runner => sceneRunner(name(rule), 'wasm', true, 'addMany', index, { prepare: VISIBILITY[rule] });
  // Each rule's events agree with the js core's under the same rule.
  for (const rule of rules) checkEvents(context, world, [make(rule), sceneRunner(`js ${rule}`, 'js', true, 'addMany', index, { prepare: VISIBILITY[rule] })]);
  const contenders = rules.map((rule) => tickContender(make(rule), world));
  context.bench(`W1 visibility rules (${index} index): ${rules.join(', ')} against the plain box tick`, contenders, {
    opsPerRun: Math.round(world.count * world.moving),
    opName: 'move',
    minSamples: 5,
    baseline: name('box'),
  });
}

/** Events as a sorted list of numbers, so two multisets compare element by element. */
function canonical(events: Int32Array): Float64Array {
  const out = new Float64Array(events.length / 3);
  for (let i = 0, k = 0; i < events.length; i += 3, k++) out[k] = events[i] * 2 ** 42 + events[i + 1] * 2 ** 21 + events[i + 2];
  return out.sort();
}

/** Runs every contender on a small copy of the world and throws unless all events agree. */
function checkEvents(context: SuiteContext, world: World, all: Runner[]): void {
  const small: World = { ...world, count: Math.min(world.count, 3000), size: world.size * Math.sqrt(Math.min(world.count, 3000) / world.count) };
  let reference: Float64Array[] | null = null;
  let events = 0;
  for (const runner of all) {
    const load = new Workload(small, 7);
    runner.build(load);
    const ticks: Float64Array[] = [];
    for (let t = 0; t < 6; t++) {
      load.nextTick();
      ticks.push(canonical(runner.tick(load)));
    }
    runner.dispose();
    if (reference === null) {
      reference = ticks;
      events = ticks.reduce((sum, tick) => sum + tick.length, 0);
      continue;
    }
    ticks.forEach((tick, t) => {
      const want = reference![t];
      if (tick.length !== want.length || tick.some((v, k) => v !== want[k])) {
        throw new Error(`${runner.name} disagrees with ${all[0].name} on tick ${t} (${tick.length} vs ${want.length} events)`);
      }
    });
  }
  context.note(`events checked equal across all ${all.length} contenders: ${small.count} entities, 6 ticks, ${events} events`);
}

/** Times ticks of `world` for each runner (its events checked equal across all of them first). */
interface TickCaseOptions {
  /** The contenders (default: every tick contender of the run's mode). */
  runners?: () => Runner[];
  /** The contender ratios divide by (default: the first). */
  baseline?: string;
  /** A label: the case joins the headline table. */
  headline?: string;
  /** The contenders whose events are checked equal (default: all of them). */
  checked?: () => Runner[];
}

/** A runner timed on ticks of `world`: built in setup, one tick per run. */
function tickContender(runner: Runner, world: World): Contender {
  let load: Workload;
  return {
    name: runner.name,
    kind: runner.kind,
    setup: () => {
      load = new Workload(world, 11);
      runner.build(load);
    },
    prepare: () => load.nextTick(),
    run: () => {
      runner.tick(load);
    },
    teardown: () => runner.dispose(),
  };
}

function tickCase(context: SuiteContext, title: string, world: World, options: TickCaseOptions = {}): void {
  const makeRunners = options.runners ?? (() => runners(context.full, { rbush: world.mix === undefined }));
  checkEvents(context, world, (options.checked ?? makeRunners)());
  const contenders = makeRunners().map((runner) => tickContender(runner, world));
  const moves = Math.round(world.count * world.moving);
  context.bench(title, contenders, { opsPerRun: moves, opName: 'move', minSamples: 5, baseline: options.baseline, headline: options.headline });
}

export const sceneSuite: Suite = {
  name: 'scene',
  title: 'Scene: area of interest ticks, teleports and builds',
  async run(context) {
    await init();
    await compileFloor();
    // Smoke runs keep each world's density with a twentieth of its entities.
    const scale = context.pick({ smoke: 0.05, default: 1, full: 1 });
    const sized = (count: number, size: number) => ({ count: Math.round(count * scale), size: Math.round(size * Math.sqrt(scale)) });
    const w1: World = { ...sized(100_000, 10_000), range: 50, moving: 0.1, step: 5, teleports: 0 };
    const w2: World = { ...sized(10_000, 1_000), range: 50, moving: 0.1, step: 5, teleports: 0 };
    const w3: World = { ...w1, teleports: 0.01 };
    context.note('a tick moves 10% of the entities (random ids) by a random step of up to 5 units, then drains every event; each tick\'s moves are generated before its timed run, outside every contender\'s time');
    // Default runs build W1's scenes and peers once: W3 and the event features' plain tick and peers tick on from where W1 left them.
    const built = new Map<string, ReturnType<typeof kept>>();
    const reuse = (runner: Runner, as = runner.name): Runner => {
      if (context.full) return runner;
      let keep = built.get(as);
      if (keep === undefined) built.set(as, (keep = kept(runner)));
      return { ...keep, name: runner.name };
    };
    const withFloor = (): Runner[] => runners(context.full, { floor: true });
    tickCase(context, 'W1 open world: 100,000 entities in 10,000 x 10,000, range 50, one tick', w1, {
      runners: () => withFloor().map((runner) => reuse(runner)),
      checked: withFloor,
      headline: 'Scene: 100,000 entities in 10,000², range 50, 10% move per tick (grid index)',
    });
    tickCase(context, 'W2 crowd: 10,000 entities in 1,000 x 1,000, range 50, one tick', w2, {
      runners: withFloor,
      headline: 'Scene: crowd of 10,000 in 1,000², range 50, ~100 in view each (grid index)',
    });
    // W3 and W7 time the lists index in full runs only: W1 and W2 compare the two indexes, and its builds of these worlds cost more than its ticks.
    const withoutLists = (): Runner[] => runners(context.full, { lists: context.full });
    tickCase(context, 'W3 teleports: W1 with 1% of moves jumping anywhere, one tick', w3, {
      runners: () => withoutLists().map((runner) => reuse(runner)),
      checked: withoutLists,
      headline: 'Scene: the 100,000-entity tick with 1% of moves jumping anywhere (grid index)',
    });
    // W1's density (about 10 visible each) at W2's size: how the gap to the grid depends on the scene's size.
    if (context.full) tickCase(context, 'W1 small: 10,000 entities in 3,162 x 3,162 (W1 density), range 50, one tick', { ...w1, count: 10_000, size: 3_162 });

    // W5: the W1 population, built three world widths away and moved here in one batch, against one built here.
    const w5: World = { ...w1, offset: 3 * w1.size };
    if (context.full) tickCase(context, 'W5 migration: W1 ticks after the whole population moved three world widths in one batch', w5, { runners: () => [
      sceneRunner('wasm moveMany, grid, scene moved here in one batch', 'wasm', true, { movedFrom: w5.offset! }, 'grid'),
      sceneRunner('wasm moveMany, grid, scene built here', 'wasm', true, 'addMany', 'grid'),
      sceneRunner('wasm moveMany, lists, scene moved here in one batch', 'wasm', true, { movedFrom: w5.offset! }),
      sceneRunner('wasm moveMany, lists, scene built here', 'wasm', true),
    ] });

    // W6: W1 density at 20,000 entities, 90% range R, 9% 3R, 1% 10R (the grid peer's cells are 10R wide).
    const w6: World = { ...w1, ...sized(20_000, 10_000 * Math.sqrt(0.2)), mix: [[0.9, 1], [0.09, 3], [0.01, 10]] };
    tickCase(context, `W6 mixed ranges: 20,000 entities in ${w6.size}², W1 density; 90% range 50, 9% 150, 1% 500; one tick`, w6, {
      baseline: 'wasm moveMany, lists',
      headline: 'Scene: 20,000 entities with mixed ranges (90% 50, 9% 150, 1% 500) (lists index)',
    });
    // W7: W1's count and world, but 90% of the entities in six Gaussian towns and the rest on roads between them.
    const w7: World = { ...w1, layout: 'towns' };
    tickCase(context, `W7 towns: 100,000 entities in 10,000², ${TOWNS.share * 100}% in ${TOWNS.count} Gaussian towns (sigma ${TOWNS.sigma * w1.size}), the rest on roads; range 50, one tick`, w7, {
      // About a hundred visible pairs each: the lists index and rbush, whose build of its visible sets alone takes longer than the rest of the case, in full runs only.
      runners: () => runners(context.full, { lists: context.full, rbush: context.full }),
      headline: 'Scene: 100,000 entities, 90% in six dense towns, range 50 (grid index)',
    });

    // Circles, layer masks and margins on W1 against the plain box tick: full runs only.
    if (context.full) {
      visibilityCase(context, w1, 'grid', ['box', 'circles', 'layers', 'margins']);
      visibilityCase(context, w1, 'lists', ['box', 'circles', 'layers', 'margins']);
    }

    // What the event options cost on the grid index's plain tick (moveMany, drainArray).
    const features = (index: SceneIndex, delivery: boolean): Runner[] => [
      reuse(sceneRunner(`plain tick (${index})`, 'wasm', true, 'addMany', index), `wasm moveMany, ${index}`),
      sceneRunner(`events 'net' (${index})`, 'wasm', true, 'addMany', index, { events: 'net' }),
      sceneRunner(`moveEvents false (${index})`, 'wasm', true, 'addMany', index, { moveEvents: false }),
      ...(delivery ? [...deliveries(index), ...peers().map((peer) => routed(reuse(peer)))] : []),
    ];
    const deliveries = (index: SceneIndex): Runner[] => [
      sceneRunner(`drainGrouped (${index})`, 'wasm', true, 'addMany', index, { drain: 'grouped' }),
      sceneRunner(`drainArray + the server's counting sort by watcher (${index})`, 'wasm', true, 'addMany', index, { drain: 'routed' }),
      sceneRunner(`drainInto a reused buffer (${index})`, 'wasm', true, 'addMany', index, { drain: 'into' }),
    ];
    const checkedFeatures = (index: SceneIndex) => (): Runner[] => [sceneRunner('plain tick', 'wasm', true, 'addMany', index), ...deliveries(index), ...peers().map(routed)];
    context.note("event features: 'net' and moveEvents false report other events by design, so only the plain tick, the three deliveries and the routed peers are checked equal (as multisets)");
    tickCase(context, 'W1 event features: the W1 tick in net mode, without move events, and delivered grouped by watcher, against the peers with their own routing by watcher', w1, {
      runners: () => features('grid', true),
      checked: checkedFeatures('grid'),
      headline: 'Scene: the 100,000-entity tick, drained flat, against peers that route events by watcher (grid index)',
    });
    if (context.full) {
      tickCase(context, 'W2 event features: the W2 crowd tick in net mode, without move events, and delivered grouped by watcher, against the peers with their own routing by watcher', w2, {
        runners: () => features('grid', true),
        checked: checkedFeatures('grid'),
      });
      tickCase(context, 'W1 event features, lists index', w1, { runners: () => features('lists', false), checked: checkedFeatures('lists') });
    }

    for (const runner of built.values()) runner.release();

    const build = new Workload(w1, 3);
    const building = (runner: Runner): Contender => ({
      name: runner.name,
      kind: runner.kind,
      run: () => {
        runner.build(build);
        runner.dispose();
      },
    });
    context.bench(
      'W4 build: add 100,000 entities from empty (W1 layout) and drain',
      [
        sceneRunner('wasm addMany, grid', 'wasm', true, 'addMany', 'grid'),
        ...(context.full ? [sceneRunner('wasm addMany, lists', 'wasm', true)] : []),
        sceneRunner('js backend addMany, grid', 'js', true, 'addMany', 'grid'),
        ...(context.full ? [sceneRunner('js backend addMany, lists', 'js', true)] : []),
        ...peers(),
      ].map(building),
      { opsPerRun: w1.count, opName: 'add', minSamples: 3, headline: 'Scene: 100,000 entities added with one addMany (grid index)' },
    );
    // One add call per entity scans the x strip of its box: far slower at this density, so timed
    // once, in full runs only.
    if (context.full) context.bench('W4 per call: the same 100,000 adds, one add() call each', [building(sceneRunner('wasm add per call, grid', 'wasm', false, 'add', 'grid')), building(sceneRunner('wasm add per call, lists', 'wasm', false, 'add'))], {
      opsPerRun: w1.count,
      opName: 'add',
      minSamples: 1,
      warmup: 0,
      minTimeMs: 0,
    });

    for (const index of ['grid', 'lists'] as const) {
      const scene = new Scene({ index, defaultRange: w1.range });
      scene.addMany(build.ids, build.xs, build.ys);
      const pairs = scene.drainArray().length / 3;
      const bytes = scene.memoryBytes;
      context.note(
        `memory (${index} index): a ${w1.count.toLocaleString('en-US')}-entity 2-D scene (W1 layout) holds ${(bytes / 2 ** 20).toFixed(1)} MiB of wasm memory, ${Math.round(bytes / w1.count)} bytes per entity (${pairs} visible pairs, ${(pairs / w1.count).toFixed(1)} per entity)`,
      );
      scene.dispose();
    }
  },
};
