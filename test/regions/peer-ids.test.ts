// An id is one entity in the whole world even where a peer's router never
// saw it: a region that holds a ghost of another process's entity refuses
// an add with its id, and its ticks go on as if the add had not been tried.
import { beforeAll, expect, it } from 'vitest';
import { init, SpatialError } from '../../src/index.js';
import { RegionLayout, RegionPeer } from '../../src/regions/index.js';
import { MemoryBus } from '../support/memory-bus.js';
import { byPair } from './walkers.js';

beforeAll(() => init());

it("refuses an add with the id of a neighbour's entity it holds as a ghost, with DUPLICATE_ID, and changes nothing", async () => {
  const two = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
  const bus = new MemoryBus();
  const left = new RegionPeer(two, 0, bus.for(), { backend: 'js' });
  const right = new RegionPeer(two, 1, bus.for(), { backend: 'js' });
  await Promise.all([left.start(), right.start()]);
  // Each process adds only its own entities: entity 1 is region 0's, and only region 0's peer has seen its add.
  left.add(1, 48, 10, 5);
  right.add(2, 53, 10, 5);
  await Promise.all([left.tick(), right.tick()]);
  expect(right.region.holdsGhost(1)).toBe(true);

  let refused: unknown = null;
  try {
    right.add(1, 54, 10, 5);
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(SpatialError);
  expect((refused as SpatialError).code).toBe('DUPLICATE_ID');
  expect(() => right.ownerOf(1)).toThrow(/UNKNOWN_ID/);

  // The next tick is that of a world where the add was never tried: 2 sees region 0's entity 1 move.
  left.move(1, 49, 10);
  const [a, b] = await Promise.all([left.tick(), right.tick()]);
  expect(byPair(a.events)).toEqual([]);
  expect(byPair(b.events)).toEqual(['2 1: 2']);
  expect(right.region.ownedIds()).toEqual([2]);
  await Promise.all([left.close(), right.close()]);
});
