// A world of regions in one process: a watcher sees across a border through
// ghosts, keeps what its margin holds when it crosses, each event comes from
// one region, and bad input is refused with a code and changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, type AoiEvent } from '../../src/index.js';
import { Region, RegionLayout, RegionWorld } from '../../src/regions/index.js';
import { codeOf } from '../support/codes.js';

beforeAll(() => init());

const TYPES: AoiEvent['type'][] = ['enter', 'leave', 'move'];
const events = (flat: Int32Array): string[] => {
  const out: string[] = [];
  for (let i = 0; i < flat.length; i += 3) out.push(`${TYPES[flat[i]]} ${flat[i + 1]} ${flat[i + 2]}`);
  return out.sort();
};

/** Two regions side by side, split at x = 50. */
const twoRegions = (): RegionWorld =>
  new RegionWorld(RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, margin: 2, maxStep: 2 }), { backend: 'js', index: 'lists' });

describe('RegionWorld', () => {
  it('lets a watcher see across a border through a ghost, and reports each event once', () => {
    const world = twoRegions();
    world.add(1, 48, 10, 5); // region 0
    world.add(2, 52, 10, 5); // region 1
    expect(events(world.tick())).toEqual(['enter 1 2', 'enter 2 1']);
    expect(world.region(0).ownedIds()).toEqual([1]);
    expect(world.region(0).ghostIds()).toEqual([2]);
    expect(world.region(1).ghostIds()).toEqual([1]);
    world.move(2, 53, 11);
    expect(events(world.tick())).toEqual(['move 1 2']);
    world.remove(2);
    expect(events(world.tick())).toEqual(['leave 1 2', 'leave 2 1']);
    expect(world.region(0).ghostIds()).toEqual([]);
    world.dispose();
  });

  it('hands a watcher over as it crosses, keeping a pair its margin holds, with no event', () => {
    const world = twoRegions();
    world.add(1, 49, 10, 5, { margin: 2 });
    world.add(2, 53, 10, null);
    world.tick();
    world.move(2, 55.5, 10); // 6.5 away: outside the range, inside range + margin: still seen
    expect(events(world.tick())).toEqual(['move 1 2']);
    world.move(1, 50.5, 10); // crosses into region 1; 2 is 5 away now
    world.move(2, 57, 10); // 6.5 away again: held by the margin
    expect(events(world.tick())).toEqual(['move 1 2']);
    expect(world.ownerOf(1)).toBe(1);
    expect(world.region(1).query(1)).toEqual([2]);
    expect(world.region(0).ghostIds()).toEqual([1, 2]);
    world.move(1, 49, 10); // back: 8 away, beyond range + margin
    expect(events(world.tick())).toEqual(['leave 1 2']);
    expect(world.ownerOf(1)).toBe(0);
    world.dispose();
  });

  it('hands over an entity that teleports to a region far away, ghosts following it', () => {
    const world = new RegionWorld(RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 10 }, 5, 1, { maxRange: 5, margin: 0, maxStep: 1 }), { backend: 'js' });
    world.add(1, 5, 5, 3);
    world.add(2, 90, 5, 3);
    world.add(3, 39, 5, 3); // region 1, so region 2 holds a ghost of it
    world.tick();
    world.move(1, 88, 5);
    expect(events(world.tick())).toEqual(['enter 1 2', 'enter 2 1']);
    expect(world.ownerOf(1)).toBe(4);
    world.move(3, 41, 5); // into region 2
    world.tick();
    expect(world.regions.map((r) => r.ownedIds())).toEqual([[], [], [3], [], [1, 2]]);
    expect(world.region(1).ghostIds()).toEqual([3]);
    world.dispose();
  });

  it('owns an entity removed and added again in another region within a tick where it is added', () => {
    const world = twoRegions();
    const single = new Scene({ backend: 'js', events: 'net' });
    for (const w of [world, single]) {
      w.add(1, 48, 10, 5); // region 0
      w.add(2, 52, 10, 5); // region 1
    }
    world.tick();
    single.drainArray();
    for (const w of [world, single]) {
      w.remove(1);
      w.add(1, 58, 10, 5); // region 1, 6 away from 2: beyond both ranges
    }
    expect(world.ownerOf(1)).toBe(1);
    expect(events(world.tick())).toEqual(events(single.drainArray()));
    expect(world.ownerOf(1)).toBe(1);
    expect(world.region(1).ownedIds()).toEqual([1, 2]);

    // Removed, added in region 0, removed and added in region 1 again: owned where it was added last.
    world.remove(1);
    world.add(1, 45, 10, 5);
    expect(world.ownerOf(1)).toBe(0);
    world.remove(1);
    world.add(1, 54, 10, 5);
    expect(world.ownerOf(1)).toBe(1);
    world.tick();
    expect(world.ownerOf(1)).toBe(1);

    // Added again in region 0 and moved back into region 1 within the tick: owned where it is added, then where the tick leaves it.
    world.remove(1);
    world.add(1, 45, 10, 5);
    world.move(1, 51, 10);
    expect(world.ownerOf(1)).toBe(0);
    world.tick();
    expect(world.ownerOf(1)).toBe(1);
    expect(world.regions.map((r) => r.ownedIds())).toEqual([[], [1, 2]]);
    world.dispose();
    single.dispose();
  });

  it('refuses bad operations with a code, changing nothing, and keeps running', () => {
    const world = twoRegions();
    world.add(1, 48, 10, 5);
    world.tick();
    expect(codeOf(() => world.add(2, 100.5, 10))).toBe('OUTSIDE_REGIONS');
    expect(codeOf(() => world.add(2, 10, 10, 6))).toBe('RANGE_TOO_LARGE');
    expect(codeOf(() => world.add(2, 10, 10, { radius: 5.5 }))).toBe('RANGE_TOO_LARGE');
    expect(codeOf(() => world.add(2, 10, 10, 1, { margin: 3 }))).toBe('RANGE_TOO_LARGE');
    expect(codeOf(() => world.add(2, NaN, 10))).toBe('INVALID_NUMBER');
    expect(codeOf(() => world.add(1, 10, 10))).toBe('DUPLICATE_ID');
    expect(codeOf(() => world.add(-1, 10, 10))).toBe('INVALID_ID');
    expect(codeOf(() => world.move(1, -1, 10))).toBe('OUTSIDE_REGIONS');
    expect(codeOf(() => world.move(9, 1, 10))).toBe('UNKNOWN_ID');
    expect(codeOf(() => world.setRange(1, { x: 1, y: 9 }))).toBe('RANGE_TOO_LARGE');
    expect(codeOf(() => world.setRange(1, -1))).toBe('NEGATIVE_RANGE');
    expect(codeOf(() => world.setLayers(1, 1.5, 1))).toBe('INVALID_ARGUMENT');
    expect(world.remove(9)).toBe(false);
    expect(world.size).toBe(1);
    expect(events(world.tick())).toEqual([]);
    world.add(2, 52, 10, 5);
    expect(events(world.tick())).toEqual(['enter 1 2', 'enter 2 1']);
    world.dispose();
  });

  it('refuses a layout with a gap or an overlap, and a default range beyond maxRange', () => {
    const sizes = { maxRange: 5, maxStep: 1 };
    const gap = { ...sizes, regions: [{ id: 0, minX: 0, minY: 0, maxX: 10, maxY: 10 }, { id: 1, minX: 11, minY: 0, maxX: 20, maxY: 10 }] };
    expect(codeOf(() => new RegionWorld(gap))).toBe('INVALID_LAYOUT');
    const overlap = { ...sizes, regions: [{ id: 0, minX: 0, minY: 0, maxX: 10, maxY: 10 }, { id: 1, minX: 5, minY: 0, maxX: 20, maxY: 10 }] };
    expect(codeOf(() => new RegionWorld(overlap))).toBe('INVALID_LAYOUT');
    const fine = { ...sizes, regions: [{ id: 0, minX: 0, minY: 0, maxX: 10, maxY: 10 }] };
    expect(codeOf(() => new RegionWorld(fine, { backend: 'js', defaultRange: 6 }))).toBe('RANGE_TOO_LARGE');
  });

  it('refuses a layout or options of the wrong kind, with a code', () => {
    const layout = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 5, maxStep: 2 });
    for (const bad of [null, undefined, 5]) expect(codeOf(() => new RegionWorld(bad as never)), String(bad)).toBe('INVALID_LAYOUT');
    for (const options of [null, 5, 'js', [], { backend: 'js', wire: 1 }, { backend: 'js', defaultRnage: 3 }]) {
      expect(codeOf(() => new RegionWorld(layout, options as never)), JSON.stringify(options)).toBe('INVALID_ARGUMENT');
    }
    expect(codeOf(() => new Region(null as never, 0))).toBe('INVALID_LAYOUT');
    expect(codeOf(() => new Region(layout, 0, null as never))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => new Region(layout, 0, { backend: 'js', wire: true } as never))).toBe('INVALID_ARGUMENT');
    const world = new RegionWorld(layout, { backend: 'js', wire: true });
    world.add(1, 10, 10);
    expect(world.tick()).toEqual(new Int32Array(0));
    world.dispose();
  });

  it('refuses masks that are not 32-bit integers, as Scene.setLayers does, changing nothing', () => {
    const world = twoRegions();
    world.add(1, 48, 10, 5); // region 0
    world.add(2, 52, 10, 5); // region 1
    world.tick();
    for (const [layer, sees] of [[undefined, 1], [1, undefined], [null, 1], [1, '1'], [1, 2 ** 32], [0.5, 1]]) {
      expect(codeOf(() => world.setLayers(1, layer as never, sees as never)), `${layer}, ${sees}`).toBe('INVALID_ARGUMENT');
    }
    expect(codeOf(() => world.setLayers(9, undefined as never, 1))).toBe('UNKNOWN_ID');
    expect(events(world.tick())).toEqual([]);
    expect(world.region(0).query(1)).toEqual([2]);
    expect(world.region(1).query(2)).toEqual([1]);
    world.setLayers(1, 1, 0); // sees no layer
    expect(events(world.tick())).toEqual(['leave 1 2']);
    world.dispose();
  });
});
