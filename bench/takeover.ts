// Takeovers: what checkpoints cost a region every tick, and how long a
// region is down when its holder dies. A region of 5,000 walkers (range 20,
// margin 2, step 2, the density of the `regions` suite) ticks without
// checkpoints, with one every tick, and with one every 10 ticks and a
// journal entry between, side by side; then, with a
// redis-server, the checkpoint's save is timed, and four regions of 20,000
// walkers over Redis lose one to a dead connection, timed from the death to
// the heir's first tick and to the world's next tick.
import { Redis } from 'ioredis';
import { init } from '../src/index.js';
import { Region, RegionLayout, RegionPeer, RegionStandby, RedisRegionBus } from '../src/regions/index.js';
import { encodeCheckpoint, encodeJournalEntry } from '../src/regions/checkpoint.js';
import type { Suite } from './harness.js';
import { hasRedis } from './region-processes.js';
import { MARGIN, RANGE, STEP, Walk, WORLD } from './regions.js';
import { startRedisServer } from './redis-server.js';

/** A world of n walkers at the `regions` suite's density, cut into columns × rows regions. */
function layoutFor(n: number, columns: number, rows: number): RegionLayout {
  const side = WORLD * Math.sqrt(n / 20_000);
  return RegionLayout.grid({ minX: 0, minY: 0, maxX: side, maxY: side }, columns, rows, { maxRange: RANGE, margin: MARGIN, maxStep: STEP });
}

/** One region holding every walker, ticked phase by phase. */
function regionOf(walk: Walk, layout: RegionLayout): Region {
  const region = new Region(layout, 0, { index: 'grid' });
  for (let i = 0; i < walk.ids.length; i++) region.submit(walk.ids[i], { kind: 'add', x: walk.xs[i], y: walk.ys[i], range: RANGE, layer: 1, sees: -1, margin: MARGIN });
  step(region, walk, false);
  return region;
}

/** One tick: the walkers' moves submitted, then `save` (a checkpoint or journal entry taken, as a peer does before it sends anything), then the phases. */
function step(region: Region, walk: Walk, move = true, save: () => void = () => {}): void {
  if (move) {
    walk.step();
    for (let i = 0; i < walk.ids.length; i++) region.submit(walk.ids[i], { kind: 'move', x: walk.xs[i], y: walk.ys[i] });
  }
  save();
  region.receive(region.handOff());
  region.ghostBatches();
  region.step([]);
}

/** Ticks a region of its own, taking a checkpoint every `every` ticks and a journal entry at the others; what they weighed and took. */
class Saving {
  readonly walk: Walk;
  readonly region: Region;
  bytes = 0;
  ticks = 0;

  constructor(
    n: number,
    private readonly layout: RegionLayout,
    private readonly every: number,
  ) {
    this.walk = new Walk(n, layout.bounds.maxX);
    this.region = regionOf(this.walk, layout);
  }

  tick(): void {
    step(this.region, this.walk, true, () => {
      const at = { region: 0, epoch: 1, tick: this.region.ticks, extra: new Uint8Array(0) };
      const full = this.ticks % this.every === 0;
      const bytes = full ? encodeCheckpoint(this.layout, { ...this.region.checkpoint(), ...at }) : encodeJournalEntry(this.layout, { ...at, ops: this.region.pendingOps() });
      this.bytes += bytes.byteLength;
      this.ticks++;
    });
  }

  note(): string {
    return `every ${this.every}: ${Math.round(this.bytes / this.ticks).toLocaleString('en-US')} bytes a tick`;
  }
}

export const takeoverSuite: Suite = {
  name: 'takeover',
  title: 'Takeovers: a checkpoint every tick, and a region down',
  async run(context) {
    await init();
    const n = context.pick({ smoke: 1_000, default: 5_000, full: 5_000 });
    const layout = layoutFor(n, 1, 1);
    const plainWalk = new Walk(n, layout.bounds.maxX);
    const plain = regionOf(plainWalk, layout);
    const savers = [1, 10].map((every) => new Saving(n, layout, every));
    // A few ticks of each, interleaved, before timing: the first contender timed would otherwise pay for the others' start.
    for (let t = 0; t < 10; t++) {
      step(plain, plainWalk);
      for (const saver of savers) saver.tick();
    }
    context.bench(
      `one tick of a region of ${n.toLocaleString('en-US')} walkers`,
      [
        { name: 'no checkpoint', run: () => step(plain, plainWalk) },
        { name: 'a checkpoint every tick', run: () => savers[0].tick() },
        { name: 'a checkpoint every 10 ticks, a journal entry between (default)', run: () => savers[1].tick() },
      ],
      { opName: 'tick', minSamples: 10, headline: `Takeovers: a region's tick with its checkpoints (every 10 ticks), ${n.toLocaleString('en-US')} walkers` },
    );
    context.note(`what a region of ${n.toLocaleString('en-US')} walkers (range ${RANGE}, margin ${MARGIN}, all moving) saves, mean over the ticks timed: ${savers.map((s) => s.note()).join('; ')}`);
    const checkpoint = encodeCheckpoint(layout, { ...savers[0].region.checkpoint(), region: 0, epoch: 1, extra: new Uint8Array(0) });
    plain.dispose();
    for (const s of savers) s.region.dispose();

    if (!hasRedis()) {
      context.note('Redis cases skipped: no redis-server on this machine');
      return;
    }
    const { port, process: server } = await startRedisServer();
    const connections: Redis[] = [];
    const connect = (): Redis => {
      const c = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
      c.on('error', () => {});
      connections.push(c);
      return c;
    };
    try {
      const store = new RedisRegionBus(connect(), connect(), 'bench-save');
      const epoch = await store.claim(0, 1000, true);
      const saveMs: number[] = [];
      for (let k = 0; k < context.pick({ smoke: 5, default: 40, full: 200 }); k++) {
        const started = performance.now();
        await store.save(0, epoch, 1000, checkpoint);
        saveMs.push(performance.now() - started);
      }
      saveMs.sort((a, b) => a - b);
      context.note(`saving it in Redis (one Lua call, awaited at the start of a tick): median ${saveMs[saveMs.length >> 1].toFixed(2)} ms, p95 ${saveMs[Math.floor(saveMs.length * 0.95)].toFixed(2)} ms over ${saveMs.length}`);
      const down = await regionDown(context.pick({ smoke: 2_000, default: 20_000, full: 20_000 }), connect);
      context.note(
        `four regions of ${down.walkers.toLocaleString('en-US')} walkers in this process over Redis, default lease (1,000 ms) and standby poll (100 ms): ` +
          `a region's connections cut at a tick, heir claimed ${down.claimedMs.toFixed(0)} ms later, its rerun of the ticks since the checkpoint done at ${down.rerunMs.toFixed(0)} ms, ` +
          `the world's next tick done at ${down.nextTickMs.toFixed(0)} ms (a tick took ${down.tickMs.toFixed(0)} ms before)`,
      );
    } finally {
      for (const c of connections) c.disconnect();
      server.kill('SIGKILL');
    }
  },
};

/** Four peers over Redis; region 1's connections are cut at a tick, and a standby takes it over: the times from the cut. */
async function regionDown(walkers: number, connect: () => Redis): Promise<{ walkers: number; claimedMs: number; rerunMs: number; nextTickMs: number; tickMs: number }> {
  const layout = layoutFor(walkers, 2, 2);
  const prefix = `bench-down-${Date.now()}`;
  const walk = new Walk(walkers, layout.bounds.maxX);
  const endFor = (): { bus: RedisRegionBus; cut: () => void } => {
    const [pub, sub] = [connect(), connect()];
    return { bus: new RedisRegionBus(pub, sub, prefix), cut: () => [pub, sub].forEach((c) => c.disconnect()) };
  };
  const peerFor = (region: number, bus: RedisRegionBus): RegionPeer => new RegionPeer(layout, region, bus, { index: 'grid', takeover: { store: bus } });
  const ends = [0, 1, 2, 3].map(endFor);
  const peers = ends.map((end, region) => peerFor(region, end.bus));
  const standby = new RegionStandby(layout, endFor().bus, (region) => peerFor(region, endFor().bus));
  try {
    await Promise.all(peers.map((p) => p.start()));
    const submit = (first: boolean): void => {
      if (!first) walk.step();
      for (let i = 0; i < walkers; i++) {
        for (const p of peers) {
          if (first) p.add(walk.ids[i], walk.xs[i], walk.ys[i], RANGE, { margin: MARGIN });
          else if (p.owns(walk.ids[i])) p.move(walk.ids[i], walk.xs[i], walk.ys[i]);
        }
      }
    };
    let tickMs = 0;
    for (let t = 0; t < 5; t++) {
      submit(t === 0);
      const started = performance.now();
      await Promise.all(peers.map((p) => p.tick()));
      tickMs = performance.now() - started;
    }
    const cut = performance.now();
    ends[1].cut();
    const survivors = Promise.all([0, 2, 3].map((r) => peers[r].tick()));
    const heir = await standby.next();
    const claimedMs = performance.now() - cut;
    const lost = peers[1];
    peers[1] = heir;
    await lost.close();
    while (heir.ticks < 5) await heir.tick();
    const rerunMs = performance.now() - cut;
    await Promise.all([survivors, heir.tick()]);
    const nextTickMs = performance.now() - cut;
    return { walkers, claimedMs, rerunMs, nextTickMs, tickMs };
  } finally {
    standby.close();
    await Promise.all(peers.map((p) => p.close()));
  }
}
