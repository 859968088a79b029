// The answers of many queries made in one call, as offsets plus ids in two
// Int32Arrays (the layout of Scene.drainGrouped), and the checks of their
// inputs. Inputs are checked whole before any search runs, and answers are
// written into caller-provided arrays only once they are known to fit, so a
// rejected call writes nothing. The inputs are copied once, into rooms kept
// from call to call, and checked there (copyNumbers in ./validate.ts).
import { SpatialError } from './errors.js';
import { copyNumbers, CopyRoom } from './validate.js';

/**
 * The answers of a batch of queries: query q's ids are
 * `ids.subarray(offsets[q], offsets[q + 1])`. `offsets` has one entry more
 * than there are queries; `ids` may be longer than `offsets[count]` when the
 * arrays were provided by the caller (only that prefix is written).
 */
export interface QueryResults {
  /** count + 1 entries, ascending from 0. */
  offsets: Int32Array;
  /** The ids of every query, one query after another. */
  ids: Int32Array;
}

/**
 * The answers of `count` queries found in `offsets` and `ids` (offsets[count]
 * ids in all), into `into` when given, else in fresh arrays. Throws
 * INVALID_ARGUMENT, writing nothing, when `into` is too small.
 */
export function deliver(offsets: Int32Array, ids: Int32Array, count: number, into: QueryResults | undefined): QueryResults {
  const total = offsets[count];
  if (into === undefined) return { offsets: offsets.slice(0, count + 1), ids: ids.slice(0, total) };
  if (into.offsets.length < count + 1 || into.ids.length < total) {
    throw new SpatialError(
      'INVALID_ARGUMENT',
      `into needs room for ${count + 1} offsets and ${total} ids, has ${into.offsets.length} and ${into.ids.length}`,
    );
  }
  into.offsets.set(offsets.subarray(0, count + 1));
  into.ids.set(ids.subarray(0, total));
  return into;
}

/** The answers of `count` queries that found nothing. */
export function noResults(count: number, into: QueryResults | undefined): QueryResults {
  return deliver(new Int32Array(count + 1), new Int32Array(0), count, into);
}

/** Throws INVALID_ARGUMENT unless into is undefined or holds two Int32Arrays. */
export function checkInto(into: unknown): QueryResults | undefined {
  if (into === undefined) return undefined;
  const r = into as Partial<QueryResults> | null;
  if (typeof r !== 'object' || r === null || !(r.offsets instanceof Int32Array) || !(r.ids instanceof Int32Array)) {
    throw new SpatialError('INVALID_ARGUMENT', 'into must be { offsets: Int32Array, ids: Int32Array }');
  }
  return r as QueryResults;
}

const boxRoom = new CopyRoom(), xRoom = new CopyRoom(), yRoom = new CopyRoom();

/** Flat query boxes [minX, minY, maxX, maxY, ...], copied once and checked (valid until the next batch). */
export function readBoxes(boxes: ArrayLike<number>): Float64Array {
  return copyNumbers('boxes', boxes, undefined, 'boxes', boxRoom);
}

/** Query points, xs and ys of one length, copied once and checked finite (valid until the next batch). */
export function readPoints(xs: ArrayLike<number>, ys: ArrayLike<number>): [Float64Array, Float64Array] {
  const px = copyNumbers('xs', xs, undefined, 'finite', xRoom);
  return [px, copyNumbers('ys', ys, px.length, 'finite', yRoom)];
}

/** Answers gathered query by query into one growing id array. */
export class Gather {
  offsets: Int32Array;
  ids = new Int32Array(64);
  total = 0;

  constructor(count: number) {
    this.offsets = new Int32Array(count + 1);
  }

  add(q: number, found: Int32Array): void {
    this.offsets[q] = this.total;
    if (this.total + found.length > this.ids.length) {
      const grown = new Int32Array(Math.max(this.ids.length * 2, this.total + found.length));
      grown.set(this.ids.subarray(0, this.total));
      this.ids = grown;
    }
    this.ids.set(found, this.total);
    this.total += found.length;
  }

  /** The answers gathered, in the gatherer's own arrays (ids may be longer than offsets[count]). */
  gathered(count: number): QueryResults {
    this.offsets[count] = this.total;
    return { offsets: this.offsets, ids: this.ids };
  }

  finish(count: number, into: QueryResults | undefined): QueryResults {
    const { offsets, ids } = this.gathered(count);
    return deliver(offsets, ids, count, into);
  }
}
