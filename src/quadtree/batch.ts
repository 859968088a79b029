// Batch queries on a QuadTree: what a core answers in bulk, and the checks
// of the inputs only trees take (items, radii, the nearest search's
// options). The answers' layout is in ../core/batch-results.ts, the copy
// and checks of every batch input in ../core/validate.ts.
import { checkCount, checkMaxDistance, checkOptions, checkRange, copyIds, copyNumbers, CopyRoom } from '../core/validate.js';
import { checkInto, type QueryResults } from '../core/batch-results.js';

export { checkInto, deliver, noResults, readBoxes, readPoints, type QueryResults } from '../core/batch-results.js';

/** What a core answers in bulk: inputs already checked, results into `into` or fresh arrays. */
export interface BatchQueries {
  /** Boxes flat [minX, minY, maxX, maxY, ...]; ids of each box in traversal order. */
  queryMany(boxes: Float64Array, count: number, into: QueryResults | undefined): QueryResults;
  /** Discs of squared radius r2s[q] around (xs[q], ys[q]); ids in traversal order. */
  withinMany(xs: Float64Array, ys: Float64Array, r2s: Float64Array, count: number, into: QueryResults | undefined): QueryResults;
  /** The k nearest of each point within squared distance maxSquared, nearest first. */
  nearestMany(xs: Float64Array, ys: Float64Array, count: number, k: number, maxSquared: number, into: QueryResults | undefined): QueryResults;
}

/** Options of the batch nearest search (`nearestMany`). */
export interface NearestManyOptions {
  /** Only items at distance <= maxDistance count (closed). Default Infinity. */
  maxDistance?: number;
  /** Arrays to write the answers into instead of fresh ones (see {@link QueryResults}). */
  into?: QueryResults;
}

const NEAREST_MANY_KEYS = ['maxDistance', 'into'];

const idRoom = new CopyRoom(), rectRoom = new CopyRoom(), radiusRoom = new CopyRoom();

/** A batch of items, ids[i] with the rect rects[4i..4i+3], each array copied once and checked (valid until the next batch). */
export function readItems(ids: ArrayLike<number>, rects: ArrayLike<number>): [Int32Array, Float64Array] {
  const idCopy = copyIds('ids', ids, undefined, idRoom);
  return [idCopy, copyNumbers('rects (four coordinates per id)', rects, idCopy.length * 4, 'boxes', rectRoom)];
}

/** The squared radii of `count` discs: one radius for all or one each (copied once), finite and >= 0. */
export function readSquaredRadii(radius: number | ArrayLike<number>, count: number): Float64Array {
  if (typeof radius === 'number') {
    checkRange('radius', radius);
    return new Float64Array(count).fill(radius * radius);
  }
  const r2s = copyNumbers('radii', radius, count, 'ranges', radiusRoom);
  for (let i = 0; i < count; i++) r2s[i] *= r2s[i];
  return r2s;
}

/** Checks k and the options of a batch nearest search; returns the squared maximum distance and the output arrays. */
export function readNearestMany(where: string, k: number, options: NearestManyOptions | undefined): [number, QueryResults | undefined] {
  checkCount('k', k);
  checkOptions(where, options, NEAREST_MANY_KEYS);
  const maxDistance = options?.maxDistance ?? Infinity;
  checkMaxDistance(maxDistance);
  return [maxDistance * maxDistance, checkInto(options?.into)];
}
