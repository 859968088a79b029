// Regions run apart, over a bus: peers in lockstep report what a RegionWorld
// reports; a peer whose neighbour stops answering gets a REGION_TIMEOUT
// after its timeout and goes on (no hang); refused operations change nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, SpatialError } from '../../src/index.js';
import { RegionLayout, RegionPeer, RegionWorld } from '../../src/regions/index.js';
import { codeOf } from '../support/codes.js';
import { MemoryBus } from '../support/memory-bus.js';
import { applyToScene, applyToWorld, byPair, Walkers, type WalkerSizes } from './walkers.js';

beforeAll(() => init());

const SIZES: WalkerSizes = { size: 120, borders: [40, 60, 80], maxRange: 5, margin: 2, maxStep: 2 };
const layout = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 120, maxY: 120 }, 2, 2, SIZES);

describe('RegionPeer', () => {
  it('runs four regions in lockstep over a bus with the events of a RegionWorld', async () => {
    const bus = new MemoryBus();
    const peers = [0, 1, 2, 3].map((id) => new RegionPeer(layout(), id, bus.for(), { backend: 'js' }));
    const world = new RegionWorld(layout(), { backend: 'js' });
    const walkers = [0, 1, 2, 3].map(() => new Walkers(SIZES, 60, 99));
    const reference = new Walkers(SIZES, 60, 99);
    await Promise.all(peers.map((p) => p.start()));
    let handoffs = 0;
    for (let t = 0; t < 60; t++) {
      for (const op of t === 0 ? reference.start() : reference.next()) applyToWorld(world, op);
      peers.forEach((p, i) => {
        for (const op of t === 0 ? walkers[i].start() : walkers[i].next()) applyToWorld(p, op);
      });
      const ticks = await Promise.all(peers.map((p) => p.tick()));
      const want = world.tick();
      expect(byPair(Int32Array.from(ticks.flatMap((r) => [...r.events]))), `tick ${t}`).toEqual(byPair(want));
      handoffs += ticks[0].handoffs.length;
    }
    expect(handoffs).toBeGreaterThan(50);
    world.dispose();
    await Promise.all(peers.map((p) => p.close()));
  });

  it('times out on a neighbour that stops answering with REGION_TIMEOUT, then goes on without it', async () => {
    const bus = new MemoryBus();
    const timeouts: Array<[string, number[]]> = [];
    const two = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
    const left = new RegionPeer(two, 0, bus.for(), { backend: 'js', timeoutMs: 100, onTimeout: (e, regions) => timeouts.push([e.code, regions]) });
    const right = new RegionPeer(two, 1, bus.for(), { backend: 'js' });
    await Promise.all([left.start(), right.start()]);
    left.add(1, 48, 10, 5);
    right.add(1, 48, 10, 5);
    right.add(2, 52, 10, 5);
    left.add(2, 52, 10, 5);
    const [a, b] = await Promise.all([left.tick(), right.tick()]);
    expect([byPair(a.events), byPair(b.events)]).toEqual([['1 2: 0'], ['2 1: 0']]);

    // Region 1 stops ticking: region 0's next tick ends after its timeout, reporting it.
    const started = Date.now();
    const lone = await left.tick();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(timeouts).toEqual([['REGION_TIMEOUT', [1]]]);
    expect(left.lostRegions).toEqual([1]);
    expect([left.has(1), left.has(2)]).toEqual([true, false]);
    // Entity 2, owned by the lost region, leaves the view of 1; later ticks need no wait.
    expect(byPair(lone.events)).toEqual(['1 2: 1']);
    left.move(1, 47, 10);
    const next = Date.now();
    await left.tick();
    expect(Date.now() - next).toBeLessThan(100);
    expect(timeouts).toHaveLength(1);
    await Promise.all([left.close(), right.close()]);
  });

  it('forgets the entities of a lost region that only its own process added: its neighbours see them leave, and their ids are free', async () => {
    const bus = new MemoryBus();
    const two = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
    const left = new RegionPeer(two, 0, bus.for(), { backend: 'js', timeoutMs: 100, onTimeout: () => {} });
    const right = new RegionPeer(two, 1, bus.for(), { backend: 'js' });
    const single = new Scene({ backend: 'js', events: 'net' });
    /** The single Scene's events for the watchers region 0 owns. */
    const leftOf = (flat: Int32Array): string[] => byPair(flat).filter((pair) => left.region.owns(Number(pair.split(' ')[0])));
    await Promise.all([left.start(), right.start()]);
    // Each process adds its own players only: region 0 never hears of 2 and 3 but through ghosts.
    for (const w of [left, single]) w.add(1, 48, 10, 5);
    for (const w of [right, single]) {
      w.add(2, 52, 10, 5);
      w.add(3, 51, 12, null);
    }
    const [first] = await Promise.all([left.tick(), right.tick()]);
    expect(byPair(first.events)).toEqual(leftOf(single.drainArray()));
    expect(left.region.query(1)).toEqual([2, 3]);

    // Region 1 falls silent: at that tick 2 and 3 leave 1's view, as if removed from one Scene of the world.
    left.move(1, 47, 10);
    single.move(1, 47, 10);
    single.remove(2);
    single.remove(3);
    const lone = await left.tick();
    expect(left.lostRegions).toEqual([1]);
    expect(byPair(lone.events)).toEqual(leftOf(single.drainArray()));
    expect(byPair(lone.events)).toEqual(['1 2: 1', '1 3: 1']);
    expect(left.region.query(1)).toEqual([]);
    expect(left.region.ghostIds()).toEqual([]);
    expect(codeOf(() => left.region.position(2))).toBe('UNKNOWN_ID');
    expect(codeOf(() => left.ownerOf(2))).toBe('UNKNOWN_ID');

    // Their ids are free: 2 comes back in region 0, a new entity.
    expect(left.add(2, 46, 10, 5)).toBe(true);
    single.add(2, 46, 10, 5);
    const again = await left.tick();
    expect(byPair(again.events)).toEqual(leftOf(single.drainArray()));
    expect(byPair(again.events)).toEqual(['1 2: 0', '2 1: 0']);
    single.dispose();
    await Promise.all([left.close(), right.close()]);
  });

  it('names the regions start() waits for, and gives up on them after startTimeoutMs with REGION_TIMEOUT', async () => {
    const bus = new MemoryBus();
    const two = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
    const alone = new RegionPeer(two, 0, bus.for(), { backend: 'js', startTimeoutMs: 200 });
    expect(alone.waitingFor).toEqual([0, 1]);
    const error = await alone.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpatialError);
    expect((error as SpatialError).code).toBe('REGION_TIMEOUT');
    expect((error as SpatialError).message).toMatch(/never heard from regions 1 in 200 ms/);
    expect(alone.waitingFor).toEqual([1]);
    await alone.close();
  });

  it('goes on without a region that dies between sending its ghost batch and its "done"', async () => {
    const bus = new MemoryBus();
    const two = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
    const left = new RegionPeer(two, 0, bus.for(), { backend: 'js', timeoutMs: 100, onTimeout: () => {} });
    // Region 1's bus loses its "done" frames once it is dying, as when its process is killed between the two sends.
    const rightBus = bus.for();
    let dying = false;
    const DONE_FRAME = 3;
    const right = new RegionPeer(two, 1, { ...rightBus, publish: (to, bytes) => (dying && bytes[0] === DONE_FRAME ? undefined : rightBus.publish(to, bytes)) }, { backend: 'js' });
    await Promise.all([left.start(), right.start()]);
    for (const peer of [left, right]) {
      peer.add(1, 48, 10, 5);
      peer.add(2, 52, 10, 5);
    }
    await Promise.all([left.tick(), right.tick()]);
    dying = true;
    for (const peer of [left, right]) peer.move(2, 51, 10); // a ghost move in region 1's batch to region 0
    const [lone] = await Promise.all([left.tick(), right.tick()]);
    expect(left.lostRegions).toEqual([1]);
    expect(byPair(lone.events)).toEqual(['1 2: 1']);
    left.move(1, 47, 10);
    expect(byPair((await left.tick()).events)).toEqual([]);
    await Promise.all([left.close(), right.close()]);
  });

  it('owns an entity removed and added again in another region within a tick where it is added, in ownerOf and add', async () => {
    const bus = new MemoryBus();
    const two = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
    const left = new RegionPeer(two, 0, bus.for(), { backend: 'js' });
    const right = new RegionPeer(two, 1, bus.for(), { backend: 'js' });
    const single = new Scene({ backend: 'js', events: 'net' });
    await Promise.all([left.start(), right.start()]);
    for (const w of [left, right, single]) {
      w.add(1, 48, 10, 5); // region 0
      w.add(2, 52, 10, 5); // region 1
    }
    await Promise.all([left.tick(), right.tick()]);
    single.drainArray();
    expect([left.remove(1), right.remove(1)]).toEqual([true, false]);
    expect([left.add(1, 54, 10, 5), right.add(1, 54, 10, 5)]).toEqual([false, true]);
    expect([left.ownerOf(1), right.ownerOf(1)]).toEqual([1, 1]);
    expect([left.move(1, 55, 10), right.move(1, 55, 10)]).toEqual([false, true]);
    single.remove(1);
    single.add(1, 54, 10, 5);
    single.move(1, 55, 10);
    const [a, b] = await Promise.all([left.tick(), right.tick()]);
    expect(byPair(Int32Array.from([...a.events, ...b.events]))).toEqual(byPair(single.drainArray()));
    expect([left.ownerOf(1), right.ownerOf(1)]).toEqual([1, 1]);
    expect([left.region.ownedIds(), right.region.ownedIds()]).toEqual([[], [1, 2]]);
    single.dispose();
    await Promise.all([left.close(), right.close()]);
  });

  it('refuses an entity outside every region, and a range beyond the layout, changing nothing', async () => {
    const bus = new MemoryBus();
    const peer = new RegionPeer(RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 1, 1, { maxRange: 5, maxStep: 2 }), 0, bus.for(), { backend: 'js' });
    await peer.start();
    expect(codeOf(() => peer.add(1, 100.5, 10))).toBe('OUTSIDE_REGIONS');
    expect(codeOf(() => peer.add(1, 10, 10, 6))).toBe('RANGE_TOO_LARGE');
    expect(peer.add(1, 10, 10, 5)).toBe(true);
    expect(codeOf(() => peer.move(1, -1, 10))).toBe('OUTSIDE_REGIONS');
    await peer.tick();
    expect(peer.region.ownedIds()).toEqual([1]);
    expect(peer.ownerOf(1)).toBe(0);
    expect(() => peer.ownerOf(2)).toThrow(SpatialError);
    await peer.close();
  });

  it('refuses a layout, a bus or options of the wrong kind, and masks that are not 32-bit integers, changing nothing', async () => {
    const bus = new MemoryBus();
    const two = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
    for (const bad of [null, undefined, { regions: two.regions }]) expect(codeOf(() => new RegionPeer(bad as never, 0, bus.for()))).toBe('INVALID_LAYOUT');
    for (const bad of [null, {}, { ...bus.for(), close: 1 }]) expect(codeOf(() => new RegionPeer(two, 0, bad as never, { backend: 'js' }))).toBe('INVALID_ARGUMENT');
    const refused: Array<[unknown, string]> = [
      [null, 'INVALID_ARGUMENT'],
      [5, 'INVALID_ARGUMENT'],
      [{ backend: 'js', timeotMs: 100 }, 'INVALID_ARGUMENT'],
      [{ backend: 'js', lockstep: 'no' }, 'INVALID_ARGUMENT'],
      [{ backend: 'js', onTimeout: 1 }, 'INVALID_ARGUMENT'],
      [{ backend: 'js', timeoutMs: NaN }, 'INVALID_NUMBER'],
      [{ backend: 'js', timeoutMs: -1 }, 'INVALID_NUMBER'],
      [{ backend: 'js', startTimeoutMs: -1 }, 'INVALID_NUMBER'],
    ];
    for (const [options, code] of refused) expect(codeOf(() => new RegionPeer(two, 0, bus.for(), options as never)), JSON.stringify(options)).toBe(code);

    const left = new RegionPeer(two, 0, bus.for(), { backend: 'js' });
    const right = new RegionPeer(two, 1, bus.for(), { backend: 'js' });
    await Promise.all([left.start(), right.start()]);
    for (const peer of [left, right]) {
      peer.add(1, 48, 10, 5);
      peer.add(2, 52, 10, 5);
    }
    await Promise.all([left.tick(), right.tick()]);
    for (const [layer, sees] of [[undefined, 1], [1, undefined], [1, 2 ** 32]]) {
      expect(codeOf(() => left.setLayers(1, layer as never, sees as never)), `${layer}, ${sees}`).toBe('INVALID_ARGUMENT');
    }
    const [a, b] = await Promise.all([left.tick(), right.tick()]);
    expect([byPair(a.events), byPair(b.events)]).toEqual([[], []]);
    expect([left.region.query(1), right.region.query(2)]).toEqual([[2], [1]]);
    await Promise.all([left.close(), right.close()]);
  });

  it('without lockstep, keeps every ghost exactly one tick behind its owner, and each entity owned once', async () => {
    const bus = new MemoryBus();
    const peers = [0, 1, 2, 3].map((id) => new RegionPeer(layout(), id, bus.for(), { backend: 'js', lockstep: false }));
    const single = new Scene({ backend: 'js' });
    const walkers = [0, 1, 2, 3].map(() => new Walkers(SIZES, 60, 17));
    const reference = new Walkers(SIZES, 60, 17);
    await Promise.all(peers.map((p) => p.start()));
    let before = new Map<number, [number, number]>();
    let ghosts = 0;
    for (let t = 0; t < 80; t++) {
      applyToScene(single, t === 0 ? reference.start() : reference.next());
      peers.forEach((p, i) => {
        for (const op of t === 0 ? walkers[i].start() : walkers[i].next()) applyToWorld(p, op);
      });
      await Promise.all(peers.map((p) => p.tick()));
      for (const p of peers) {
        for (const id of p.region.ghostIds()) {
          const { x, y } = p.region.position(id);
          expect([x, y], `ghost ${id} in region ${p.id} after tick ${t}`).toEqual(before.get(id));
          ghosts++;
        }
      }
      const owned = peers.flatMap((p) => p.region.ownedIds()).sort((a, b) => a - b);
      expect(owned, `owned after tick ${t}`).toEqual(single.ids().sort((a, b) => a - b));
      for (const p of peers) for (const id of p.region.ownedIds()) expect(p.layout.regionAt(single.position(id).x, single.position(id).y)).toBe(p.id);
      before = new Map(single.ids().map((id) => [id, [single.position(id).x, single.position(id).y]]));
    }
    expect(ghosts).toBeGreaterThan(500);
    single.dispose();
    await Promise.all(peers.map((p) => p.close()));
  });
});
