// Shortest-path searches over a Graph's CSR: SPFA (negative weights, cycle
// detection), Dijkstra, A* and bidirectional Dijkstra. Single-source searches
// leave dist / parent for every slot; point-to-point searches write the path
// (slots, source first) and its cost, and touch only the vertices they visit.
import { Graph, ensureCsr, ensureReverse, i32At, setI32, f64At, stateOf, STATE_BYTES, DIST, EXTRA, STAMP, PARENT } from './graph';

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
// vertex's stamped record at once.
function nextGeneration(g: Graph): i32 {
  if (g.generation == i32.MAX_VALUE) {
    memory.fill(g.state, 0, <usize>g.vertexCapacity * STATE_BYTES);
    memory.fill(g.stateB, 0, <usize>g.vertexCapacity * STATE_BYTES);
    g.generation = 0;
  }
  return ++g.generation;
}

// Every record unreached, for a single-source search; stamps 0 never match a
// generation, so point-to-point searches see these records as stale.
function resetAll(g: Graph): void {
  for (let v = 0, n = g.n; v < n; v++) {
    const r = stateOf(g.state, v);
    store<f64>(r + DIST, Infinity);
    store<i32>(r + STAMP, 0);
    store<i32>(r + PARENT, -1);
  }
}

// ---- single source -------------------------------------------------------------

// FIFO queue with an in-queue flag (the stamp) per vertex: a vertex whose
// cost improves is queued unless it already waits. EXTRA holds the number of
// edges on each vertex's current path; a path of n edges repeats a vertex,
// which only a negative cycle can make cheaper, so the search stops there
// instead of looping.
function runSpfa(g: Graph, s: i32): i32 {
  ensureCsr(g);
  const n = g.n;
  const state = g.state;
  const queue = g.queue;
  const start = g.start;
  const target = g.target;
  const weight = g.weight;
  resetAll(g);
  const rs = stateOf(state, s);
  store<f64>(rs + DIST, 0);
  store<i32>(rs + EXTRA, 0);
  store<i32>(rs + STAMP, 1);
  setI32(queue, 0, s);
  // A vertex is never in the queue twice, so n places suffice as a ring.
  let head = 0;
  let size = 1;
  let status = 0;
  while (size > 0) {
    const u = i32At(queue, head);
    head = head + 1 == n ? 0 : head + 1;
    size--;
    const ru = stateOf(state, u);
    store<i32>(ru + STAMP, 0);
    const du = load<f64>(ru + DIST);
    const hops = load<i32>(ru + EXTRA) + 1;
    for (let e = i32At(start, u), end = i32At(start, u + 1); e < end; e++) {
      const v = i32At(target, e);
      const rv = stateOf(state, v);
      const candidate = du + f64At(weight, e);
      if (candidate < load<f64>(rv + DIST)) {
        store<f64>(rv + DIST, candidate);
        store<i32>(rv + PARENT, u);
        store<i32>(rv + EXTRA, hops);
        if (hops >= n) {
          status = NEGATIVE_CYCLE;
          size = 0;
          break;
        }
        if (load<i32>(rv + STAMP) == 0) {
          store<i32>(rv + STAMP, 1);
          let tail = head + size;
          if (tail >= n) tail -= n;
          setI32(queue, tail, v);
          size++;
        }
      }
    }
  }
  // In-queue flags must not pass for a generation later.
  for (let v = 0; v < n; v++) store<i32>(stateOf(state, v) + STAMP, 0);
  return status;
}

// Binary-heap Dijkstra over every vertex; stale heap entries are skipped.
function runDijkstra(g: Graph, s: i32): void {
  const state = g.state;
  const start = g.start;
  const target = g.target;
  const weight = g.weight;
  const heap = g.heap;
  resetAll(g);
  heap.clear();
  store<f64>(stateOf(state, s) + DIST, 0);
  heap.push(0, s);
  while (!heap.empty) {
    const key = heap.topKey;
    const u = heap.pop();
    if (key > load<f64>(stateOf(state, u) + DIST)) continue;
    for (let e = i32At(start, u), end = i32At(start, u + 1); e < end; e++) {
      const v = i32At(target, e);
      const rv = stateOf(state, v);
      const candidate = key + f64At(weight, e);
      if (candidate < load<f64>(rv + DIST)) {
        store<f64>(rv + DIST, candidate);
        store<i32>(rv + PARENT, u);
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

/**
 * Pointer to the records of the last single-source search, STATE_BYTES
 * each: dist (f64, Infinity when unreachable) at 0, parent (i32, -1 for
 * none) at 20.
 */
export function graphStates(handle: i32): i32 {
  return <i32>graphOf(handle).state;
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
    const cost = load<f64>(stateOf(g.state, t) + DIST);
    if (cost == Infinity) return 0;
    g.cost = cost;
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

@inline function parentOf(state: usize, v: i32): i32 {
  return load<i32>(stateOf(state, v) + PARENT);
}

// Follows parents from t back to s and writes the slots source first.
function writePath(g: Graph, s: i32, t: i32): i32 {
  const state = g.state;
  let length = 1;
  for (let v = t; v != s; v = parentOf(state, v)) length++;
  reservePath(g, length);
  let at = length - 1;
  for (let v = t; at >= 0; v = parentOf(state, v)) setI32(g.path, at--, v);
  g.pathLength = length;
  return length;
}

// Lower bound of the remaining cost from v to the target at (tx, ty); a
// vertex without position (NaN) contributes 0.
@inline function estimate(g: Graph, v: i32, kind: i32, tx: f64, ty: f64): f64 {
  const p = g.xy + (<usize>v << 4);
  const x = load<f64>(p);
  if (kind == 0 || isNaN(x) || isNaN(tx)) return 0;
  const dx = abs(x - tx);
  const dy = abs(load<f64>(p, 8) - ty);
  if (kind == EUCLIDEAN) return Math.sqrt(dx * dx + dy * dy);
  if (kind == MANHATTAN) return dx + dy;
  return max(dx, dy) + (Math.SQRT2 - 1) * min(dx, dy); // OCTILE
}

// A* (Dijkstra when kind is 0) from s, stopping when t leaves the heap. A
// vertex is expanded again if its cost improves after expansion, so a
// heuristic that is admissible but not consistent (vertices without position
// count 0) still yields the optimum. EXTRA caches each visited vertex's h.
function astar(g: Graph, s: i32, t: i32, kind: i32): i32 {
  const gen = nextGeneration(g);
  const state = g.state;
  const start = g.start;
  const target = g.target;
  const weight = g.weight;
  const heap = g.heap;
  const tx = f64At(g.xy, t << 1);
  const ty = f64At(g.xy, (t << 1) + 1);
  heap.clear();
  const rs = stateOf(state, s);
  const hStart = estimate(g, s, kind, tx, ty);
  store<i32>(rs + STAMP, gen);
  store<f64>(rs + DIST, 0);
  store<f64>(rs + EXTRA, hStart);
  store<i32>(rs + PARENT, -1);
  heap.push(hStart, s);
  while (!heap.empty) {
    const key = heap.topKey;
    const u = heap.pop();
    const ru = stateOf(state, u);
    const du = load<f64>(ru + DIST);
    if (key > du + load<f64>(ru + EXTRA)) continue; // stale entry
    if (u == t) {
      g.cost = du;
      return writePath(g, s, t);
    }
    for (let e = i32At(start, u), end = i32At(start, u + 1); e < end; e++) {
      const v = i32At(target, e);
      const rv = stateOf(state, v);
      const candidate = du + f64At(weight, e);
      let hv: f64;
      if (load<i32>(rv + STAMP) != gen) {
        store<i32>(rv + STAMP, gen);
        hv = estimate(g, v, kind, tx, ty);
        store<f64>(rv + EXTRA, hv);
      } else {
        if (candidate >= load<f64>(rv + DIST)) continue;
        hv = load<f64>(rv + EXTRA);
      }
      store<f64>(rv + DIST, candidate);
      store<i32>(rv + PARENT, u);
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
  const stateF = g.state;
  const stateB = g.stateB;
  const heapF = g.heap;
  const heapB = g.heapB;
  heapF.clear();
  heapB.clear();
  const rs = stateOf(stateF, s);
  store<i32>(rs + STAMP, gen);
  store<f64>(rs + DIST, 0);
  store<i32>(rs + PARENT, -1);
  heapF.push(0, s);
  const rt = stateOf(stateB, t);
  store<i32>(rt + STAMP, gen);
  store<f64>(rt + DIST, 0);
  store<i32>(rt + PARENT, -1);
  heapB.push(0, t);
  let best = Infinity;
  let meet = -1;
  while (!heapF.empty && !heapB.empty) {
    const topF = heapF.topKey;
    const topB = heapB.topKey;
    if (topF + topB >= best) break;
    const forward = topF <= topB;
    const heap = forward ? heapF : heapB;
    const state = forward ? stateF : stateB;
    const other = forward ? stateB : stateF;
    const start = forward ? g.start : g.rStart;
    const ends = forward ? g.target : g.rSource;
    const weight = forward ? g.weight : g.rWeight;
    const key = heap.topKey;
    const u = heap.pop();
    if (key > load<f64>(stateOf(state, u) + DIST)) continue;
    for (let e = i32At(start, u), end = i32At(start, u + 1); e < end; e++) {
      const v = i32At(ends, e);
      const rv = stateOf(state, v);
      const candidate = key + f64At(weight, e);
      if (load<i32>(rv + STAMP) != gen || candidate < load<f64>(rv + DIST)) {
        store<i32>(rv + STAMP, gen);
        store<f64>(rv + DIST, candidate);
        store<i32>(rv + PARENT, u);
        heap.push(candidate, v);
      }
      const ro = stateOf(other, v);
      if (load<i32>(ro + STAMP) == gen) {
        const through = load<f64>(rv + DIST) + load<f64>(ro + DIST);
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
  for (let v = meet; v != s; v = parentOf(stateF, v)) length++;
  for (let v = meet; v != t; v = parentOf(stateB, v)) length++;
  reservePath(g, length);
  let at = 0;
  for (let v = meet; v != s; v = parentOf(stateF, v)) at++;
  const meetAt = at;
  for (let v = meet; ; v = parentOf(stateF, v)) {
    setI32(g.path, at--, v);
    if (v == s) break;
  }
  at = meetAt;
  for (let v = meet; v != t; ) {
    v = parentOf(stateB, v);
    setI32(g.path, ++at, v);
  }
  g.pathLength = length;
  return length;
}
