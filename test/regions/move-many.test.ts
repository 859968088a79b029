// The batch path of a region world: moveMany on a RegionWorld or a
// RegionPeer gives the events of one Scene of the whole world, pair for
// pair, with the moves of a tick batched in any order of entities (each
// entity's own in order, some twice in a batch, teleports included), and
// refuses a batch with any bad entry with the Scene's code, changing nothing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene } from '../../src/index.js';
import { RegionLayout, RegionPeer, RegionWorld } from '../../src/regions/index.js';
import { mulberry32 } from '../../bench/random.js';
import { codeOf } from '../support/codes.js';
import { MemoryBus } from '../support/memory-bus.js';
import { runs } from '../support/sweep.js';
import { applyToScene, applyToWorld, byPair, Walkers, type WalkerSizes, type WorldOp } from './walkers.js';

beforeAll(() => init());

const SIZES: WalkerSizes = { size: 120, borders: [40, 60, 80], maxRange: 5, margin: 2, maxStep: 2 };
const layout = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 120, maxY: 120 }, 2, 2, SIZES);

type MoveManyTaker = Pick<RegionWorld, 'moveMany'> | Pick<RegionPeer, 'moveMany'>;
type Taker = Parameters<typeof applyToWorld>[0] & MoveManyTaker;

/**
 * A tick's operations reordered entity by entity in a random order (each
 * entity's kept in order), so the world meets ids out of order.
 */
function shuffledByEntity(ops: WorldOp[], random: () => number): WorldOp[] {
  const rank = new Map<number, number>();
  for (const op of ops) if (!rank.has(op.id)) rank.set(op.id, random());
  return ops.map((op, i) => [op, i] as const).sort((a, b) => rank.get(a[0].id)! - rank.get(b[0].id)! || a[1] - b[1]).map(([op]) => op);
}

/**
 * Applies ops in order, each run of consecutive moves as one moveMany
 * (typed arrays or plain ones); returns what the moveMany calls answered,
 * summed, and the number of moves whose entity `owns` said was the world's
 * just before each call.
 */
function applyBatched(world: Taker, ops: WorldOp[], typed: boolean, owns: (id: number) => boolean = () => true): [number, number] {
  let answered = 0;
  let owned = 0;
  for (let i = 0; i < ops.length; ) {
    if (ops[i].kind !== 'move') {
      applyToWorld(world, ops[i++]);
      continue;
    }
    const run: Array<Extract<WorldOp, { kind: 'move' }>> = [];
    while (i < ops.length && ops[i].kind === 'move') run.push(ops[i++] as Extract<WorldOp, { kind: 'move' }>);
    const ids = run.map((op) => op.id);
    const xs = run.map((op) => op.x);
    const ys = run.map((op) => op.y);
    owned += ids.filter(owns).length;
    const answer = typed ? world.moveMany(Int32Array.from(ids), Float64Array.from(xs), Float64Array.from(ys)) : world.moveMany(ids, xs, ys);
    answered += answer ?? run.length;
  }
  return [answered, owned];
}

describe('RegionWorld.moveMany', () => {
  it('agrees with one Scene pair for pair at every tick, moves batched in any order of entities', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), (seed, typed) => {
        const world = new RegionWorld(layout(), { backend: 'js', index: 'grid' });
        const single = new Scene({ backend: 'js', events: 'net' });
        const walkers = new Walkers(SIZES, 90, seed);
        const random = mulberry32(seed ^ 0x5bd1e995);
        let crossings = 0;
        try {
          for (let t = 0; t < 80; t++) {
            const ops = shuffledByEntity(t === 0 ? walkers.start() : walkers.next(), random);
            applyBatched(world, ops, typed);
            applyToScene(single, ops);
            expect(byPair(world.tick()), `tick ${t}, seed ${seed}`).toEqual(byPair(single.drainArray()));
            crossings += world.traffic.handoffs;
            for (const id of single.ids()) {
              const { x, y } = single.position(id);
              expect(world.ownerOf(id), `owner of ${id} at tick ${t}`).toBe(layout().regionAt(x, y));
            }
          }
        } finally {
          world.dispose();
          single.dispose();
        }
        expect(crossings).toBeGreaterThan(200);
      }),
      { numRuns: runs(8) },
    );
  });

  it('refuses a batch with any bad entry with the code Scene.moveMany gives, or OUTSIDE_REGIONS, moving nothing', () => {
    const world = new RegionWorld(layout(), { backend: 'js' });
    const twin = new RegionWorld(layout(), { backend: 'js' });
    for (const w of [world, twin]) {
      w.add(1, 58, 10, 5);
      w.add(2, 62, 10, 5);
      w.tick();
    }
    const ids = [1, 2];
    expect(codeOf(() => world.moveMany(7 as unknown as number[], [1], [1]))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => world.moveMany(ids, [59], [10, 10]))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => world.moveMany(ids, [59, NaN], [10, 10]))).toBe('INVALID_NUMBER');
    expect(codeOf(() => world.moveMany(ids, [59, 63], [10, Infinity]))).toBe('INVALID_NUMBER');
    expect(codeOf(() => world.moveMany([1, -2], [59, 63], [10, 10]))).toBe('INVALID_ID');
    expect(codeOf(() => world.moveMany([1, 2.5], [59, 63], [10, 10]))).toBe('INVALID_ID');
    expect(codeOf(() => world.moveMany([1, 9], [59, 63], [10, 10]))).toBe('UNKNOWN_ID');
    expect(codeOf(() => world.moveMany(ids, [59, 120.5], [10, 10]))).toBe('OUTSIDE_REGIONS');
    expect(codeOf(() => world.moveMany(ids, [59, 63], [10, -1]))).toBe('OUTSIDE_REGIONS');
    expect(byPair(world.tick())).toEqual(byPair(twin.tick()));
    expect([world.region(0).position(1), world.region(1).position(2)]).toEqual([
      { x: 58, y: 10 },
      { x: 62, y: 10 },
    ]);
    world.moveMany(ids, [61, 59], [10, 10]); // both cross x = 60, and still see each other
    twin.move(1, 61, 10);
    twin.move(2, 59, 10);
    expect(byPair(world.tick())).toEqual(byPair(twin.tick()));
    expect([world.ownerOf(1), world.ownerOf(2)]).toEqual([1, 0]);
    world.dispose();
    twin.dispose();
  });
});

describe('RegionPeer.moveMany', () => {
  it('runs four peers fed by moveMany with the events of a RegionWorld, and counts the entries it owns', async () => {
    const bus = new MemoryBus();
    const peers = [0, 1, 2, 3].map((id) => new RegionPeer(layout(), id, bus.for(), { backend: 'js' }));
    const world = new RegionWorld(layout(), { backend: 'js' });
    const walkers = [0, 1, 2, 3].map(() => new Walkers(SIZES, 60, 77));
    const reference = new Walkers(SIZES, 60, 77);
    const random = mulberry32(77);
    let mine = 0;
    await Promise.all(peers.map((p) => p.start()));
    try {
      for (let t = 0; t < 40; t++) {
        for (const op of t === 0 ? reference.start() : reference.next()) applyToWorld(world, op);
        const order = Math.floor(random() * 2 ** 30);
        peers.forEach((p, i) => {
          const ops = shuffledByEntity(t === 0 ? walkers[i].start() : walkers[i].next(), mulberry32(order));
          const [answered, owned] = applyBatched(p, ops, true, (id) => p.ownerOf(id) === p.id);
          expect(answered, `moves of region ${p.id}'s entities at tick ${t}`).toBe(owned);
          mine += owned;
        });
        const results = await Promise.all(peers.map((p) => p.tick()));
        expect(byPair(Int32Array.from(results.flatMap((r) => [...r.events]))), `tick ${t}`).toEqual(byPair(world.tick()));
      }
      expect(mine).toBeGreaterThan(1000);
    } finally {
      world.dispose();
      await Promise.all(peers.map((p) => p.close()));
    }
  });

  it('refuses a batch with a bad entry, queueing none of it', async () => {
    const bus = new MemoryBus();
    const peers = [0, 1, 2, 3].map((id) => new RegionPeer(layout(), id, bus.for(), { backend: 'js' }));
    await Promise.all(peers.map((p) => p.start()));
    for (const p of peers) p.add(1, 10, 10, 5);
    await Promise.all(peers.map((p) => p.tick()));
    for (const p of peers) expect(codeOf(() => p.moveMany([1, 1], [11, 12], [10, NaN]))).toBe('INVALID_NUMBER');
    for (const p of peers) expect(codeOf(() => p.moveMany([1, 1], [11, 130], [10, 10]))).toBe('OUTSIDE_REGIONS');
    await Promise.all(peers.map((p) => p.tick()));
    expect(peers[0].position(1)).toEqual({ x: 10, y: 10 });
    expect(peers.map((p) => p.moveMany([1], [11], [10]))).toEqual([1, 0, 0, 0]);
    await Promise.all(peers.map((p) => p.tick()));
    expect(peers[0].position(1)).toEqual({ x: 11, y: 10 });
    await Promise.all(peers.map((p) => p.close()));
  });
});
