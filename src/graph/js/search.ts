// Shortest-path searches over CSR arrays, the same algorithms as
// assembly/graph/search.ts: SPFA with negative-cycle detection, Dijkstra, A*
// and bidirectional Dijkstra. The js backend runs them on its own arrays; the
// wasm backend runs A* here over views of its linear memory when the caller's
// heuristic is a JavaScript function.
import { HEURISTIC, NEGATIVE_CYCLE, NEGATIVE_WEIGHT, type Estimate, type SlotPath, type SlotTree } from '../backend.js';
import { MinHeap } from './minheap.js';

/** A graph in compressed sparse rows: the out-edges of u are start[u]..start[u+1]-1. */
export interface Csr {
  n: number;
  start: Int32Array;
  target: Int32Array;
  weight: Float64Array;
  /** In-edges grouped by target, for backward search. */
  rStart: Int32Array;
  rSource: Int32Array;
  rWeight: Float64Array;
}

/**
 * Per-graph search state. A vertex's point-to-point entries are valid only
 * while its stamp equals the current generation, so a query touches only the
 * vertices it visits.
 */
export class SearchState {
  generation = 0;
  stamp = new Int32Array(0);
  stampB = new Int32Array(0);
  dist = new Float64Array(0);
  distB = new Float64Array(0);
  parent = new Int32Array(0);
  parentB = new Int32Array(0);
  extra = new Float64Array(0);
  queue = new Int32Array(0);
  readonly heap = new MinHeap(64);
  readonly heapB = new MinHeap(64);

  /** Sizes every array for n slots. */
  fit(n: number): void {
    if (n <= this.stamp.length) return;
    const capacity = Math.max(n, this.stamp.length * 2, 16);
    const grownI32 = (old: Int32Array): Int32Array<ArrayBuffer> => {
      const next = new Int32Array(capacity);
      next.set(old);
      return next;
    };
    this.stamp = grownI32(this.stamp);
    this.stampB = grownI32(this.stampB);
    this.parent = new Int32Array(capacity);
    this.parentB = new Int32Array(capacity);
    this.queue = new Int32Array(capacity);
    this.dist = new Float64Array(capacity);
    this.distB = new Float64Array(capacity);
    this.extra = new Float64Array(capacity);
  }

  nextGeneration(): number {
    if (this.generation === 0x7fffffff) {
      this.stamp.fill(0);
      this.stampB.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }
}

/**
 * The search states of one graph: a search started while another runs (from
 * inside the other's heuristic function) takes a state of its own, so
 * neither disturbs the other.
 */
export class SearchStates {
  private readonly states: SearchState[] = [];
  private depth = 0;

  /** A state sized for n slots that no running search holds; give it back with release. */
  acquire(n: number): SearchState {
    const state = (this.states[this.depth] ??= new SearchState());
    this.depth++;
    state.fit(n);
    return state;
  }

  /** Gives back the state the last acquire handed out. */
  release(): void {
    this.depth--;
  }
}

function resetAll(state: SearchState, n: number): void {
  state.dist.fill(Infinity, 0, n);
  state.parent.fill(-1, 0, n);
}

/**
 * SPFA from s: a FIFO queue with an in-queue flag per vertex. A vertex's path
 * reaching n edges repeats a vertex, which only a negative cycle can make
 * cheaper, so the search reports NEGATIVE_CYCLE there instead of looping.
 * Returns 0 or NEGATIVE_CYCLE; dist and parent cover every slot.
 */
export function spfa(csr: Csr, state: SearchState, s: number): number {
  const { n, start, target, weight } = csr;
  const { dist, parent, queue } = state;
  const edges = state.parentB; // path length per vertex
  const queued = state.stampB; // in-queue flag
  resetAll(state, n);
  queued.fill(0, 0, n);
  dist[s] = 0;
  edges[s] = 0;
  queue[0] = s;
  queued[s] = 1;
  let head = 0;
  let size = 1;
  let status = 0;
  while (size > 0) {
    const u = queue[head];
    head = head + 1 === n ? 0 : head + 1;
    size--;
    queued[u] = 0;
    const du = dist[u];
    const hops = edges[u] + 1;
    for (let e = start[u], end = start[u + 1]; e < end; e++) {
      const v = target[e];
      const candidate = du + weight[e];
      if (candidate < dist[v]) {
        dist[v] = candidate;
        parent[v] = u;
        edges[v] = hops;
        if (hops >= n) {
          status = NEGATIVE_CYCLE;
          size = 0;
          break;
        }
        if (queued[v] === 0) {
          queued[v] = 1;
          let tail = head + size;
          if (tail >= n) tail -= n;
          queue[tail] = v;
          size++;
        }
      }
    }
  }
  queued.fill(0, 0, n); // the flags borrowed the backward stamps
  return status;
}

/** Binary-heap Dijkstra from s over every vertex (weights must be >= 0). */
export function dijkstra(csr: Csr, state: SearchState, s: number): void {
  const { n, start, target, weight } = csr;
  const { dist, parent, heap } = state;
  resetAll(state, n);
  heap.clear();
  dist[s] = 0;
  heap.push(0, s);
  while (!heap.empty) {
    const key = heap.topKey;
    const u = heap.pop();
    if (key > dist[u]) continue;
    for (let e = start[u], end = start[u + 1]; e < end; e++) {
      const v = target[e];
      const candidate = key + weight[e];
      if (candidate < dist[v]) {
        dist[v] = candidate;
        parent[v] = u;
        heap.push(candidate, v);
      }
    }
  }
}

/** The slots from s to t by following parents back from t. */
export function pathFromParents(parent: Int32Array, s: number, t: number): Int32Array {
  let length = 1;
  for (let v = t; v !== s; v = parent[v]) length++;
  const slots = new Int32Array(length);
  for (let v = t, at = length - 1; at >= 0; v = parent[v]) slots[at--] = v;
  return slots;
}

/**
 * A* from s to t (Dijkstra when h is always 0), stopping when t leaves the
 * heap. A vertex is expanded again when its cost improves after expansion, so
 * an admissible heuristic that is not consistent (vertices without position
 * count 0) still yields the optimum. extra caches each visited vertex's h.
 */
export function astar(csr: Csr, state: SearchState, s: number, t: number, h: Estimate, views?: () => Csr): SlotPath | null {
  // The arrays may be views of wasm memory that h makes grow: `views` then gives them afresh after each call.
  let { start, target, weight } = csr;
  const gen = state.nextGeneration();
  const { stamp, dist, parent, heap } = state;
  const hs = state.extra;
  heap.clear();
  stamp[s] = gen;
  dist[s] = 0;
  parent[s] = -1;
  hs[s] = h(s);
  if (views !== undefined) ({ start, target, weight } = views());
  heap.push(hs[s], s);
  while (!heap.empty) {
    const key = heap.topKey;
    const u = heap.pop();
    const du = dist[u];
    if (key > du + hs[u]) continue; // stale entry
    if (u === t) return { slots: pathFromParents(parent, s, t), cost: du };
    for (let e = start[u], end = start[u + 1]; e < end; e++) {
      const v = target[e];
      const candidate = du + weight[e];
      if (stamp[v] !== gen) {
        stamp[v] = gen;
        hs[v] = h(v);
        if (views !== undefined) ({ start, target, weight } = views());
      } else if (candidate >= dist[v]) {
        continue;
      }
      dist[v] = candidate;
      parent[v] = u;
      heap.push(candidate + hs[v], v);
    }
  }
  return null;
}

/**
 * Dijkstra from s over out-edges and from t over in-edges, expanding the side
 * with the smaller heap top. Every relaxation reaching a vertex the other side
 * has seen offers a path through it; once topF + topB >= best no unexplored
 * path is shorter, since its forward part costs at least topF and its
 * backward part at least topB.
 */
export function bidirectional(csr: Csr, state: SearchState, s: number, t: number): SlotPath | null {
  const gen = state.nextGeneration();
  const { stamp: stampF, stampB, dist: distF, distB, parent: parentF, parentB, heap: heapF, heapB } = state;
  heapF.clear();
  heapB.clear();
  stampF[s] = gen;
  distF[s] = 0;
  parentF[s] = -1;
  heapF.push(0, s);
  stampB[t] = gen;
  distB[t] = 0;
  parentB[t] = -1;
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
    const start = forward ? csr.start : csr.rStart;
    const ends = forward ? csr.target : csr.rSource;
    const weight = forward ? csr.weight : csr.rWeight;
    const key = heap.topKey;
    const u = heap.pop();
    if (key > dist[u]) continue;
    for (let e = start[u], end = start[u + 1]; e < end; e++) {
      const v = ends[e];
      const candidate = key + weight[e];
      if (stamp[v] !== gen || candidate < dist[v]) {
        stamp[v] = gen;
        dist[v] = candidate;
        parent[v] = u;
        heap.push(candidate, v);
      }
      if (otherStamp[v] === gen) {
        const through = dist[v] + otherDist[v];
        if (through < best) {
          best = through;
          meet = v;
        }
      }
    }
  }
  if (meet < 0) return null;
  const head = pathFromParents(parentF, s, meet);
  let tailLength = 0;
  for (let v = meet; v !== t; v = parentB[v]) tailLength++;
  const slots = new Int32Array(head.length + tailLength);
  slots.set(head);
  for (let v = meet, at = head.length; v !== t; ) {
    v = parentB[v];
    slots[at++] = v;
  }
  return { slots, cost: best };
}

/** A position-based estimate toward (tx, ty); NaN marks a missing position, which counts 0. */
export function positionEstimate(kind: number, xs: Float64Array, ys: Float64Array, t: number): Estimate {
  const tx = xs[t];
  const ty = ys[t];
  if (kind === HEURISTIC.zero || Number.isNaN(tx)) return () => 0;
  return (v) => {
    const x = xs[v];
    if (Number.isNaN(x)) return 0;
    const dx = Math.abs(x - tx);
    const dy = Math.abs(ys[v] - ty);
    if (kind === HEURISTIC.euclidean) return Math.sqrt(dx * dx + dy * dy);
    if (kind === HEURISTIC.manhattan) return dx + dy;
    return Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy);
  };
}
