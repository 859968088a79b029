// A world of four regions on three Colyseus server processes, with Redis for
// presence, matchmaking and the ghost batches, behaves like one Scene: every
// tick, in lockstep, the rooms' events for the watchers they own are the
// single Scene's, pair for pair, and every entity is owned by exactly one
// room. When a process dies, the others go on (after one REGION_TIMEOUT)
// and no entity is ever owned twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { init, Scene } from '../../src/index.js';
import { applyToScene, byPair, Walkers } from './walkers.js';
import { Cluster } from './rooms/cluster.js';
import { ROOM_LAYOUT, ROOM_SIZES } from './rooms/protocol.js';

const cluster = new Cluster();
const REGIONS = [0, 1, 2, 3];
/** Three processes: the first hosts two regions. */
const PROCESSES = [[0, 1], [2], [3]];

beforeAll(async () => {
  await init();
  await cluster.start();
});
afterAll(() => cluster.stop());
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.log(cluster.output);
});

describe('region rooms on three processes over Redis', () => {
  it('agree with one Scene pair for pair at every tick, each entity owned once', async () => {
    const prefix = `lockstep-${process.pid}`;
    const settings = { seed: 20261125, walkers: 150, ticks: 300, prefix, timeoutMs: 10_000 };
    const reports = await cluster.listen(prefix);
    await Promise.all(PROCESSES.map((regions) => cluster.process({ ...settings, regions })));

    const layout = ROOM_LAYOUT();
    const single = new Scene({ backend: 'js', events: 'net' });
    const walkers = new Walkers(ROOM_SIZES, settings.walkers, settings.seed);
    let crossings = 0;
    let lastOwner = new Map<number, number>();
    let events = 0;
    try {
      for (let t = 0; t < settings.ticks; t++) {
        applyToScene(single, t === 0 ? walkers.start() : walkers.next());
        const want = single.drainArray();
        await reports.until(t, REGIONS, 20_000);
        const got = [...reports.of(t).values()];
        expect(byPair(Int32Array.from(got.flatMap((r) => [...r.events]))), `tick ${t}`).toEqual(byPair(want));
        events += want.length / 3;
        const owners = new Map<number, number[]>();
        for (const r of got) for (const id of r.owned) owners.set(id, [...(owners.get(id) ?? []), r.region]);
        for (const id of single.ids()) {
          const { x, y } = single.position(id);
          expect(owners.get(id), `owner of ${id} at tick ${t}`).toEqual([layout.regionAt(x, y)]);
        }
        expect(owners.size).toBe(single.size);
        for (const [id, [region]] of owners) if (lastOwner.has(id) && lastOwner.get(id) !== region) crossings++;
        lastOwner = new Map([...owners].map(([id, [region]]) => [id, region]));
      }
    } finally {
      single.dispose();
    }
    expect(reports.timeouts).toEqual([]);
    expect(events).toBeGreaterThan(1000);
    expect(crossings).toBeGreaterThan(300);
  }, 60_000);

  it('go on without a process that dies, reporting REGION_TIMEOUT once, never owning an entity twice', async () => {
    const prefix = `fault-${process.pid}`;
    const settings = { seed: 7, walkers: 150, ticks: 200, prefix, timeoutMs: 1000 };
    const reports = await cluster.listen(prefix);
    const [, , third] = await Promise.all(PROCESSES.map((regions) => cluster.process({ ...settings, regions })));
    await reports.until(50, REGIONS, 20_000);
    third.kill('SIGKILL'); // region 3's process
    const survivors = [0, 1, 2];
    await reports.until(settings.ticks - 1, survivors, 30_000);

    // Every survivor gave up on region 3 once, with a code, and went on to the last tick.
    expect(reports.timeouts.map((r) => [r.region, r.code, r.regions]).sort()).toEqual(survivors.map((r) => [r, 'REGION_TIMEOUT', [3]]));
    let lastOfDead = 0;
    for (let t = 0; t < settings.ticks; t++) {
      const got = [...reports.of(t).values()];
      expect(survivors.every((r) => reports.of(t).has(r)), `tick ${t}`).toBe(true);
      if (reports.of(t).has(3)) lastOfDead = t;
      const owned = got.flatMap((r) => r.owned);
      expect(new Set(owned).size, `tick ${t}: an entity owned twice`).toBe(owned.length);
    }
    expect(lastOfDead).toBeGreaterThanOrEqual(50);
    expect(lastOfDead).toBeLessThan(settings.ticks - 1);
  }, 60_000);
});
