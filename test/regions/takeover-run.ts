// One run of a world of four regions in which a region's holder dies
// mid-run and a standby takes the region over, checked at every tick
// against one Scene of the recovered world: the one in which the lost
// holder's operations of the tick it died in never happened. (The entities
// they were on then stand still for the rest of the run, so that the
// walkers' later operations never meet an entity that is not where, or
// not what, they expect.) Shared by the in-process test (a memory bus) and
// the Redis one.
import { expect } from 'vitest';
import { Scene, SpatialError } from '../../src/index.js';
import { RegionLayout, RegionPeer, RegionStandby, type RegionBus, type RegionPeerOptions, type RegionStore } from '../../src/regions/index.js';
import { applyToScene, applyToWorld, byPair, Walkers, type WalkerSizes, type WorldOp } from './walkers.js';

export const TAKEOVER_SIZES: WalkerSizes = { size: 120, borders: [40, 60, 80], maxRange: 5, margin: 2, maxStep: 2 };
export const takeoverLayout = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 120, maxY: 120 }, 2, 2, TAKEOVER_SIZES);

/** A region's link to the others and to the store, which a test can cut as its process's death would. */
export interface End {
  bus: RegionBus;
  store: RegionStore;
  kill(): void;
}

/** What a run measured. */
export interface TakeoverRun {
  /** Milliseconds from the death to the heir's rerun of the checkpoint's tick. */
  takeoverMs: number;
  /** Border crossings over the run. */
  handoffs: number;
}

/**
 * Applies op to a peer. A peer that took its region over knows only the
 * entities of that region and those handed through it: it refuses the
 * others' operations (UNKNOWN_ID), and the add of one it holds a ghost of
 * (DUPLICATE_ID), which their own processes apply.
 */
function apply(peer: RegionPeer, op: WorldOp, heir: boolean): void {
  try {
    applyToWorld(peer, op);
  } catch (error) {
    if (!(heir && error instanceof SpatialError && (error.code === 'UNKNOWN_ID' || error.code === 'DUPLICATE_ID'))) throw error;
  }
}

/** True when region applies op's entity's operations of this tick, as peer (which has seen every operation) routes them. */
function appliedBy(peer: RegionPeer, region: number, op: WorldOp): boolean {
  if (op.kind === 'add') return peer.layout.regionAt(op.x, op.y) === region;
  return peer.has(op.id) && peer.ownerOf(op.id) === region;
}

/** Runs `ticks` ticks of 80 walkers on four regions over ends made by endFor; region `lost` dies at tick `killAt`, and the first `heirs - 1` heirs die in turn during their takeover. */
export async function runTakeover(endFor: () => End, lost: number, killAt: number, ticks: number, options: RegionPeerOptions, heirs = 1): Promise<TakeoverRun> {
  const peerOptions = (end: End): RegionPeerOptions => ({ ...options, takeover: { ...options.takeover, store: end.store } });
  const ends = [0, 1, 2, 3].map(endFor);
  const peers = ends.map((end, id) => new RegionPeer(takeoverLayout(), id, end.bus, peerOptions(end)));
  const single = new Scene({ backend: options.backend, events: 'net' });
  const walkers = new Walkers(TAKEOVER_SIZES, 80, 4242);
  const standbyEnd = endFor();
  const standby = new RegionStandby(takeoverLayout(), standbyEnd.store, (region) => {
    const end = endFor();
    ends.push(end);
    return new RegionPeer(takeoverLayout(), region, end.bus, peerOptions(end));
  });
  const run: TakeoverRun = { takeoverMs: 0, handoffs: 0 };
  try {
    await Promise.all(peers.map((p) => p.start()));
    let before: string[] = [];
    // Entities whose operations died with the lost holder: they stand still from then on, in every world.
    const stopped = new Set<number>();
    for (let t = 0; t < ticks; t++) {
      let ops = t === 0 ? walkers.start() : walkers.next();
      if (t === killAt) {
        ends[lost].kill();
        for (const op of ops) if (appliedBy(peers[lost], lost, op)) stopped.add(op.id);
      }
      ops = ops.filter((op) => !stopped.has(op.id));
      const live = peers.filter((_, i) => t !== killAt || i !== lost);
      for (const op of ops) for (const p of live) apply(p, op, p.holderEpoch > 1);
      applyToScene(single, ops);
      const ticking = Promise.all(live.map((p) => p.tick()));
      const events: number[] = [];
      if (t === killAt) {
        const died = performance.now();
        let heir = await standby.next();
        // An heir that dies after one tick run again (its end is the last made): the next one takes the region over from the same checkpoint.
        for (let h = 1; h < heirs; h++) {
          await heir.tick();
          ends.at(-1)!.kill();
          await heir.close();
          heir = await standby.next();
        }
        expect([heir.id, heir.holderEpoch]).toEqual([lost, 1 + heirs]);
        // The checkpoint's tick and the journaled ones again, the last reporting what the lost holder reported.
        let rerun = await heir.tick();
        while (heir.ticks < killAt) rerun = await heir.tick();
        expect(byPair(rerun.events)).toEqual(before);
        run.takeoverMs = performance.now() - died;
        events.push(...(await heir.tick()).events);
        await peers[lost].close();
        peers[lost] = heir;
      }
      const results = await ticking;
      for (const r of results) events.push(...r.events);
      run.handoffs += results[0].handoffs.length;
      expect(byPair(Int32Array.from(events)), `tick ${t}`).toEqual(byPair(single.drainArray()));
      if (t !== killAt) before = byPair(results[lost].events);
      expect(peers.reduce((n, p) => n + p.ownedCount, 0), `entities owned at tick ${t}`).toBe(single.size);
      for (const id of single.ids()) {
        const { x, y } = single.position(id);
        expect(peers.filter((p) => p.owns(id)).map((p) => p.id), `owner of ${id} at tick ${t}`).toEqual([takeoverLayout().regionAt(x, y)]);
      }
    }
  } finally {
    standby.close();
    single.dispose();
    await Promise.all(peers.map((p) => p.close()));
    for (const end of [...ends, standbyEnd]) end.kill();
  }
  return run;
}
