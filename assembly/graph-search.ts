// Shortest-path searches over a Graph's CSR: SPFA (negative weights, cycle
// detection), Dijkstra, A* and bidirectional Dijkstra. Single-source searches
// leave dist / parent for every slot; point-to-point searches write the path
// (slots, source first) and its cost, and touch only the vertices they visit.
import { Graph, ensureCsr, ensureReverse, i32At, setI32, f64At, setF64 } from './graph';

// Statuses shared with the TypeScript side.
const NEGATIVE_WEIGHT: i32 = -2;
const NEGATIVE_CYCLE: i32 = -3;

// Point-to-point algorithms and A* heuristics, as the TypeScript side numbers them.
const ASTAR: i32 = 0;
const DIJKSTRA: i32 = 1;
const BIDIRECTIONAL: i32 = 2;
const SPFA: i32 = 3;
const EUCLIDEAN: i32 = 1;
const MANHATTAN: i32 = 2;
const OCTILE: i32 = 3;

@inline function graphOf(handle: i32): Graph {
  return changetype<Graph>(<usize>handle);
}

// Starts a point-to-point search: a fresh generation invalidates every
// vertex's stamped state at once.
function nextGeneration(g: Graph): i32 {
  if (g.generation == i32.MAX_VALUE) {
    memory.fill(g.stamp, 0, <usize>g.vertexCapacity << 2);
    memory.fill(g.stampB, 0, <usize>g.vertexCapacity << 2);
    g.generation = 0;
  }
  return ++g.generation;
}

function resetAll(g: Graph): void {
  const n = g.n;
  for (let v = 0; v < n; v++) {
    setF64(g.dist, v, Infinity);
    setI32(g.parent, v, -1);
  }
}

// ---- single source -------------------------------------------------------------

// FIFO queue with an in-queue flag per vertex: a vertex whose cost improves
// is queued unless it already waits. `extra` holds the number of edges on each
// vertex's current path; a path of n edges repeats a vertex, which only a
// negative cycle can make cheaper, so the search stops there instead of looping.
function runSpfa(g: Graph, s: i32): i32 {
  ensureCsr(g);
  const n = g.n;
  const dist = g.dist;
  const parent = g.parent;
  const edges = g.extra; // path length per vertex, as i32 in the first half
  const queued = g.stampB; // in-queue flag
  const queue = g.queue;
  const start = g.start;
  const target = g.target;
  const weight = g.weight;
  resetAll(g);
  memory.fill(queued, 0, <usize>n << 2);
  setF64(dist, s, 0);
  setI32(edges, s, 0);
  setI32(queue, 0, s);
  setI32(queued, s, 1);
  // A vertex is never in the queue twice, so n places suffice as a ring.
  let head = 0;
  let size = 1;
  let status = 0;
  while (size > 0) {
    const u = i32At(queue, head);
    head = head + 1 == n ? 0 : head + 1;
    size--;
    setI32(queued, u, 0);
    const du = f64At(dist, u);
    const hops = i32At(edges, u) + 1;
    for (let e = i32At(start, u), end = i32At(start, u + 1); e < end; e++) {
      const v = i32At(target, e);
      const candidate = du + f64At(weight, e);
      if (candidate < f64At(dist, v)) {
        setF64(dist, v, candidate);
        setI32(parent, v, u);
        setI32(edges, v, hops);
        if (hops >= n) {
          status = NEGATIVE_CYCLE;
          size = 0;
          break;
        }
        if (i32At(queued, v) == 0) {
          setI32(queued, v, 1);
          let tail = head + size;
          if (tail >= n) tail -= n;
          setI32(queue, tail, v);
          size++;
        }
      }
    }
  }
  // The in-queue flags borrowed the backward stamps: make them stale.
  memory.fill(queued, 0, <usize>n << 2);
  return status;
}

// Binary-heap Dijkstra over every vertex; stale heap entries are skipped.
function runDijkstra(g: Graph, s: i32): void {
  const dist = g.dist;
  const parent = g.parent;
  const start = g.start;
  const target = g.target;
  const weight = g.weight;
  const heap = g.heap;
  resetAll(g);
  heap.clear();
  setF64(dist, s, 0);
  heap.push(0, s);
  while (!heap.empty) {
    const key = heap.topKey;
    const u = heap.pop();
    if (key > f64At(dist, u)) continue;
    for (let e = i32At(start, u), end = i32At(start, u + 1); e < end; e++) {
      const v = i32At(target, e);
      const candidate = key + f64At(weight, e);
      if (candidate < f64At(dist, v)) {
        setF64(dist, v, candidate);
        setI32(parent, v, u);
        heap.push(candidate, v);
      }
    }
  }
}

/** SPFA from s over every vertex; 0, or NEGATIVE_CYCLE when one is reachable. */
export function graphSpfa(handle: i32, s: i32): i32 {
  return runSpfa(graphOf(handle), s);
}

/** Dijkstra from s over every vertex; 0, or NEGATIVE_WEIGHT when the graph has one. */
export function graphDijkstra(handle: i32, s: i32): i32 {
  const g = graphOf(handle);
  ensureCsr(g);
  if (g.negatives > 0) return NEGATIVE_WEIGHT;
  runDijkstra(g, s);
  return 0;
}

/** Pointer to the f64 distances of the last single-source search (Infinity: unreachable). */
export function graphDistances(handle: i32): i32 {
  return <i32>graphOf(handle).dist;
}

/** Pointer to the i32 parents of the last single-source search (-1: none). */
export function graphParents(handle: i32): i32 {
  return <i32>graphOf(handle).parent;
}

// ---- point to point --------------------------------------------------------------

/**
 * Shortest path from s to t. Returns the number of slots on the path (written
 * at graphPathSlots, cost at graphPathCost), 0 when t is unreachable, or
 * NEGATIVE_WEIGHT / NEGATIVE_CYCLE.
 */
export function graphPath(handle: i32, s: i32, t: i32, algorithm: i32, heuristic: i32): i32 {
  const g = graphOf(handle);
  ensureCsr(g);
  if (algorithm == SPFA) {
    const status = runSpfa(g, s);
    if (status != 0) return status;
    if (f64At(g.dist, t) == Infinity) return 0;
    g.cost = f64At(g.dist, t);
    return writePath(g, s, t);
  }
  if (g.negatives > 0) return NEGATIVE_WEIGHT;
  if (s == t) {
    g.cost = 0;
    return writePath(g, s, s);
  }
  if (algorithm == BIDIRECTIONAL) return bidirectional(g, s, t);
  return astar(g, s, t, algorithm == DIJKSTRA ? 0 : heuristic);
}

/** Pointer to the slots of the last point-to-point path. */
export function graphPathSlots(handle: i32): i32 {
  return <i32>graphOf(handle).path;
}

/** Cost of the last point-to-point path. */
export function graphPathCost(handle: i32): f64 {
  return graphOf(handle).cost;
}

function reservePath(g: Graph, length: i32): void {
  if (length <= g.pathCapacity) return;
  let capacity = max(g.pathCapacity << 1, 64);
  while (capacity < length) capacity <<= 1;
  g.path = g.path == 0 ? heap.alloc(<usize>capacity << 2) : heap.realloc(g.path, <usize>capacity << 2);
  g.pathCapacity = capacity;
}

// Follows parents from t back to s and writes the slots source first.
function writePath(g: Graph, s: i32, t: i32): i32 {
  let length = 1;
  for (let v = t; v != s; v = i32At(g.parent, v)) length++;
  reservePath(g, length);
  let at = length - 1;
  for (let v = t; at >= 0; v = i32At(g.parent, v)) setI32(g.path, at--, v);
  g.pathLength = length;
  return length;
}

// Lower bound of the remaining cost from v to the target at (tx, ty); a
// vertex without position (NaN) contributes 0.
@inline function estimate(g: Graph, v: i32, kind: i32, tx: f64, ty: f64): f64 {
  const x = f64At(g.xs, v);
  if (kind == 0 || isNaN(x) || isNaN(tx)) return 0;
  const dx = abs(x - tx);
  const dy = abs(f64At(g.ys, v) - ty);
  if (kind == EUCLIDEAN) return Math.sqrt(dx * dx + dy * dy);
  if (kind == MANHATTAN) return dx + dy;
  return max(dx, dy) + (Math.SQRT2 - 1) * min(dx, dy); // OCTILE
}

// A* (Dijkstra when kind is 0) from s, stopping when t leaves the heap. A
// vertex is expanded again if its cost improves after expansion, so a
// heuristic that is admissible but not consistent (vertices without position
// count 0) still yields the optimum. `extra` caches each visited vertex's h.
function astar(g: Graph, s: i32, t: i32, kind: i32): i32 {
  const gen = nextGeneration(g);
  const stamp = g.stamp;
  const dist = g.dist;
  const parent = g.parent;
  const hs = g.extra;
  const start = g.start;
  const target = g.target;
  const weight = g.weight;
  const heap = g.heap;
  const tx = f64At(g.xs, t);
  const ty = f64At(g.ys, t);
  heap.clear();
  setI32(stamp, s, gen);
  setF64(dist, s, 0);
  setI32(parent, s, -1);
  const hStart = estimate(g, s, kind, tx, ty);
  setF64(hs, s, hStart);
  heap.push(hStart, s);
  while (!heap.empty) {
    const key = heap.topKey;
    const u = heap.pop();
    const du = f64At(dist, u);
    if (key > du + f64At(hs, u)) continue; // stale entry
    if (u == t) {
      g.cost = du;
      return writePath(g, s, t);
    }
    for (let e = i32At(start, u), end = i32At(start, u + 1); e < end; e++) {
      const v = i32At(target, e);
      const candidate = du + f64At(weight, e);
      let hv: f64;
      if (i32At(stamp, v) != gen) {
        setI32(stamp, v, gen);
        hv = estimate(g, v, kind, tx, ty);
        setF64(hs, v, hv);
      } else {
        if (candidate >= f64At(dist, v)) continue;
        hv = f64At(hs, v);
      }
      setF64(dist, v, candidate);
      setI32(parent, v, u);
      heap.push(candidate + hv, v);
    }
  }
  return 0;
}

// Dijkstra from s over out-edges and from t over in-edges, expanding the side
// with the smaller heap top. Every relaxation that reaches a vertex the other
// side has seen offers a path through it; once topF + topB >= best no
// unexplored path can be shorter, because any such path has a forward part
// costing at least topF and a backward part costing at least topB.
function bidirectional(g: Graph, s: i32, t: i32): i32 {
  ensureReverse(g);
  const gen = nextGeneration(g);
  const stampF = g.stamp;
  const stampB = g.stampB;
  const distF = g.dist;
  const distB = g.distB;
  const parentF = g.parent;
  const parentB = g.parentB;
  const heapF = g.heap;
  const heapB = g.heapB;
  heapF.clear();
  heapB.clear();
  setI32(stampF, s, gen);
  setF64(distF, s, 0);
  setI32(parentF, s, -1);
  heapF.push(0, s);
  setI32(stampB, t, gen);
  setF64(distB, t, 0);
  setI32(parentB, t, -1);
  heapB.push(0, t);
  let best = Infinity;
  let meet = -1;
  while (!heapF.empty && !heapB.empty) {
    const topF = heapF.topKey;
    const topB = heapB.topKey;
    if (topF + topB >= best) break;
    const forward = topF <= topB;
    const heap = forward ? heapF : heapB;
    const stamp = forward ? stampF : stampB;
    const dist = forward ? distF : distB;
    const parent = forward ? parentF : parentB;
    const otherStamp = forward ? stampB : stampF;
    const otherDist = forward ? distB : distF;
    const start = forward ? g.start : g.rStart;
    const ends = forward ? g.target : g.rSource;
    const weight = forward ? g.weight : g.rWeight;
    const key = heap.topKey;
    const u = heap.pop();
    if (key > f64At(dist, u)) continue;
    for (let e = i32At(start, u), end = i32At(start, u + 1); e < end; e++) {
      const v = i32At(ends, e);
      const candidate = key + f64At(weight, e);
      if (i32At(stamp, v) != gen || candidate < f64At(dist, v)) {
        setI32(stamp, v, gen);
        setF64(dist, v, candidate);
        setI32(parent, v, u);
        heap.push(candidate, v);
      }
      if (i32At(otherStamp, v) == gen) {
        const through = f64At(dist, v) + f64At(otherDist, v);
        if (through < best) {
          best = through;
          meet = v;
        }
      }
    }
  }
  if (meet < 0) return 0;
  g.cost = best;
  // Forward half: s..meet by forward parents; backward half: meet..t.
  let length = 1;
  for (let v = meet; v != s; v = i32At(parentF, v)) length++;
  for (let v = meet; v != t; v = i32At(parentB, v)) length++;
  reservePath(g, length);
  let at = 0;
  for (let v = meet; v != s; v = i32At(parentF, v)) at++;
  const meetAt = at;
  for (let v = meet; ; v = i32At(parentF, v)) {
    setI32(g.path, at--, v);
    if (v == s) break;
  }
  at = meetAt;
  for (let v = meet; v != t; ) {
    v = i32At(parentB, v);
    setI32(g.path, ++at, v);
  }
  g.pathLength = length;
  return length;
}
