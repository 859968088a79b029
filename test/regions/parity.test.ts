// A world split into regions behaves, event for event, like one Scene of the
// whole world: each tick, the union of the regions' events for the watchers
// they own equals the single Scene's, pair for pair, over walkers that pace
// back and forth across borders every tick, circle corners where four
// regions meet, teleport, change ranges (boxes, circles, margins, markers)
// and layers, and are removed and added again inside the ghost band. And
// at every tick exactly one region owns each entity: the one its position
// lies in.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, type Backend, type SceneIndex } from '../../src/index.js';
import { RegionLayout, RegionWorld } from '../../src/regions/index.js';
import { applyToScene, applyToWorld, byPair, Walkers, type WalkerSizes } from './walkers.js';

beforeAll(() => init());

const SIZES: WalkerSizes = { size: 120, borders: [40, 60, 80], maxRange: 5, margin: 2, maxStep: 2 };

/** Layouts the walkers' borders cut: a 2 × 2 grid meeting at (60, 60), and five unequal rectangles (a T-junction and a corner of four). */
const LAYOUTS: Record<string, () => RegionLayout> = {
  'grid 2x2': () => RegionLayout.grid({ minX: 0, minY: 0, maxX: 120, maxY: 120 }, 2, 2, SIZES),
  'five unequal': () =>
    new RegionLayout({
      ...SIZES,
      regions: [
        { id: 10, minX: 0, minY: 0, maxX: 40, maxY: 60 },
        { id: 11, minX: 0, minY: 60, maxX: 40, maxY: 120 },
        { id: 12, minX: 40, minY: 0, maxX: 80, maxY: 60 },
        { id: 13, minX: 80, minY: 0, maxX: 120, maxY: 60 },
        { id: 14, minX: 40, minY: 60, maxX: 120, maxY: 120 },
      ],
    }),
};

interface Run {
  crossings: number;
  events: number;
}

/** Runs `ticks` ticks of a walker world on regions and on one Scene, checking events and ownership at every tick. */
function compare(layout: RegionLayout, backend: Backend, index: SceneIndex, moveEvents: boolean, seed: number, count: number, ticks: number): Run {
  // Batches cross as bytes when move events are off, as between processes.
  const world = new RegionWorld(layout, { backend, index, moveEvents, wire: !moveEvents });
  const single = new Scene({ backend, index, moveEvents, events: 'net' });
  const walkers = new Walkers(SIZES, count, seed);
  const run: Run = { crossings: 0, events: 0 };
  try {
    for (let t = 0; t < ticks; t++) {
      const ops = t === 0 ? walkers.start() : walkers.next();
      for (const op of ops) applyToWorld(world, op);
      applyToScene(single, ops);
      const got = world.tick();
      const want = single.drainArray();
      expect(byPair(got), `tick ${t}, seed ${seed}`).toEqual(byPair(want));
      run.crossings += world.traffic.handoffs;
      run.events += want.length / 3;
      for (const id of single.ids()) {
        const owners = world.regions.filter((r) => r.owns(id)).map((r) => r.id);
        const { x, y } = single.position(id);
        expect(owners, `owner of ${id} at tick ${t}`).toEqual([layout.regionAt(x, y)]);
      }
      expect(world.regions.reduce((n, r) => n + r.ownedCount, 0)).toBe(single.size);
    }
  } finally {
    world.dispose();
    single.dispose();
  }
  return run;
}

describe.each(Object.keys(LAYOUTS))('regions against one Scene (%s)', (name) => {
  const cases: Array<[Backend, SceneIndex, boolean]> = [
    ['wasm', 'grid', true],
    ['js', 'lists', true],
    ['wasm', 'lists', false],
  ];
  // Every run crosses borders hundreds of times (1,000 to 2,600 over 60 seeds
  // of the 2 × 2 grid), so each case checks thousands of hand-offs.
  it.each(cases)('agrees pair for pair at every tick (%s, %s index, move events %s)', (backend, index, moveEvents) => {
    const totals: Run = { crossings: 0, events: 0 };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const run = compare(LAYOUTS[name](), backend, index, moveEvents, seed, 90, 150);
        expect(run.crossings, `border crossings, seed ${seed}`).toBeGreaterThan(500);
        totals.events += run.events;
      }),
      { numRuns: 3 },
    );
    expect(totals.events).toBeGreaterThan(10_000);
  });
});
