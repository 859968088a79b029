// Batch queries answered one query at a time by a core's single searches:
// the TypeScript backend's form of ../batch.ts, where a call costs no
// crossing and the gain of a batch is only the answers' layout.
import { Gather, type QueryResults } from '../../core/batch-results.js';
import type { BatchQueries } from '../batch.js';

/** The single searches a batch is made of. */
export interface SingleQueries {
  query(minX: number, minY: number, maxX: number, maxY: number): Int32Array;
  within(x: number, y: number, r2: number): Int32Array;
  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array;
}

/** BatchQueries over any core's single searches. */
export class LoopBatchQueries implements BatchQueries {
  constructor(private readonly core: SingleQueries) {}

  queryMany(boxes: Float64Array, count: number, into: QueryResults | undefined): QueryResults {
    const out = new Gather(count);
    for (let q = 0; q < count; q++) out.add(q, this.core.query(boxes[q * 4], boxes[q * 4 + 1], boxes[q * 4 + 2], boxes[q * 4 + 3]));
    return out.finish(count, into);
  }

  withinMany(xs: Float64Array, ys: Float64Array, r2s: Float64Array, count: number, into: QueryResults | undefined): QueryResults {
    const out = new Gather(count);
    for (let q = 0; q < count; q++) out.add(q, this.core.within(xs[q], ys[q], r2s[q]));
    return out.finish(count, into);
  }

  nearestMany(xs: Float64Array, ys: Float64Array, count: number, k: number, maxSquared: number, into: QueryResults | undefined): QueryResults {
    const out = new Gather(count);
    for (let q = 0; q < count; q++) out.add(q, this.core.nearest(xs[q], ys[q], k, maxSquared));
    return out.finish(count, into);
  }
}
