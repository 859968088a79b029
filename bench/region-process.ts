// One region of the multi-process case of bench `regions`, in a process of
// its own: walkers start where a seeded draw (the same in every process)
// puts them, each region adds those in its rectangle, and every tick each
// region moves the walkers it owns by up to STEP per axis, then runs the
// tick in lockstep over Redis. Prints one JSON line of what it measured.
//
//   node region-process.mjs '{"redisPort":..., "region":0, "columns":2, "rows":2, "walkers":20000, "ticks":100, "warmup":3, "prefix":"..."}'
import { Redis } from 'ioredis';
import { init } from '../src/index.js';
import { RedisRegionBus, RegionLayout, RegionPeer } from '../src/regions/index.js';
import { mulberry32 } from './random.js';
import { MARGIN, placeWalkers, RANGE, STEP, stepWalkers, worldSize } from './region-process-walkers.js';

/** What a region process is told. */
export interface RegionProcessSettings {
  redisPort: number;
  region: number;
  columns: number;
  rows: number;
  walkers: number;
  ticks: number;
  /** Ticks run before the measured ones (the first ticks of processes that share the cores run slower). */
  warmup: number;
  prefix: string;
}

/** What a region process measured, per tick on average. */
export interface RegionProcessResult {
  region: number;
  /** Wall-clock ms per tick, barrier waits included. */
  tickMs: number;
  /** ms per tick of this process's own work: moves, the four phases, encoding and decoding (wall clock: on a busy machine, time descheduled counts). */
  busyMs: number;
  /** CPU ms per tick this process used (user + system), Redis client included: what a core of its own would spend. */
  cpuMs: number;
  /** Bytes this region published to Redis per tick. */
  bytesPerTick: number;
  owned: number;
  ghosts: number;
  /** Hand-offs (of every region) per tick. */
  handoffsPerTick: number;
}

const settings = JSON.parse(process.argv[2]) as RegionProcessSettings;
await init();
const size = worldSize(settings.walkers);
const layout = RegionLayout.grid({ minX: 0, minY: 0, maxX: size, maxY: size }, settings.columns, settings.rows, { maxRange: RANGE, margin: MARGIN, maxStep: STEP });
const url = `redis://127.0.0.1:${settings.redisPort}`;
const bus = new RedisRegionBus(new Redis(url), new Redis(url), settings.prefix);
const peer = new RegionPeer(layout, settings.region, bus, { index: 'grid', timeoutMs: 30_000 });
await peer.start();

placeWalkers(peer, settings.walkers, size);
const random = mulberry32(100 + settings.region);

let busy = 0;
let handoffs = 0;
const warmup = settings.warmup;
let start = 0;
let bytesAtStart = 0;
let cpuAtStart = process.cpuUsage();
for (let t = 0; t < warmup + settings.ticks; t++) {
  if (t === warmup) {
    start = performance.now();
    busy = 0;
    handoffs = 0;
    bytesAtStart = bus.bytesPublished;
    cpuAtStart = process.cpuUsage();
  }
  const before = performance.now();
  if (t > 0) stepWalkers(peer, random, size, settings.walkers);
  busy += performance.now() - before;
  const result = await peer.tick();
  busy += result.busyMs;
  handoffs += result.handoffs.length;
}
const ticks = settings.ticks;
const cpu = process.cpuUsage(cpuAtStart);
const out: RegionProcessResult = {
  region: settings.region,
  tickMs: (performance.now() - start) / ticks,
  busyMs: busy / ticks,
  cpuMs: (cpu.user + cpu.system) / 1000 / ticks,
  bytesPerTick: (bus.bytesPublished - bytesAtStart) / ticks,
  owned: peer.region.ownedCount,
  ghosts: peer.region.ghostCount,
  handoffsPerTick: handoffs / ticks,
};
console.log(JSON.stringify(out));
await peer.close();
