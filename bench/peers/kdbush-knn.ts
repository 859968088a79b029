// The k nearest points over kdbush's arrays: kdbush sorts its points into an
// implicit k-d tree (the median of [left, right] at (left + right) >> 1,
// split on x then y in turn, leaves of nodeSize) but has no nearest search.
// This is the plain one a user writes over those arrays: depth first, the
// near side first, the far side only while it may hold a closer point, the
// k best kept in a sorted buffer.
import type KDBush from 'kdbush';

let coords: ArrayLike<number> = [];
let ids: ArrayLike<number> = [];
let nodeSize = 0;
let qx = 0;
let qy = 0;
let want = 0;
let count = 0;
let best = new Float64Array(16);
let bestIds = new Int32Array(16);

function consider(i: number): void {
  const dx = coords[2 * i] - qx, dy = coords[2 * i + 1] - qy;
  const d = dx * dx + dy * dy;
  if (count === want && d >= best[want - 1]) return;
  let j = count < want ? count++ : want - 1;
  while (j > 0 && best[j - 1] > d) {
    best[j] = best[j - 1];
    bestIds[j] = bestIds[j - 1];
    j--;
  }
  best[j] = d;
  bestIds[j] = ids[i];
}

function search(left: number, right: number, axis: number): void {
  if (right - left <= nodeSize) {
    for (let i = left; i <= right; i++) consider(i);
    return;
  }
  const m = (left + right) >> 1;
  consider(m);
  const d = axis === 0 ? qx - coords[2 * m] : qy - coords[2 * m + 1];
  const near = d <= 0;
  if (near) search(left, m - 1, 1 - axis);
  else search(m + 1, right, 1 - axis);
  if (count < want || d * d <= best[want - 1]) {
    if (near) search(m + 1, right, 1 - axis);
    else search(left, m - 1, 1 - axis);
  }
}

/** The ids of the k points of index nearest to (x, y), nearest first. */
export function kdbushNearest(index: KDBush, x: number, y: number, k: number): Int32Array {
  coords = index.coords;
  ids = index.ids;
  nodeSize = index.nodeSize;
  qx = x;
  qy = y;
  want = Math.min(k, index.numItems);
  count = 0;
  if (best.length < want) {
    best = new Float64Array(want);
    bestIds = new Int32Array(want);
  }
  if (want > 0) search(0, index.numItems - 1, 0);
  return bestIds.slice(0, count);
}
