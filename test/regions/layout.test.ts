// A region layout: which region owns a position (edges included), which
// regions are neighbours through the ghost band, and the layouts it refuses.
import { describe, expect, it } from 'vitest';
import { RegionLayout, type RegionRect } from '../../src/regions/index.js';
import { codeOf } from '../support/codes.js';

const SIZES = { maxRange: 5, margin: 1, maxStep: 2 };
const layout = (regions: RegionRect[]): RegionLayout => new RegionLayout({ ...SIZES, regions });

describe('RegionLayout', () => {
  const grid = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 2, SIZES);

  it('owns each position in exactly one region: left and bottom edges in, right and top out, except on the world edge', () => {
    expect(grid.band).toBe(8);
    expect(grid.regionAt(0, 0)).toBe(0);
    expect(grid.regionAt(49.999, 49.999)).toBe(0);
    expect(grid.regionAt(50, 49)).toBe(1);
    expect(grid.regionAt(49, 50)).toBe(2);
    expect(grid.regionAt(50, 50)).toBe(3);
    expect(grid.regionAt(100, 100)).toBe(3);
    expect(grid.regionAt(100, 0)).toBe(1);
    expect(grid.findRegion(100.5, 0)).toBe(-1);
    expect(codeOf(() => grid.regionAt(-0.5, 3))).toBe('OUTSIDE_REGIONS');
    expect(codeOf(() => grid.regionAt(NaN, 3))).toBe('OUTSIDE_REGIONS');
  });

  it('holds a ghost of what lies within the band around a region, on both axes', () => {
    expect(grid.inBand(0, 58, 58)).toBe(true);
    expect(grid.inBand(0, 58.5, 10)).toBe(false);
    expect(grid.inBand(3, 42, 42)).toBe(true);
    expect(grid.inBand(3, 41.5, 60)).toBe(false);
    expect(grid.neighbours(0)).toEqual([1, 2, 3]);
  });

  it('knows as neighbours only the regions the band reaches', () => {
    const strip = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 10 }, 5, 1, SIZES);
    expect(strip.neighbours(0)).toEqual([1]);
    expect(strip.neighbours(2)).toEqual([1, 3]);
  });

  it('refuses a gap, an overlap, a repeated id, an empty rectangle and bad sizes with INVALID_LAYOUT', () => {
    const a = { id: 0, minX: 0, minY: 0, maxX: 10, maxY: 10 };
    expect(codeOf(() => layout([a, { id: 1, minX: 10, minY: 0, maxX: 20, maxY: 5 }]))).toBe('INVALID_LAYOUT'); // gap at (15, 7.5)
    expect(codeOf(() => layout([a, { id: 1, minX: 9, minY: 0, maxX: 20, maxY: 10 }]))).toBe('INVALID_LAYOUT'); // overlap
    expect(codeOf(() => layout([a, { ...a, id: 0, minX: 10, maxX: 20 }]))).toBe('INVALID_LAYOUT');
    expect(codeOf(() => layout([{ ...a, maxX: 0 }]))).toBe('INVALID_LAYOUT');
    expect(codeOf(() => layout([{ ...a, maxY: Infinity }]))).toBe('INVALID_LAYOUT');
    expect(codeOf(() => layout([]))).toBe('INVALID_LAYOUT');
    expect(codeOf(() => new RegionLayout({ ...SIZES, maxRange: -1, regions: [a] }))).toBe('INVALID_LAYOUT');
    expect(codeOf(() => new RegionLayout({ ...SIZES, maxStep: NaN, regions: [a] }))).toBe('INVALID_LAYOUT');
    expect(codeOf(() => layout([a, { id: 1, minX: 10, minY: 0, maxX: 20, maxY: 10 }]))).toBeNull();
    expect(codeOf(() => grid.rect(9))).toBe('UNKNOWN_ID');
  });

  it('refuses options, bounds and sizes that are not what a layout is made of with INVALID_LAYOUT', () => {
    const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
    for (const options of [null, undefined, 5, 'regions', []]) {
      expect(codeOf(() => new RegionLayout(options as never)), String(options)).toBe('INVALID_LAYOUT');
    }
    for (const b of [null, undefined, 5, { ...bounds, maxX: NaN }, { ...bounds, minY: '0' }, { ...bounds, maxX: -1 }]) {
      expect(codeOf(() => RegionLayout.grid(b as never, 2, 2, SIZES)), JSON.stringify(b)).toBe('INVALID_LAYOUT');
    }
    for (const sizes of [null, undefined, 5]) {
      expect(codeOf(() => RegionLayout.grid(bounds, 2, 2, sizes as never)), String(sizes)).toBe('INVALID_LAYOUT');
    }
    expect(RegionLayout.grid(bounds, 2, 2, SIZES).regions).toHaveLength(4);
  });
});
