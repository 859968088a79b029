// A region whose process dies is taken over from its checkpoint by a
// standby, and the world goes on as one Scene of the recovered world (see
// takeover-run.ts), here over an in-process bus and store; checkpoints
// that are missing, cut short, altered or of another layout are refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { init } from '../../src/index.js';
import { RegionLayout, RegionPeer, RegionStandby } from '../../src/regions/index.js';
import { MemoryBus } from '../support/memory-bus.js';
import { runTakeover, takeoverLayout } from './takeover-run.js';

beforeAll(() => init());

describe('a region taken over from its checkpoint', () => {
  // Region 0 dies at a tick that starts with a checkpoint, region 3 seven ticks after one.
  it.each([
    [0, 1, 40],
    [3, 10, 47],
  ])('goes on as one Scene of the recovered world when region %i dies (a checkpoint every %i ticks, death at tick %i)', async (lost, every, killAt) => {
    const bus = new MemoryBus();
    const endFor = () => {
      const end = bus.for();
      return { bus: end, store: end, kill: () => end.kill() };
    };
    const run = await runTakeover(endFor, lost, killAt, 80, { backend: 'js', timeoutMs: 50, takeover: { store: bus.for(), every, leaseMs: 60, takeoverMs: 5000 } });
    expect(run.handoffs).toBeGreaterThan(100);
  });

  it('goes on as one Scene of the recovered world when the standby that takes the region over dies during the takeover', async () => {
    const bus = new MemoryBus();
    const endFor = () => {
      const end = bus.for();
      return { bus: end, store: end, kill: () => end.kill() };
    };
    await runTakeover(endFor, 1, 45, 70, { backend: 'js', timeoutMs: 50, takeover: { store: bus.for(), leaseMs: 60, takeoverMs: 5000 } }, 2);
  });
});

/** Two regions over a memory bus, with takeovers; region 1's holder dies after `ticks` ticks. */
async function twoRegions(bus: MemoryBus, ticks: number, takeoverMs: number) {
  const two = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
  const timeouts: number[][] = [];
  const ends = [bus.for(), bus.for()];
  const peers = ends.map((end, id) => new RegionPeer(two(), id, end, { backend: 'js', timeoutMs: 50, takeover: { store: end, leaseMs: 60, takeoverMs }, onTimeout: (_, r) => timeouts.push(r) }));
  await Promise.all(peers.map((p) => p.start()));
  peers[0].add(1, 48, 10, 5);
  peers[1].add(2, 52, 10, 5);
  for (let t = 0; t < ticks; t++) await Promise.all(peers.map((p) => p.tick()));
  return { two, ends, peers, timeouts };
}

describe('a checkpoint that cannot be trusted', () => {
  const other = async (): Promise<Uint8Array> => {
    const bus = new MemoryBus();
    const end = bus.for();
    const shifted = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 6, maxStep: 2 });
    const peer = new RegionPeer(shifted, 1, end, { backend: 'js', takeover: { store: end } });
    const left = new RegionPeer(shifted, 0, bus.for(), { backend: 'js' });
    await Promise.all([peer.start(), left.start()]);
    await Promise.all([peer.tick(), left.tick()]);
    await Promise.all([peer.close(), left.close()]);
    return bus.checkpointOf(1)!;
  };
  const damages: Record<string, (bytes: Uint8Array, bus: MemoryBus) => Promise<Uint8Array | null>> = {
    missing: async () => null,
    'cut short': async (bytes) => bytes.slice(0, bytes.length - 3),
    altered: async (bytes) => {
      const copy = bytes.slice();
      copy[copy.length - 9] ^= 0x40;
      return copy;
    },
    "another layout's": () => other(),
    'its journal has a gap': async (bytes, bus) => {
      bus.dropJournalEntry(1, 0);
      return bytes;
    },
  };

  it.each(Object.keys(damages))('is refused when %s: INVALID_SNAPSHOT, and the region stays lost', async (damage) => {
    const bus = new MemoryBus();
    const { two, ends, peers, timeouts } = await twoRegions(bus, 3, 300);
    ends[1].kill();
    bus.replaceCheckpoint(1, await damages[damage](bus.checkpointOf(1)!, bus));
    const refused: Array<[string, number]> = [];
    const standby = new RegionStandby(two(), bus.for(), (region) => new RegionPeer(two(), region, bus.for(), { backend: 'js', takeover: { store: bus.for() } }), {
      onError: (error, region) => refused.push([error.code, region]),
    });
    const waiting = standby.next();
    const lone = await peers[0].tick();
    standby.close();
    await expect(waiting).rejects.toMatchObject({ code: 'DISPOSED' });
    expect(refused).toEqual([['INVALID_SNAPSHOT', 1]]);
    // The survivor waited takeoverMs for a takeover that never came: region 1 is lost, as without takeovers.
    expect(timeouts).toEqual([[1]]);
    expect([lone.events.length, peers[0].lostRegions, peers[0].has(2)]).toEqual([3, [1], false]);
    await peers[0].close();
  });
});

describe('a holder whose region was taken over', () => {
  it('publishes nothing more and stops with REGION_SUPERSEDED', async () => {
    const bus = new MemoryBus();
    const { two, peers } = await twoRegions(bus, 3, 5000);
    // Region 1's holder stalls past its lease: a standby takes the region over while it still runs.
    bus.expireLease(1);
    const heir = new RegionPeer(two(), 1, bus.for(), { backend: 'js', takeover: { store: bus.for() } });
    expect(await heir.takeOver()).toBe(true);
    // The heir runs the ticks from its checkpoint's again, then tick 3 with the survivor.
    const [left, old, rerun] = await Promise.allSettled([peers[0].tick(), peers[1].tick(), heir.tick().then(async () => {
        while (heir.ticks <= 3) await heir.tick();
      })]);
    expect(old).toMatchObject({ status: 'rejected', reason: { code: 'REGION_SUPERSEDED' } });
    expect([left.status, rerun.status]).toEqual(['fulfilled', 'fulfilled']);
    expect([heir.holderEpoch, heir.owns(2), peers[0].lostRegions]).toEqual([2, true, []]);
    await Promise.all([...peers, heir].map((p) => p.close()));
  });
});

describe('a standby given bad options', () => {
  it.each([0, -1, NaN, Infinity, '100'])('refuses pollMs %s with INVALID_NUMBER', (pollMs) => {
    const bus = new MemoryBus();
    const layout = takeoverLayout();
    const make = (region: number) => new RegionPeer(layout, region, bus.for(), { backend: 'js', takeover: { store: bus.for() } });
    expect(() => new RegionStandby(layout, bus.for(), make, { pollMs: pollMs as number })).toThrow(expect.objectContaining({ code: 'INVALID_NUMBER', message: expect.stringContaining('pollMs') }));
  });
});
