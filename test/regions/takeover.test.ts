// A region whose process dies is taken over from its checkpoint by a
// standby, and the world goes on as one Scene of the recovered world: the
// one in which the lost holder's operations of the tick it died in never
// happened. Every entity of the region exists again, none is owned twice,
// and the new holder's rerun of the checkpoint's tick reports exactly what
// the lost holder reported.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, SpatialError } from '../../src/index.js';
import { RegionLayout, RegionPeer, RegionStandby, type RegionPeerOptions } from '../../src/regions/index.js';
import { MemoryBus, type MemoryEnd } from '../support/memory-bus.js';
import { applyToScene, applyToWorld, byPair, Walkers, type WalkerSizes, type WorldOp } from './walkers.js';

beforeAll(() => init());

const SIZES: WalkerSizes = { size: 120, borders: [40, 60, 80], maxRange: 5, margin: 2, maxStep: 2 };
const layout = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 120, maxY: 120 }, 2, 2, SIZES);
const options = (end: MemoryEnd): RegionPeerOptions => ({ backend: 'js', timeoutMs: 50, takeover: { store: end, leaseMs: 60, takeoverMs: 5000 } });

/** Applies op to a peer; a peer that took its region over knows only the entities of that region and those handed through it. */
function apply(peer: RegionPeer, op: WorldOp): void {
  try {
    applyToWorld(peer, op);
  } catch (error) {
    if (!(error instanceof SpatialError && error.code === 'UNKNOWN_ID')) throw error;
  }
}

/** True when region applies op's entity's operations of this tick, as peer (which has seen every operation) routes them. */
function appliedBy(peer: RegionPeer, region: number, op: WorldOp): boolean {
  if (op.kind === 'add') return peer.layout.regionAt(op.x, op.y) === region;
  return peer.has(op.id) && peer.ownerOf(op.id) === region;
}

describe('a region taken over from its checkpoint', () => {
  it.each([0, 3])('goes on as one Scene of the recovered world when region %i dies', async (lost) => {
    const bus = new MemoryBus();
    const ends = [0, 1, 2, 3].map(() => bus.for());
    const peers = ends.map((end, id) => new RegionPeer(layout(), id, end, options(end)));
    const single = new Scene({ backend: 'js', events: 'net' });
    const walkers = new Walkers(SIZES, 80, 4242);
    const standbyEnd = bus.for();
    const standby = new RegionStandby(layout(), standbyEnd, (region) => {
      const end = bus.for();
      return new RegionPeer(layout(), region, end, options(end));
    });
    await Promise.all(peers.map((p) => p.start()));
    const killAt = 40;
    let before: string[] = [];
    for (let t = 0; t < 80; t++) {
      let ops = t === 0 ? walkers.start() : walkers.next();
      if (t === killAt) {
        ends[lost].kill();
        ops = ops.filter((op) => !appliedBy(peers[lost], lost, op));
      }
      const live = peers.filter((_, i) => t !== killAt || i !== lost);
      for (const op of ops) for (const p of live) apply(p, op);
      applyToScene(single, ops);
      const ticking = Promise.all(live.map((p) => p.tick()));
      const events: number[] = [];
      if (t === killAt) {
        const heir = await standby.next();
        expect([heir.id, heir.holderEpoch]).toEqual([lost, 2]);
        // The checkpoint's tick again, reporting what the lost holder reported.
        expect(byPair((await heir.tick()).events)).toEqual(before);
        events.push(...(await heir.tick()).events);
        peers[lost] = heir;
      }
      const ticks = await ticking;
      for (const r of ticks) events.push(...r.events);
      expect(byPair(Int32Array.from(events)), `tick ${t}`).toEqual(byPair(single.drainArray()));
      if (t !== killAt) before = byPair(ticks[lost].events);
      expect(peers.reduce((n, p) => n + p.ownedCount, 0), `entities owned at tick ${t}`).toBe(single.size);
      for (const id of single.ids()) {
        const { x, y } = single.position(id);
        expect(peers.filter((p) => p.owns(id)).map((p) => p.id), `owner of ${id} at tick ${t}`).toEqual([layout().regionAt(x, y)]);
      }
    }
    standby.close();
    single.dispose();
    await Promise.all(peers.map((p) => p.close()));
  });
});
