// Where a region tick's time goes: the walkers of bench/regions.ts (20,000 on
// 2,000², range 20, margin 2, steps up to 2, every walker moving every tick)
// on one Scene of the world and on RegionWorlds of one and of 2 × 2 regions,
// interleaved tick by tick in one process, each contender's moves made
// before its timed run. Beside them, each world's tick replayed phase by
// phase from outside (the router and the Regions RegionWorld.tick drives, in
// its order), each phase timed with performance.now(); the Regions' Scenes
// have their moveMany, drainArray and net fold wrapped per instance, and
// their operation columns their grouping, so the step splits into the
// merge, the Scene's moves and the drain. The wire formats are timed by
// doing them again on the same data, outside the replayed tick ('again:').
// Last, the Scene alone with the default event log against 'net', without
// and with margins. Events are checked equal before timing. Run alone:
// `node scripts/run-ts.mjs bench/region-tick.ts [ticks]`.
import { init, Scene, type SceneEventMode } from '../src/index.js';
import { decodeGhostBatch, decodeHandoffs, encodeGhostBatch, encodeHandoffs, Region, RegionLayout, RegionWorld, type GhostBatch, type Handoff } from '../src/regions/index.js';
import { RegionRouter } from '../src/regions/router.js';
import type { OpColumns } from '../src/regions/op-columns.js';
import { MARGIN, RANGE, STEP, Walk, WORLD } from './regions.js';

const N = 20_000;
const TICKS = Number(process.argv[2] ?? 30);
const WARM = 4;

/** Milliseconds per named part, one list of samples per part. */
class Samples {
  readonly byName = new Map<string, number[]>();
  private current = new Map<string, number>();

  add(name: string, ms: number): void {
    this.current.set(name, (this.current.get(name) ?? 0) + ms);
  }

  /** Closes a tick: every part's total becomes one sample, and so does the sum of the top-level parts (no '>' in the name) other than counts, busy times and work done again. */
  endTick(): Map<string, number> {
    const tick = this.current;
    let whole = 0;
    for (const [name, ms] of tick) if (!/>|^again|^busy|count/.test(name)) whole += ms;
    tick.set('sum of the parts', whole);
    for (const [name, ms] of tick) {
      if (!this.byName.has(name)) this.byName.set(name, []);
      this.byName.get(name)!.push(ms);
    }
    this.current = new Map();
    return tick;
  }
}

function timed<T>(samples: Samples, name: string, run: () => T): T {
  const start = performance.now();
  const out = run();
  samples.add(name, performance.now() - start);
  return out;
}

/** Wraps method `name` of one object so that its time goes to `samples` under `prefix() + label`. */
function wrap(target: object, name: string, samples: Samples, label: string, prefix: () => string): void {
  const o = target as Record<string, (...args: unknown[]) => unknown>;
  const original = o[name].bind(target);
  o[name] = (...args: unknown[]) => timed(samples, prefix() + label, () => original(...args));
}

/** The private parts of a Region this script reads. */
interface RegionInside {
  scene: Scene;
  ops: OpColumns;
}

/** RegionWorld.tick replayed from outside, phase by phase, over its own router and Regions. */
class PhasedWorld {
  readonly router: RegionRouter;
  readonly regions: Region[];
  readonly samples = new Samples();
  private phase = '';

  constructor(readonly layout: RegionLayout, walk: Walk) {
    this.router = new RegionRouter(layout, RANGE);
    this.regions = layout.regions.map((r) => new Region(layout, r.id, { index: 'grid' }));
    for (const r of this.regions) {
      const scene = inside(r).scene;
      const net = (scene as unknown as { net: object }).net;
      wrap(scene, 'moveMany', this.samples, 'scene moveMany', () => this.phase);
      wrap(scene, 'drainArray', this.samples, 'scene drain', () => this.phase);
      wrap(net, 'fold', this.samples, 'net fold', () => this.phase);
      wrap(net, 'foldInCore', this.samples, 'net fold', () => this.phase);
      wrap(net, 'movingMany', this.samples, 'net positions', () => this.phase);
      wrap(inside(r).ops, 'group', this.samples, 'ops grouped by id', () => this.phase);
    }
    for (let i = 0; i < walk.ids.length; i++) {
      const routed = this.router.add(walk.ids[i], walk.xs[i], walk.ys[i], RANGE, { margin: MARGIN });
      this.regions[routed.region].submit(routed.id, routed.op);
    }
  }

  tick(walk: Walk | null): Int32Array[] {
    const s = this.samples;
    const { regions, router } = this;
    if (walk !== null) {
      const { ids, xs, ys } = walk;
      timed(s, 'routing: moveMany', () => {
        const to = router.moveMany(ids, xs, ys).regions;
        for (let i = 0; i < ids.length; i++) regions[to[i]].submitMove(ids[i], xs[i], ys[i]);
      });
    }
    // Each phase's time goes to its name and to its region's busy time.
    const inRegion = <T>(k: number, name: string, run: () => T): T => {
      const start = performance.now();
      const out = run();
      const ms = performance.now() - start;
      s.add(name, ms);
      if (regions.length > 1) s.add(`busy region ${k}`, ms);
      return out;
    };
    this.phase = 'handOff > ';
    const handoffs: Handoff[] = regions.flatMap((r, k) => inRegion(k, 'handOff', () => r.handOff()));
    this.phase = 'receive > ';
    regions.forEach((r, k) => inRegion(k, 'receive', () => r.receive(handoffs)));
    this.phase = 'ghostBatches > ';
    const batches: GhostBatch[] = regions.flatMap((r, k) => inRegion(k, 'ghostBatches', () => r.ghostBatches()));
    this.phase = 'step > ';
    const parts = regions.map((r, k) => inRegion(k, 'step', () => r.step(batches)));
    this.phase = '';
    timed(s, 'endTick + concat', () => {
      router.endTick(handoffs);
      const out = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
    });
    const encoded = timed(s, 'again: encode batches', () => batches.map(encodeGhostBatch));
    timed(s, 'again: decode batches', () => encoded.map(decodeGhostBatch));
    const handoffBytes = timed(s, 'again: encode hand-offs', () => encodeHandoffs(handoffs));
    timed(s, 'again: decode hand-offs', () => decodeHandoffs(handoffBytes));
    s.add('handoffs (count)', handoffs.length);
    s.add('ghost ops (count)', batches.reduce((n, b) => n + b.entities.reduce((m, e) => m + e.ops.length, 0), 0));
    s.add('encoded bytes (count)', encoded.reduce((n, b) => n + b.byteLength, 0));
    s.add('hand-off bytes (count)', handoffBytes.byteLength);
    return parts;
  }
}

function inside(r: Region): RegionInside {
  return r as unknown as RegionInside;
}

/** One Scene of the whole world, in an event mode, with or without margins; moves through moveMany or one move each. */
class WorldScene {
  readonly scene: Scene;
  readonly samples = new Samples();

  constructor(walk: Walk, events: SceneEventMode, margin: number, readonly perMove = false) {
    this.scene = new Scene({ index: 'grid', events, defaultRange: RANGE });
    for (let i = 0; i < walk.ids.length; i++) this.scene.add(walk.ids[i], walk.xs[i], walk.ys[i], RANGE, { margin });
    this.scene.drainArray();
    const net = (this.scene as unknown as { net: object | null }).net;
    if (net !== null) {
      wrap(net, 'fold', this.samples, 'drain > net fold', () => '');
      wrap(net, 'foldInCore', this.samples, 'drain > net fold', () => '');
      wrap(net, 'movingMany', this.samples, 'moves > net positions', () => '');
    }
  }

  tick(walk: Walk): Int32Array {
    const { scene } = this;
    timed(this.samples, 'moves', () => {
      if (!this.perMove) scene.moveMany(walk.ids, walk.xs, walk.ys);
      else for (let i = 0; i < walk.ids.length; i++) scene.move(walk.ids[i], walk.xs[i], walk.ys[i]);
    });
    const events = timed(this.samples, 'drain', () => scene.drainArray());
    this.samples.add('events (count)', events.length / 3);
    return events;
  }
}

function worldOf(layout: RegionLayout, walk: Walk): RegionWorld {
  const world = new RegionWorld(layout, { index: 'grid', defaultRange: RANGE });
  for (let i = 0; i < walk.ids.length; i++) world.add(walk.ids[i], walk.xs[i], walk.ys[i], RANGE, { margin: MARGIN });
  world.tick();
  return world;
}

function moveEach(world: RegionWorld, walk: Walk): void {
  for (let i = 0; i < walk.ids.length; i++) world.move(walk.ids[i], walk.xs[i], walk.ys[i]);
}

function sortedEvents(parts: Int32Array[]): string {
  const out: string[] = [];
  for (const p of parts) for (let i = 0; i < p.length; i += 3) out.push(`${p[i]} ${p[i + 1]} ${p[i + 2]}`);
  return out.sort().join();
}

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

await init();
const bounds = { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD };
const options = { maxRange: RANGE, margin: MARGIN, maxStep: STEP };
const one = RegionLayout.grid(bounds, 1, 1, options);
const four = RegionLayout.grid(bounds, 2, 2, options);

interface Contender {
  name: string;
  walk: Walk;
  tick: (walk: Walk) => Int32Array[];
}
const contenders: Contender[] = [];
const add = (name: string, make: (walk: Walk) => (walk: Walk) => Int32Array[]): void => {
  const walk = new Walk(N, WORLD);
  contenders.push({ name, walk, tick: make(walk) });
};
const scenes = new Map<string, WorldScene>();
const sceneOf = (name: string, events: SceneEventMode, margin: number, perMove = false): void =>
  add(name, (walk) => {
    const s = new WorldScene(walk, events, margin, perMove);
    scenes.set(name, s);
    return (w) => [s.tick(w)];
  });
sceneOf('Scene net margin 2 (moveMany)', 'net', MARGIN);
sceneOf('Scene net margin 2, one move each', 'net', MARGIN, true);
add('RegionWorld 1 region (moveMany)', (walk) => {
  const world = worldOf(one, walk);
  return (w) => (world.moveMany(w.ids, w.xs, w.ys), [world.tick()]);
});
add('RegionWorld 1 region, one move each', (walk) => {
  const world = worldOf(one, walk);
  return (w) => (moveEach(world, w), [world.tick()]);
});
add('RegionWorld 2 x 2 (moveMany)', (walk) => {
  const world = worldOf(four, walk);
  return (w) => (world.moveMany(w.ids, w.xs, w.ys), [world.tick()]);
});
const phased = new Map<string, PhasedWorld>();
for (const [name, layout] of [['phased 1 region', one], ['phased 2 x 2', four]] as const) {
  add(name, (walk) => {
    const p = new PhasedWorld(layout, walk);
    p.tick(null);
    p.samples.endTick();
    phased.set(name, p);
    return (w) => p.tick(w);
  });
}
sceneOf('Scene log, no margin', 'log', 0);
sceneOf('Scene net, no margin', 'net', 0);
sceneOf('Scene log margin 2', 'log', MARGIN);

const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
const netContenders = contenders.filter((c) => !c.name.includes('log') && !c.name.includes('no margin'));
for (let t = 0; t < TICKS + WARM; t++) {
  for (const c of contenders) c.walk.step();
  // Rotated each tick, so no contender always runs right after the same one.
  const order = contenders.map((_, k) => contenders[(k + t) % contenders.length]);
  const events = new Map<string, Int32Array[]>();
  for (const c of order) {
    const start = performance.now();
    events.set(c.name, c.tick(c.walk));
    times.get(c.name)!.push(performance.now() - start);
  }
  for (const s of scenes.values()) s.samples.endTick();
  for (const p of phased.values()) p.samples.endTick();
  if (t < 2) {
    const expected = sortedEvents(events.get(netContenders[0].name)!);
    for (const c of netContenders) if (sortedEvents(events.get(c.name)!) !== expected) throw new Error(`${c.name} disagrees with the Scene at tick ${t}`);
  }
}

const base = times.get(contenders[0].name)!.slice(WARM);
const ratioLine = (label: string, ms: number[]): string => {
  const r = ms.map((v, k) => v / base[k]);
  return `${label.padEnd(44)} ${quantile(ms, 0.5).toFixed(2).padStart(7)} ms  ${quantile(r, 0.5).toFixed(2)}x (${quantile(r, 0.1).toFixed(2)}-${quantile(r, 0.9).toFixed(2)})`;
};
console.log(`${N} walkers on ${WORLD}², range ${RANGE}, margin ${MARGIN}, step <= ${STEP}; ${TICKS} ticks after ${WARM}; median ms, median per-tick ratio to the first (p10-p90)`);
for (const c of contenders) console.log(ratioLine(c.name, times.get(c.name)!.slice(WARM)));
for (const [name, s] of [...phased, ...scenes]) {
  console.log(`\n${name}: parts`);
  for (const [part, ms] of s.samples.byName) {
    const kept = ms.slice(-TICKS);
    if (part.endsWith('(count)')) console.log(`  ${part.padEnd(42)} ${quantile(kept, 0.5)}`);
    else console.log(ratioLine(`  ${part}`, kept));
  }
}
