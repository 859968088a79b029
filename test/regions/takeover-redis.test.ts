// Takeovers over Redis, with RedisRegionBus as bus and store: a region whose
// connections die is taken over and the world equals one Scene of the
// recovered world at every tick (takeover-run.ts); and a holder whose lease
// was claimed while it ran can publish nothing more: Redis refuses it,
// however it wakes.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { init } from '../../src/index.js';
import { RedisRegionBus, RegionLayout, RegionPeer } from '../../src/regions/index.js';
import { startRedisServer } from '../../bench/redis-server.js';
import { runTakeover, type End } from './takeover-run.js';

let server: ChildProcess;
let port = 0;
const connections: Redis[] = [];

function connect(): Redis {
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  connections.push(redis);
  return redis;
}

beforeAll(async () => {
  await init();
  ({ process: server, port } = await startRedisServer());
});

afterAll(() => {
  for (const c of connections) c.disconnect();
  server?.kill('SIGKILL');
});

describe('takeovers over Redis', () => {
  it('take a region whose connections died over from its checkpoint, with the events of one Scene', async () => {
    const prefix = `takeover-${Date.now()}`;
    const endFor = (): End => {
      const [pub, sub] = [connect(), connect()];
      const bus = new RedisRegionBus(pub, sub, prefix);
      return { bus, store: bus, kill: () => [pub, sub].forEach((c) => c.disconnect()) };
    };
    const run = await runTakeover(endFor, 2, 30, 60, { backend: 'wasm', timeoutMs: 200, takeover: { store: endFor().store, leaseMs: 300 } });
    expect(run.takeoverMs).toBeLessThan(3000);
  });

  it('refuse every publish and checkpoint of a holder whose lease was claimed while it ran', async () => {
    const prefix = `fence-${Date.now()}`;
    const two = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
    const bus = (): RedisRegionBus => new RedisRegionBus(connect(), connect(), prefix);
    const buses = [bus(), bus()];
    const peers = buses.map((b, id) => new RegionPeer(two(), id, b, { backend: 'js', timeoutMs: 200, takeover: { store: b, leaseMs: 5000 } }));
    await Promise.all(peers.map((p) => p.start()));
    peers[0].add(1, 48, 10, 5);
    peers[1].add(2, 52, 10, 5);
    for (let t = 0; t < 3; t++) await Promise.all(peers.map((p) => p.tick()));

    // Everything published on the common channel, in Redis's order: [sender, epoch] of each frame.
    const heard: Array<[number, number]> = [];
    const listener = connect();
    listener.on('messageBuffer', (_channel: Buffer, m: Buffer) => heard.push([m.readInt32LE(1), m.readInt32LE(5)]));
    await listener.subscribe(`${prefix}:all`);

    // Region 1's holder is stalled (its lease, 5 s, has not lapsed): its lease is taken as if it had.
    await connect().del(`${prefix}:lease:1`);
    const heir = new RegionPeer(two(), 1, bus(), { backend: 'js', timeoutMs: 200, takeover: { store: bus(), leaseMs: 5000 } });
    expect(await heir.takeOver()).toBe(true);
    const [, old] = await Promise.allSettled([peers[0].tick(), peers[1].tick(), heir.tick().then(async () => {
        while (heir.ticks <= 3) await heir.tick();
      })]);
    expect(old).toMatchObject({ status: 'rejected', reason: { code: 'REGION_SUPERSEDED' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // From the heir's first frame on, region 1 is heard only at epoch 2.
    const fromOne = heard.filter(([from]) => from === 1).map(([, epoch]) => epoch);
    expect(fromOne.slice(fromOne.indexOf(2))).toEqual(fromOne.slice(fromOne.indexOf(2)).map(() => 2));
    expect(fromOne).toContain(2);
    // Its checkpoint is the heir's: the stalled holder's saves are refused too.
    expect([heir.holderEpoch, peers[0].lostRegions]).toEqual([2, []]);
    await Promise.all([...peers, heir].map((p) => p.close()));
  });
});
