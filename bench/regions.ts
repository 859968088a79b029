// Regions: 20,000 entities walking a 2,000² world (range 20, margin 2, step
// at most 2 per tick), one tick at a time, on one Scene against the same
// world cut into 2 × 2 regions run in lockstep in this process. Each region's
// share of a tick (its four phases) is timed on its own: the busiest region's
// share is what one process per region would spend, before the transport.
// Both worlds are checked to report the same events before timing.
import { init, Scene } from '../src/index.js';
import { RegionLayout, Region, encodeGhostBatch, type GhostBatch, type Handoff } from '../src/regions/index.js';
import type { Suite } from './harness.js';
import { mulberry32 } from './random.js';
import { hasRedis, runRegionProcesses, runRoomClients } from './region-processes.js';

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
  readonly owner = new Map<number, number>();
  /** Per region, ms spent in its phases over the ticks so far. */
  readonly busy: number[];
  ticks = 0;
  handoffs = 0;
  bytes = 0;
  /** The same batches as JSON, as Colyseus's RedisPresence.publish would send them. */
  jsonBytes = 0;
  /** The hand-offs as JSON, as RegionPeer sends them. */
  handoffBytes = 0;

  constructor(readonly layout: RegionLayout, walk: Walk) {
    this.regions = layout.regions.map((r) => new Region(layout, r.id, { index: 'grid' }));
    this.busy = this.regions.map(() => 0);
    for (let i = 0; i < walk.ids.length; i++) {
      const id = walk.ids[i];
      const at = layout.regionAt(walk.xs[i], walk.ys[i]);
      this.owner.set(id, at);
      this.regions[at].submit(id, { kind: 'add', x: walk.xs[i], y: walk.ys[i], range: RANGE, layer: 1, sees: -1, margin: MARGIN });
    }
  }

  /** One tick: the walkers' moves routed to their owners, then the four phases; the events of every region. */
  tick(walk: Walk, first = false): Int32Array[] {
    if (!first) {
      for (let i = 0; i < walk.ids.length; i++) this.regions[this.owner.get(walk.ids[i])!].submit(walk.ids[i], { kind: 'move', x: walk.xs[i], y: walk.ys[i] });
    }
    const handoffs: Handoff[] = this.regions.flatMap((r, k) => this.timed(k, () => r.handOff()));
    this.regions.forEach((r, k) => this.timed(k, () => r.receive(handoffs)));
    for (const h of handoffs) this.owner.set(h.id, h.to);
    const batches: GhostBatch[] = this.regions.flatMap((r, k) => this.timed(k, () => r.ghostBatches()));
    const events = this.regions.map((r, k) => this.timed(k, () => r.step(batches)));
    this.ticks++;
    this.handoffs += handoffs.length;
    for (const b of batches) {
      this.bytes += encodeGhostBatch(b).byteLength;
      this.jsonBytes += Buffer.byteLength(JSON.stringify(b));
    }
    this.handoffBytes += Buffer.byteLength(JSON.stringify(handoffs));
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

export const regionsSuite: Suite = {
  name: 'regions',
  title: 'Regions: one Scene against 2 × 2 regions in lockstep',
  async run(context) {
    await init();
    const n = context.pick({ smoke: 2_000, default: 20_000, full: 20_000 });
    const world = WORLD * Math.sqrt(n / 20_000);
    const layout = RegionLayout.grid({ minX: 0, minY: 0, maxX: world, maxY: world }, 2, 2, { maxRange: RANGE, margin: MARGIN, maxStep: STEP });

    const walkSingle = new Walk(n, world);
    const walkRegions = new Walk(n, world);
    const single = new Scene({ index: 'grid', events: 'net', defaultRange: RANGE });
    for (let i = 0; i < n; i++) single.add(walkSingle.ids[i], walkSingle.xs[i], walkSingle.ys[i], RANGE, { margin: MARGIN });
    single.drainArray();
    const regions = new Regions(layout, walkRegions);
    regions.tick(walkRegions, true);
    const singleTick = (): Int32Array => {
      walkSingle.step();
      single.moveMany(walkSingle.ids, walkSingle.xs, walkSingle.ys);
      return single.drainArray();
    };
    const regionsTick = (): Int32Array[] => {
      walkRegions.step();
      return regions.tick(walkRegions);
    };
    for (let t = 0; t < 3; t++) {
      if (sorted([singleTick()]).join() !== sorted(regionsTick()).join()) throw new Error(`regions and the single Scene disagree at tick ${t}`);
    }
    regions.busy.fill(0);
    Object.assign(regions, { ticks: 0, handoffs: 0, bytes: 0, jsonBytes: 0, handoffBytes: 0 });

    context.bench(
      `one tick of ${n.toLocaleString('en-US')} walkers`,
      [
        { name: 'one Scene (grid, net)', run: () => void singleTick() },
        { name: '2 × 2 regions, all four in this process', run: () => void regionsTick() },
      ],
      { opName: 'tick', minSamples: 5, headline: `Regions: tick of ${n.toLocaleString('en-US')} walkers on one Scene, the reference of 2 × 2 regions in one process` },
    );

    const perTick = (v: number): string => (v / regions.ticks).toFixed(2);
    const busiest = Math.max(...regions.busy);
    context.note(`${n.toLocaleString('en-US')} walkers on ${world.toFixed(0)}², range ${RANGE}, margin ${MARGIN}, step <= ${STEP}; band ${layout.band}; events checked equal for 3 ticks`);
    context.note(`per region and tick over ${regions.ticks} ticks: ${regions.busy.map((ms) => perTick(ms)).join(' / ')} ms (busiest ${perTick(busiest)} ms; all four ${perTick(regions.busy.reduce((a, b) => a + b, 0))} ms)`);
    context.note(`owned / ghosts per region: ${regions.regions.map((r) => `${r.ownedCount} / ${r.ghostCount}`).join(', ')}`);
    context.note(`hand-offs per tick ${perTick(regions.handoffs)}; ghost batch bytes per tick ${perTick(regions.bytes)} (all regions, float64 coordinates); as JSON ${perTick(regions.jsonBytes)} (${(regions.jsonBytes / regions.bytes).toFixed(2)} × the binary); hand-offs as JSON ${perTick(regions.handoffBytes)}`);
    single.dispose();
    for (const r of regions.regions) r.dispose();

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
  },
};
