// Regions: 20,000 entities walking a 2,000² world (range 20, margin 2, step
// at most 2 per tick), one tick at a time, on one Scene against the same
// world as a RegionWorld of one region (the layer's cost alone) and cut into
// 2 × 2 regions run in lockstep in this process, each fed one moveMany a
// tick. Each of the 2 × 2 regions' share of a tick (its four phases) is
// timed on its own: the busiest region's share is what one process per
// region would spend, before the transport. Every world is checked to
// report the same events as the Scene before timing. Beside them, the Scene
// regions run on ('net', margins) against the event log without margins.
import { init, Scene, type SceneEventMode } from '../src/index.js';
import { RegionLayout, Region, RegionWorld, encodeGhostBatch, encodeHandoffs, type GhostBatch, type Handoff } from '../src/regions/index.js';
import { RegionRouter } from '../src/regions/router.js';
import type { Contender, Suite, SuiteContext } from './harness.js';
import { mulberry32 } from './random.js';
import { hasRedis, runRegionProcesses, runRoomClients } from './region-processes.js';
import { runRoomCapacity, SEEN, type RoomLoad } from './room-capacity.js';
import { RANGE as ROOM_RANGE } from './region-process-walkers.js';

export const WORLD = 2_000;
export const RANGE = 20;
export const MARGIN = 2;
export const STEP = 2;

/** Walkers stepping at most STEP per axis per tick, turned back at the world's edges. */
export class Walk {
  readonly ids: Int32Array;
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  private readonly random = mulberry32(7);

  constructor(
    n: number,
    private readonly size: number,
  ) {
    this.ids = Int32Array.from({ length: n }, (_, i) => i);
    this.xs = Float64Array.from({ length: n }, () => this.random() * size);
    this.ys = Float64Array.from({ length: n }, () => this.random() * size);
  }

  step(): void {
    for (let i = 0; i < this.ids.length; i++) {
      this.xs[i] = this.bounce(this.xs[i] + (this.random() * 2 - 1) * STEP);
      this.ys[i] = this.bounce(this.ys[i] + (this.random() * 2 - 1) * STEP);
    }
  }

  private bounce(v: number): number {
    return v < 0 ? -v : v > this.size ? 2 * this.size - v : v;
  }
}

/** The world as regions driven phase by phase, each region's time kept apart. */
class Regions {
  readonly regions: Region[];
  /** Routes each tick's moves as RegionWorld.moveMany does. */
  readonly router: RegionRouter;
  /** Per region, ms spent in its phases over the ticks so far. */
  readonly busy: number[];
  ticks = 0;
  handoffs = 0;
  /** true: each tick also counts what its messages weigh (untimed ticks only: the counting is not the regions' work). */
  weigh = false;
  bytes = 0;
  /** The same batches as JSON, as Colyseus's RedisPresence.publish would send them. */
  jsonBytes = 0;
  /** The hand-offs as bytes, as RegionPeer sends them (encodeHandoffs, one message per region). */
  handoffBytes = 0;

  constructor(readonly layout: RegionLayout, walk: Walk) {
    this.regions = layout.regions.map((r) => new Region(layout, r.id, { index: 'grid' }));
    this.busy = this.regions.map(() => 0);
    this.router = new RegionRouter(layout, RANGE);
    for (let i = 0; i < walk.ids.length; i++) {
      const routed = this.router.add(walk.ids[i], walk.xs[i], walk.ys[i], RANGE, { margin: MARGIN });
      this.regions[routed.region].submit(routed.id, routed.op);
    }
  }

  /** One tick: the walkers' moves routed to their owners, then the four phases; the events of every region. */
  tick(walk: Walk, first = false): Int32Array[] {
    if (!first) {
      const { ids, xs, ys } = walk;
      const to = this.router.moveMany(ids, xs, ys).regions;
      for (let i = 0; i < ids.length; i++) this.regions[to[i]].submitMove(ids[i], xs[i], ys[i]);
    }
    const handoffs: Handoff[] = this.regions.flatMap((r, k) => {
      const mine = this.timed(k, () => r.handOff());
      if (this.weigh) this.handoffBytes += encodeHandoffs(mine).byteLength;
      return mine;
    });
    this.regions.forEach((r, k) => this.timed(k, () => r.receive(handoffs)));
    this.router.endTick(handoffs);
    const batches: GhostBatch[] = this.regions.flatMap((r, k) => this.timed(k, () => r.ghostBatches()));
    const events = this.regions.map((r, k) => this.timed(k, () => r.step(batches)));
    this.ticks++;
    this.handoffs += handoffs.length;
    for (const b of this.weigh ? batches : []) {
      this.bytes += encodeGhostBatch(b).byteLength;
      this.jsonBytes += Buffer.byteLength(JSON.stringify(b));
    }
    return events;
  }

  private timed<T>(k: number, run: () => T): T {
    const start = performance.now();
    const out = run();
    this.busy[k] += performance.now() - start;
    return out;
  }
}

/** Events as sorted 'type watcher target' strings. */
function sorted(parts: Int32Array[]): string[] {
  const out: string[] = [];
  for (const p of parts) for (let i = 0; i < p.length; i += 3) out.push(`${p[i]} ${p[i + 1]} ${p[i + 2]}`);
  return out.sort();
}

/** What regions run on, on the same walkers: one Scene with the event log or 'net', without and with margins. */
function sceneModesCase(context: SuiteContext, n: number, world: number): void {
  const variants: Array<{ name: string; events: SceneEventMode; margin: number }> = [
    { name: 'event log, no margin', events: 'log', margin: 0 },
    { name: "'net', no margin", events: 'net', margin: 0 },
    { name: `event log, margin ${MARGIN}`, events: 'log', margin: MARGIN },
    { name: `'net', margin ${MARGIN}`, events: 'net', margin: MARGIN },
  ];
  const contenders = variants.map(({ name, events, margin }): Contender => {
    const walk = new Walk(n, world);
    const scene = new Scene({ index: 'grid', events, defaultRange: RANGE });
    return {
      name,
      setup: () => {
        for (let i = 0; i < n; i++) scene.add(walk.ids[i], walk.xs[i], walk.ys[i], RANGE, { margin });
        scene.drainArray();
      },
      prepare: () => walk.step(),
      run: () => {
        scene.moveMany(walk.ids, walk.xs, walk.ys);
        scene.drainArray();
      },
      teardown: () => scene.dispose(),
    };
  });
  const result = context.bench(`the Scene of one tick of ${n.toLocaleString('en-US')} walkers: event modes and margins`, contenders, { opName: 'tick', interleave: true });
  const [, net, logMargin, netMargin] = result.contenders.map((c) => c.ratio);
  context.note(`event modes, ratios to the event log without margin (medians of per-tick ratios): 'net' costs ${net.toFixed(2)}x the event log; a margin of ${MARGIN} costs ${logMargin.toFixed(2)}x none with the log and ${(netMargin / net).toFixed(2)}x with 'net'`);
}

export const regionsSuite: Suite = {
  name: 'regions',
  title: 'Regions: one Scene against one region and 2 × 2 regions in lockstep',
  async run(context) {
    await init();
    const n = context.pick({ smoke: 2_000, default: 20_000, full: 20_000 });
    const world = WORLD * Math.sqrt(n / 20_000);
    const bounds = { minX: 0, minY: 0, maxX: world, maxY: world };
    const sizes = { maxRange: RANGE, margin: MARGIN, maxStep: STEP };
    const layout = RegionLayout.grid(bounds, 2, 2, sizes);

    const walkSingle = new Walk(n, world);
    const walkRegions = new Walk(n, world);
    const single = new Scene({ index: 'grid', events: 'net', defaultRange: RANGE });
    for (let i = 0; i < n; i++) single.add(walkSingle.ids[i], walkSingle.xs[i], walkSingle.ys[i], RANGE, { margin: MARGIN });
    single.drainArray();
    const regions = new Regions(layout, walkRegions);
    regions.tick(walkRegions, true);
    const walkOne = new Walk(n, world);
    const oneRegion = new RegionWorld(RegionLayout.grid(bounds, 1, 1, sizes), { index: 'grid', defaultRange: RANGE });
    for (let i = 0; i < n; i++) oneRegion.add(walkOne.ids[i], walkOne.xs[i], walkOne.ys[i], RANGE, { margin: MARGIN });
    oneRegion.tick();
    const oneTick = (): Int32Array => {
      oneRegion.moveMany(walkOne.ids, walkOne.xs, walkOne.ys);
      return oneRegion.tick();
    };
    const singleTick = (): Int32Array => {
      single.moveMany(walkSingle.ids, walkSingle.xs, walkSingle.ys);
      return single.drainArray();
    };
    const regionsTick = (): Int32Array[] => regions.tick(walkRegions);
    const checkTicks = 3;
    regions.weigh = true;
    for (let t = 0; t < checkTicks; t++) {
      for (const walk of [walkSingle, walkRegions, walkOne]) walk.step();
      const want = sorted([singleTick()]).join();
      if (want !== sorted(regionsTick()).join()) throw new Error(`2 × 2 regions and the single Scene disagree at tick ${t}`);
      if (want !== sorted([oneTick()]).join()) throw new Error(`one region and the single Scene disagree at tick ${t}`);
    }
    const weighed = (v: number): string => (v / checkTicks).toFixed(0);
    const { bytes, jsonBytes, handoffBytes } = regions;
    regions.weigh = false;
    regions.busy.fill(0);
    Object.assign(regions, { ticks: 0, handoffs: 0 });

    const result = context.bench(
      `one tick of ${n.toLocaleString('en-US')} walkers`,
      [
        { name: 'one Scene (grid, net)', prepare: () => walkSingle.step(), run: () => void singleTick() },
        { name: 'RegionWorld, one region', prepare: () => walkOne.step(), run: () => void oneTick() },
        { name: '2 × 2 regions, all four in this process', prepare: () => walkRegions.step(), run: () => void regionsTick() },
      ],
      { opName: 'tick', interleave: true, headline: `Regions: tick of ${n.toLocaleString('en-US')} walkers on one Scene, the reference of 2 × 2 regions in one process` },
    );

    const perTick = (v: number): string => (v / regions.ticks).toFixed(2);
    const busiest = Math.max(...regions.busy);
    const sceneMs = result.contenders[0].medianMs;
    context.note(`${n.toLocaleString('en-US')} walkers on ${world.toFixed(0)}², range ${RANGE}, margin ${MARGIN}, step <= ${STEP}; band ${layout.band}; events checked equal for 3 ticks`);
    context.note(`per region and tick over ${regions.ticks} ticks: ${regions.busy.map((ms) => perTick(ms)).join(' / ')} ms (busiest ${perTick(busiest)} ms, ${(busiest / regions.ticks / sceneMs).toFixed(2)} × the Scene's tick; all four ${perTick(regions.busy.reduce((a, b) => a + b, 0))} ms)`);
    context.note(`owned / ghosts per region: ${regions.regions.map((r) => `${r.ownedCount} / ${r.ghostCount}`).join(', ')}`);
    context.note(`hand-offs per tick ${perTick(regions.handoffs)}; over ${checkTicks} ticks, ghost batch bytes per tick ${weighed(bytes)} (all regions, float64 coordinates); as JSON ${weighed(jsonBytes)} (${(jsonBytes / bytes).toFixed(2)} × the binary); hand-off bytes per tick ${weighed(handoffBytes)}`);
    single.dispose();
    oneRegion.dispose();
    for (const r of regions.regions) r.dispose();
    sceneModesCase(context, n, world);

    if (!hasRedis()) {
      context.note('multi-process case skipped: no redis-server on this machine');
      return;
    }
    // Processes and clients take most of the suite's time starting up: default runs keep their ticks and seconds
    // short, and leave out more of the first ticks, which run slower while four processes settle on the cores.
    const { ticks, warmup } = context.pick({ smoke: { ticks: 10, warmup: 3 }, default: { ticks: 15, warmup: 10 }, full: { ticks: 200, warmup: 3 } });
    const { one, four } = await runRegionProcesses(n, ticks, warmup);
    const ms = (v: number): string => v.toFixed(2);
    const slowest = four.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
    context.note(`processes over Redis, ${ticks} ticks after ${warmup}, ms per tick: one region in one process: CPU ${ms(one.cpuMs)}, wall ${ms(one.tickMs)} (own work ${ms(one.busyMs)}); 2 × 2 regions in four processes: CPU ${four.map((r) => ms(r.cpuMs)).join(' / ')}, wall ${four.map((r) => ms(r.tickMs)).join(' / ')} (own work ${four.map((r) => ms(r.busyMs)).join(' / ')}); the busiest region's CPU is ${(one.cpuMs / slowest.cpuMs).toFixed(2)} × less than the one region's`);
    context.note(`four processes: owned / ghosts ${four.map((r) => `${r.owned} / ${r.ghosts}`).join(', ')}; Redis bytes per tick ${Math.round(four.reduce((a, r) => a + r.bytesPerTick, 0))} in all (one region alone: ${Math.round(one.bytesPerTick)}); hand-offs per tick ${ms(four[0].handoffsPerTick)}; a move reaches a neighbour's events in the tick it is made: one tick's wall time`);

    // The same walkers in four RegionRoom processes, with @colyseus/sdk clients.
    const seconds = context.pick({ smoke: 2, default: 3, full: 30 });
    const players = context.pick({ smoke: 4, default: 4, full: 8 });
    const clients = await runRoomClients(n, players, players, seconds);
    const at = (sorted: number[], q: number): string => (sorted.length === 0 ? '-' : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(0));
    context.note(
      `2 × 2 RegionRooms in four processes, ${seconds} s, ${clients.tickMs.toFixed(0)} ms a tick: a player's input reaches a client across the border ` +
        `in ${at(clients.delays, 0.5)} ms (median; p95 ${at(clients.delays, 0.95)} ms; ${at(clients.delayTicks, 0.5)} ticks, p95 ${at(clients.delayTicks, 0.95)}) over ${clients.delays.length} inputs, ` +
        `through Redis and the SDK; ${players} pacing clients made ${clients.handoffsPerSecond.toFixed(1)} hand-offs a second, each view standing still ${at(clients.switchGaps, 0.5)} ms (median; p95 ${at(clients.switchGaps, 0.95)} ms) across one`,
    );

    // The players one region room holds at 20 ticks a second on one core, with a view per client (the default) and on
    // shared views of cells as wide as the range: searched in full runs (on shared views, up to the 1,414 SDK clients
    // one process of a 2-core machine drives: 2,000 of them miss their seat reservations), one count otherwise.
    const cpu = (loads: RoomLoad[]): string =>
      loads.map((l) => `${l.players.toLocaleString('en-US')}: ${l.cpuMsPerTick.toFixed(1)} ms (region ${l.regionMsPerTick.toFixed(1)}, broadcastPatch ${l.patchMsPerTick.toFixed(1)}; ${Math.round(l.movesPerTick)} moves)`).join(', ');
    for (const sharedCell of [undefined, ROOM_RANGE]) {
      const views = sharedCell === undefined ? 'a view per client, the default' : `shared views, sharedViews: { cell: ${sharedCell} }`;
      const room = `one RegionRoom in a process of its own (one region, ${views}), paced at 20 ticks a second, every player sending a step whenever its view advances and seeing ~${SEEN} others, Colyseus encoding and sending the views (moves: the inputs applied a tick)`;
      if (context.full && sharedCell === undefined) {
        const largest = await runRoomCapacity(250, 40, 2, sharedCell);
        context.note(`${room}: holds ${largest.players.toLocaleString('en-US')} players within 50 ms of CPU a tick (20 ticks a second on one core); CPU a tick by players, ${cpu(largest.measured)}`);
      } else if (context.full) {
        const measured: RoomLoad[] = [];
        for (const players of [1_000, 1_414]) measured.push(...(await runRoomCapacity(players, 40, -1, sharedCell)).measured);
        context.note(`${room}: CPU a tick by players, ${cpu(measured)} (20 ticks a second on one core allow 50 ms)`);
      } else {
        const { measured } = await runRoomCapacity(context.pick({ smoke: 50, default: 500, full: 0 }), context.pick({ smoke: 10, default: 30, full: 0 }), -1, sharedCell);
        context.note(`${room}: CPU a tick at ${cpu(measured)} (20 ticks a second on one core allow 50 ms; --full searches the largest count)`);
      }
    }
  },
};
