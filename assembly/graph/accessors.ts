// Read-only questions about a Graph's structure: one edge's weight, a
// vertex's out-neighbours, and the positioned vertices nearest to a point.
// Lists come back in the scratch buffer as [count, slot, slot, ...].
import { Graph, ensureCsr, hashFind, prepareEdit, i32At, setI32, f64At } from './graph';

@inline function graphOf(handle: i32): Graph {
  return changetype<Graph>(<usize>handle);
}

// Sizes the scratch list for `count` slots after its count word.
function reserveList(g: Graph, count: i32): usize {
  const length = count + 1;
  if (length > g.pathCapacity) {
    let capacity = max(g.pathCapacity << 1, 64);
    while (capacity < length) capacity <<= 1;
    g.path = g.path == 0 ? heap.alloc(<usize>capacity << 2) : heap.realloc(g.path, <usize>capacity << 2);
    g.pathCapacity = capacity;
  }
  return g.path;
}

/** Weight of the edge from -> to, NaN when there is none. */
export function graphWeightOf(handle: i32, from: i32, to: i32): f64 {
  const g = graphOf(handle);
  prepareEdit(g);
  const e = hashFind(g, from, to);
  return e < 0 ? NaN : f64At(g.edgeWeight, e);
}

/** Number of edges out of v. */
export function graphDegree(handle: i32, v: i32): i32 {
  const g = graphOf(handle);
  ensureCsr(g);
  return i32At(g.start, v + 1) - i32At(g.start, v);
}

/** Writes [count, targets of the edges out of v...] and returns where. */
export function graphNeighbors(handle: i32, v: i32): i32 {
  const g = graphOf(handle);
  ensureCsr(g);
  const begin = i32At(g.start, v);
  const count = i32At(g.start, v + 1) - begin;
  const list = reserveList(g, count);
  setI32(list, 0, count);
  memory.copy(list + 4, g.target + (<usize>begin << 2), <usize>count << 2);
  return <i32>list;
}

/**
 * Writes [count, slots...] of every positioned vertex at the least squared
 * distance from (x, y) (count 0 when none has a position) and returns where.
 */
export function graphNearest(handle: i32, x: f64, y: f64): i32 {
  const g = graphOf(handle);
  const n = g.n;
  const xy = g.xy;
  let best = Infinity;
  let ties = 0;
  // First pass: the least distance and how many reach it.
  for (let v = 0; v < n; v++) {
    const px = f64At(xy, v << 1);
    if (isNaN(px)) continue;
    const dx = px - x;
    const dy = f64At(xy, (v << 1) + 1) - y;
    const d = dx * dx + dy * dy;
    if (d < best) {
      best = d;
      ties = 1;
    } else if (d == best) {
      ties++;
    }
  }
  const list = reserveList(g, ties);
  setI32(list, 0, ties);
  let k = 1;
  for (let v = 0; v < n && k <= ties; v++) {
    const px = f64At(xy, v << 1);
    if (isNaN(px)) continue;
    const dx = px - x;
    const dy = f64At(xy, (v << 1) + 1) - y;
    if (dx * dx + dy * dy == best) setI32(list, k++, v);
  }
  return <i32>list;
}
