// The js backend of Graph: the same design as assembly/graph/graph.ts. Edits touch
// an edge list with an index from (from, to) to the edge's place; searches
// read CSR arrays rebuilt lazily from the list, the reverse CSR only when a
// backward search needs it.
import {
  ALGORITHM,
  MAX_VERTICES,
  NEGATIVE_CYCLE,
  NEGATIVE_WEIGHT,
  type Estimate,
  type GraphBackend,
  type SlotPath,
  type SlotTree,
} from '../backend.js';
import {
  SearchStates,
  type SearchState,
  astar,
  bidirectional,
  dijkstra,
  pathFromParents,
  positionEstimate,
  spfa,
  type Csr,
} from './search.js';

const edgeKey = (from: number, to: number): number => from * MAX_VERTICES + to;

function grownF64(old: Float64Array, capacity: number, fill = 0): Float64Array<ArrayBuffer> {
  const next = new Float64Array(capacity).fill(fill, old.length);
  next.set(old);
  return next;
}

function grownI32(old: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(capacity);
  next.set(old);
  return next;
}

function capacityFor(current: number, needed: number): number {
  let capacity = Math.max(current * 2, 16);
  while (capacity < needed) capacity *= 2;
  return capacity;
}

/** The first half of a counting sort: start[k] = how many of the first m keys are below k. */
export function rowStarts(n: number, keys: Int32Array, m: number): Int32Array {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) start[keys[e] + 1]++;
  for (let k = 0; k < n; k++) start[k + 1] += start[k];
  return start;
}

export class ReferenceGraph implements GraphBackend {
  private n = 0;
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);

  // Edge list; `raw` marks a bulk load that may hold repeated pairs.
  private m = 0;
  private edgeFrom = new Int32Array(0);
  private edgeTo = new Int32Array(0);
  private edgeWeight = new Float64Array(0);
  private raw = false;
  // Where each listed edge sits in the forward CSR, and each forward CSR
  // entry in the reverse one: a weight change patches both in place.
  private edgeCsr = new Int32Array(0);
  private reverseAt = new Int32Array(0);
  private index = new Map<number, number>();
  private indexValid = true;

  private readonly csr: Csr = {
    n: 0,
    start: new Int32Array(1),
    target: new Int32Array(0),
    weight: new Float64Array(0),
    rStart: new Int32Array(1),
    rSource: new Int32Array(0),
    rWeight: new Float64Array(0),
  };
  private csrValid = true;
  private reverseValid = true;
  private negatives = 0;
  private readonly states = new SearchStates();

  ensureVertices(count: number): void {
    if (count <= this.n) return;
    if (count > this.xs.length) {
      const capacity = capacityFor(this.xs.length, count);
      this.xs = grownF64(this.xs, capacity, NaN);
      this.ys = grownF64(this.ys, capacity, NaN);
    }
    this.n = count;
    this.invalidate();
  }

  setPosition(v: number, x: number, y: number): void {
    this.xs[v] = x;
    this.ys[v] = y;
  }

  setEdge(u: number, v: number, w: number, mirror: boolean): boolean {
    this.prepareEdit();
    this.ensureVertices(Math.max(u, v) + 1);
    const added = this.setArc(u, v, w);
    if (mirror && u !== v) this.setArc(v, u, w);
    return added;
  }

  removeEdge(u: number, v: number, mirror: boolean): boolean {
    this.prepareEdit();
    const removed = this.removeArc(u, v);
    if (mirror && u !== v) this.removeArc(v, u);
    return removed;
  }

  weightOf(u: number, v: number): number {
    this.prepareEdit();
    const found = this.index.get(edgeKey(u, v));
    return found === undefined ? NaN : this.edgeWeight[found];
  }

  degree(v: number): number {
    this.ensureCsr();
    return this.csr.start[v + 1] - this.csr.start[v];
  }

  neighbors(v: number): Int32Array {
    this.ensureCsr();
    return this.csr.target.slice(this.csr.start[v], this.csr.start[v + 1]);
  }

  nearest(x: number, y: number): Int32Array {
    // Squared distances, as the core computes them, so ties agree exactly.
    let best = Infinity;
    const tied: number[] = [];
    for (let v = 0; v < this.n; v++) {
      if (Number.isNaN(this.xs[v])) continue;
      const dx = this.xs[v] - x;
      const dy = this.ys[v] - y;
      const d = dx * dx + dy * dy;
      if (d < best) {
        best = d;
        tied.length = 0;
      }
      if (d === best) tied.push(v);
    }
    return Int32Array.from(tied);
  }

  arcs(): { from: Int32Array; to: Int32Array; weight: Float64Array } {
    const m = this.edgeCount(); // settles a bulk load's repeats first
    return { from: this.edgeFrom.slice(0, m), to: this.edgeTo.slice(0, m), weight: this.edgeWeight.slice(0, m) };
  }

  positions(): { xs: Float64Array; ys: Float64Array } {
    return { xs: this.xs.slice(0, this.n), ys: this.ys.slice(0, this.n) };
  }

  clearVertex(v: number): void {
    this.prepareEdit();
    // Walk down so an edge moved into a freed place has already been looked at.
    for (let e = this.m - 1; e >= 0; e--) {
      if (this.edgeFrom[e] === v || this.edgeTo[e] === v) this.removeEdgeAt(e);
    }
    this.xs[v] = NaN;
    this.ys[v] = NaN;
    this.invalidate();
  }

  edgeCount(): number {
    if (this.raw) this.buildCsr();
    return this.m;
  }

  negativeEdges(): number {
    this.ensureCsr();
    return this.negatives;
  }

  load(n: number, from: Int32Array, to: Int32Array, weight: Float64Array, xs?: Float64Array, ys?: Float64Array, listed = false): void {
    this.ensureVertices(n);
    if (xs !== undefined && ys !== undefined) {
      this.xs.set(xs);
      this.ys.set(ys);
    }
    this.reserveEdges(from.length);
    this.edgeFrom.set(from);
    this.edgeTo.set(to);
    this.edgeWeight.set(weight);
    this.m = from.length;
    this.raw = !listed;
    this.indexValid = false;
    this.buildCsr();
  }

  spfa(s: number): SlotTree | number {
    this.ensureCsr();
    const state = this.states.acquire(this.n);
    try {
      const status = spfa(this.csr, state, s);
      return status !== 0 ? status : this.tree(state);
    } finally {
      this.states.release();
    }
  }

  dijkstra(s: number): SlotTree {
    this.ensureCsr();
    const state = this.states.acquire(this.n);
    try {
      dijkstra(this.csr, state, s);
      return this.tree(state);
    } finally {
      this.states.release();
    }
  }

  path(s: number, t: number, algorithm: number, heuristic: number): SlotPath | null | number {
    this.ensureCsr();
    const state = this.states.acquire(this.n);
    try {
      return this.pathWith(state, s, t, algorithm, heuristic);
    } finally {
      this.states.release();
    }
  }


  astarWith(s: number, t: number, estimate: Estimate): SlotPath | null {
    this.ensureCsr();
    if (s === t) return { slots: Int32Array.of(s), cost: 0 };
    const state = this.states.acquire(this.n);
    try {
      return astar(this.csr, state, s, t, estimate);
    } finally {
      this.states.release();
    }
  }

  dispose(): void {
    this.index.clear();
  }

  // ---- internals ----

  // A point-to-point search in `state` (see path).
  private pathWith(state: SearchState, s: number, t: number, algorithm: number, heuristic: number): SlotPath | null | number {
    if (algorithm === ALGORITHM.spfa) {
      const status = spfa(this.csr, state, s);
      if (status !== 0) return status;
      if (state.dist[t] === Infinity) return null;
      return { slots: pathFromParents(state.parent, s, t), cost: state.dist[t] };
    }
    if (this.negatives > 0) return NEGATIVE_WEIGHT;
    if (s === t) return { slots: Int32Array.of(s), cost: 0 };
    if (algorithm === ALGORITHM.bidirectional) {
      this.ensureReverse();
      return bidirectional(this.csr, state, s, t);
    }
    const kind = algorithm === ALGORITHM.dijkstra ? 0 : heuristic;
    return astar(this.csr, state, s, t, positionEstimate(kind, this.xs, this.ys, t));
  }

  // Adds u -> v or replaces its weight, patching a valid CSR in place.
  private setArc(u: number, v: number, w: number): boolean {
    const found = this.index.get(edgeKey(u, v));
    if (found !== undefined) {
      const old = this.edgeWeight[found];
      this.edgeWeight[found] = w;
      if (this.csrValid) {
        const at = this.edgeCsr[found];
        this.csr.weight[at] = w;
        this.negatives += (w < 0 ? 1 : 0) - (old < 0 ? 1 : 0);
        if (this.reverseValid) this.csr.rWeight[this.reverseAt[at]] = w;
      }
      return false;
    }
    this.invalidate();
    this.reserveEdges(this.m + 1);
    const e = this.m++;
    this.edgeFrom[e] = u;
    this.edgeTo[e] = v;
    this.edgeWeight[e] = w;
    this.index.set(edgeKey(u, v), e);
    return true;
  }

  private removeArc(u: number, v: number): boolean {
    const found = this.index.get(edgeKey(u, v));
    if (found === undefined) return false;
    this.removeEdgeAt(found);
    this.invalidate();
    return true;
  }

  private tree(state: SearchState): SlotTree {
    return { dist: state.dist.slice(0, this.n), parent: state.parent.slice(0, this.n) };
  }

  private invalidate(): void {
    this.csrValid = false;
    this.reverseValid = false;
  }

  private reserveEdges(count: number): void {
    if (count <= this.edgeFrom.length) return;
    const capacity = capacityFor(this.edgeFrom.length, count);
    this.edgeFrom = grownI32(this.edgeFrom, capacity);
    this.edgeTo = grownI32(this.edgeTo, capacity);
    this.edgeWeight = grownF64(this.edgeWeight, capacity);
    this.edgeCsr = grownI32(this.edgeCsr, capacity);
  }

  // Edits need the index and a list without repeats.
  private prepareEdit(): void {
    if (this.raw) this.buildCsr();
    if (this.indexValid) return;
    this.index.clear();
    for (let e = 0; e < this.m; e++) this.index.set(edgeKey(this.edgeFrom[e], this.edgeTo[e]), e);
    this.indexValid = true;
  }

  // Removes edge e by moving the last edge into its place.
  private removeEdgeAt(e: number): void {
    this.index.delete(edgeKey(this.edgeFrom[e], this.edgeTo[e]));
    const last = --this.m;
    if (e === last) return;
    this.edgeFrom[e] = this.edgeFrom[last];
    this.edgeTo[e] = this.edgeTo[last];
    this.edgeWeight[e] = this.edgeWeight[last];
    this.index.set(edgeKey(this.edgeFrom[e], this.edgeTo[e]), e);
  }

  private ensureCsr(): void {
    if (!this.csrValid) this.buildCsr();
  }

  // Counting sort of the edge list by source. Rows keep list order, so in a
  // raw list a later repeat of (from, to) overwrites the earlier weight.
  private buildCsr(): void {
    const { n, m } = this;
    const csr = this.csr;
    const start = rowStarts(n, this.edgeFrom, m);
    const cursor = start.slice(0, n);
    const target = new Int32Array(m);
    const weight = new Float64Array(m);
    for (let e = 0; e < m; e++) {
      const at = cursor[this.edgeFrom[e]]++;
      target[at] = this.edgeTo[e];
      weight[at] = this.edgeWeight[e];
      this.edgeCsr[e] = at;
    }
    csr.n = n;
    csr.start = start;
    csr.target = target;
    csr.weight = weight;
    if (this.raw) this.removeRepeats();
    let negatives = 0;
    for (let e = 0; e < this.m; e++) if (csr.weight[e] < 0) negatives++;
    this.negatives = negatives;
    this.csrValid = true;
    this.reverseValid = false;
  }

  // Compacts each row so every target appears once with its last weight,
  // then rewrites the edge list from the CSR.
  private removeRepeats(): void {
    const { n } = this;
    const { start, target, weight } = this.csr;
    const seenRow = new Int32Array(n); // row + 1 that last wrote each target
    const seenAt = new Int32Array(n); // where it was written
    let out = 0;
    let rowBegin = 0;
    for (let u = 0; u < n; u++) {
      const end = start[u + 1];
      start[u] = out;
      for (let at = rowBegin; at < end; at++) {
        const v = target[at];
        if (seenRow[v] === u + 1) {
          weight[seenAt[v]] = weight[at];
        } else {
          seenRow[v] = u + 1;
          seenAt[v] = out;
          target[out] = v;
          weight[out] = weight[at];
          out++;
        }
      }
      rowBegin = end;
    }
    start[n] = out;
    this.m = out;
    for (let u = 0; u < n; u++) {
      for (let at = start[u]; at < start[u + 1]; at++) {
        this.edgeFrom[at] = u;
        this.edgeTo[at] = target[at];
        this.edgeWeight[at] = weight[at];
        this.edgeCsr[at] = at;
      }
    }
    this.raw = false;
    this.indexValid = false;
  }

  // In-edges grouped by target, by a counting sort over the forward CSR.
  private ensureReverse(): void {
    this.ensureCsr();
    if (this.reverseValid) return;
    const { n, m, csr } = this;
    const rStart = rowStarts(n, csr.target, m);
    const cursor = rStart.slice(0, n);
    const rSource = new Int32Array(m);
    const rWeight = new Float64Array(m);
    this.reverseAt = new Int32Array(m);
    for (let u = 0; u < n; u++) {
      for (let e = csr.start[u]; e < csr.start[u + 1]; e++) {
        const at = cursor[csr.target[e]]++;
        rSource[at] = u;
        rWeight[at] = csr.weight[e];
        this.reverseAt[e] = at;
      }
    }
    csr.rStart = rStart;
    csr.rSource = rSource;
    csr.rWeight = rWeight;
    this.reverseValid = true;
  }
}
