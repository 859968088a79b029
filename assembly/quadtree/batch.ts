// Batch forms of the dynamic tree's searches: many queries answered in one
// call from the TypeScript side, each by the tree's own single-query search,
// its ids appended to the shared results buffer (./results.ts) behind count
// + 1 offsets.
import { qtNearest, qtOutput, qtQuery, qtWithin } from './quadtree';
import { markQuery, pushResults, resultCount, startResults } from './results';

const BOX_BYTES: usize = 32;

/** Query q's box is boxes[4q..4q+3] (minX, minY, maxX, maxY); returns the total number of ids. */
export function qtQueryMany(tree: i32, boxes: usize, count: i32): i32 {
  startResults(count);
  for (let q = 0; q < count; q++) {
    markQuery(q);
    const b = boxes + <usize>q * BOX_BYTES;
    const found = qtQuery(tree, load<f64>(b), load<f64>(b, 8), load<f64>(b, 16), load<f64>(b, 24), i32.MAX_VALUE);
    pushResults(<usize>qtOutput(tree), found);
  }
  markQuery(count);
  return resultCount();
}

/** Query q is the disc of squared radius r2s[q] around (xs[q], ys[q]). */
export function qtWithinMany(tree: i32, xs: usize, ys: usize, r2s: usize, count: i32): i32 {
  startResults(count);
  for (let q = 0; q < count; q++) {
    markQuery(q);
    const at = <usize>q << 3;
    const found = qtWithin(tree, load<f64>(xs + at), load<f64>(ys + at), load<f64>(r2s + at));
    pushResults(<usize>qtOutput(tree), found);
  }
  markQuery(count);
  return resultCount();
}

/** The k nearest items of each point (xs[q], ys[q]) within squared distance maxSquared, nearest first. */
export function qtNearestMany(tree: i32, xs: usize, ys: usize, count: i32, k: i32, maxSquared: f64): i32 {
  startResults(count);
  for (let q = 0; q < count; q++) {
    markQuery(q);
    const at = <usize>q << 3;
    const found = qtNearest(tree, load<f64>(xs + at), load<f64>(ys + at), k, maxSquared);
    pushResults(<usize>qtOutput(tree), found);
  }
  markQuery(count);
  return resultCount();
}
