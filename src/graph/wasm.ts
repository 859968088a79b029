// The wasm backend of Graph: a handle to a graph in the core's linear memory.
// Each call is one crossing; results come back as copies read once from the
// core's buffers. A* with a JavaScript heuristic runs the reference search
// over views of the core's CSR, since calling out of wasm per vertex would
// cost more than the search itself.
import { NEGATIVE_CYCLE, NEGATIVE_WEIGHT, type Estimate, type GraphBackend, type SlotPath, type SlotTree } from './backend.js';
import { SearchStates, astar, type Csr } from './js/search.js';
import { forgetOnCollect, freeOnCollect } from '../core/reclaim.js';
import bytes from '../../build/graph.wasm.gz';
import { instantiate } from '../../build/graph.js';
import { WasmModule, type CoreOf } from '../core/wasm.js';

/** The Graph's wasm module, built from assembly/graph/exports.ts. */
export const graphModule = new WasmModule('graph', bytes, instantiate);

export class WasmGraph implements GraphBackend {
  private readonly core: CoreOf<typeof graphModule>;
  private readonly handle: number;
  private n = 0;
  private readonly jsStates = new SearchStates();

  constructor() {
    this.core = graphModule.core();
    this.handle = this.core.exports.graphCreate();
    freeOnCollect(this, this.core.exports.graphDispose, this.handle);
  }

  ensureVertices(count: number): void {
    if (count <= this.n) return;
    this.core.exports.graphEnsureVertices(this.handle, count);
    this.n = count;
  }

  setPosition(v: number, x: number, y: number): void {
    this.core.exports.graphSetPosition(this.handle, v, x, y);
  }

  setEdge(u: number, v: number, w: number, mirror: boolean): boolean {
    const added = this.core.exports.graphSetEdge(this.handle, u, v, w, mirror) === 1;
    this.n = Math.max(this.n, u + 1, v + 1);
    return added;
  }

  removeEdge(u: number, v: number, mirror: boolean): boolean {
    return this.core.exports.graphRemoveEdge(this.handle, u, v, mirror) === 1;
  }

  weightOf(u: number, v: number): number {
    return this.core.exports.graphWeightOf(this.handle, u, v);
  }

  degree(v: number): number {
    return this.core.exports.graphDegree(this.handle, v);
  }

  neighbors(v: number): Int32Array {
    return this.list(this.core.exports.graphNeighbors(this.handle, v));
  }

  nearest(x: number, y: number): Int32Array {
    return this.list(this.core.exports.graphNearest(this.handle, x, y));
  }

  arcs(): { from: Int32Array; to: Int32Array; weight: Float64Array } {
    const { exports, memory } = this.core;
    const h = this.handle;
    const m = exports.graphEdgeCount(h); // settles a bulk load's repeats first
    const from = (exports.graphEdgeFrom(h) >>> 0) / 4;
    const to = (exports.graphEdgeTo(h) >>> 0) / 4;
    const weight = (exports.graphEdgeWeight(h) >>> 0) / 8;
    return {
      from: memory.i32.slice(from, from + m),
      to: memory.i32.slice(to, to + m),
      weight: memory.f64.slice(weight, weight + m),
    };
  }

  positions(): { xs: Float64Array; ys: Float64Array } {
    const { exports, memory } = this.core;
    const at = (exports.graphPositions(this.handle) >>> 0) / 8;
    const f64 = memory.f64;
    const xs = new Float64Array(this.n);
    const ys = new Float64Array(this.n);
    for (let v = 0; v < this.n; v++) {
      xs[v] = f64[at + 2 * v];
      ys[v] = f64[at + 2 * v + 1];
    }
    return { xs, ys };
  }

  clearVertex(v: number): void {
    this.core.exports.graphClearVertex(this.handle, v);
  }

  edgeCount(): number {
    return this.core.exports.graphEdgeCount(this.handle);
  }

  negativeEdges(): number {
    return this.core.exports.graphNegativeEdges(this.handle);
  }

  load(n: number, from: Int32Array, to: Int32Array, weight: Float64Array, xs?: Float64Array, ys?: Float64Array, listed = false): void {
    const { exports, memory } = this.core;
    const h = this.handle;
    this.ensureVertices(n);
    if (xs !== undefined && ys !== undefined) {
      // Positions are (x, y) records in the core.
      const at = (exports.graphPositions(h) >>> 0) / 8;
      const f64 = memory.f64;
      for (let v = 0; v < n; v++) {
        f64[at + 2 * v] = xs[v];
        f64[at + 2 * v + 1] = ys[v];
      }
    }
    // The core sizes its edge list; the edges are written straight into it.
    exports.graphReserveLoad(h, from.length);
    memory.i32.set(from, (exports.graphEdgeFrom(h) >>> 0) / 4);
    memory.i32.set(to, (exports.graphEdgeTo(h) >>> 0) / 4);
    memory.f64.set(weight, (exports.graphEdgeWeight(h) >>> 0) / 8);
    if (listed) exports.graphLoadListed(h);
    else exports.graphLoadEdges(h);
  }

  spfa(s: number): SlotTree | number {
    const status = this.core.exports.graphSpfa(this.handle, s);
    return status === NEGATIVE_CYCLE ? status : this.tree();
  }

  dijkstra(s: number): SlotTree {
    this.core.exports.graphDijkstra(this.handle, s);
    return this.tree();
  }

  path(s: number, t: number, algorithm: number, heuristic: number): SlotPath | null | number {
    const { exports, memory } = this.core;
    const length = exports.graphPath(this.handle, s, t, algorithm, heuristic);
    if (length === NEGATIVE_WEIGHT || length === NEGATIVE_CYCLE) return length;
    if (length === 0) return null;
    const at = (exports.graphPathSlots(this.handle) >>> 0) / 4;
    return { slots: memory.i32.slice(at, at + length), cost: exports.graphPathCost(this.handle) };
  }

  astarWith(s: number, t: number, estimate: Estimate): SlotPath | null {
    if (s === t) return { slots: Int32Array.of(s), cost: 0 };
    // The estimate may make the memory grow (by filling another object, or a
    // search of its own): the views are then taken afresh before they are read.
    const memory = this.core.memory.memory;
    let buffer = memory.buffer;
    let csr = this.csrView();
    const views = (): Csr => {
      if (memory.buffer !== buffer) {
        buffer = memory.buffer;
        csr = this.csrView();
      }
      return csr;
    };
    const state = this.jsStates.acquire(this.n);
    try {
      return astar(csr, state, s, t, estimate, views);
    } finally {
      this.jsStates.release();
    }
  }

  dispose(): void {
    forgetOnCollect(this);
    this.core.exports.graphDispose(this.handle);
  }

  // Copies a [count, slot, ...] list the core wrote.
  private list(pointer: number): Int32Array {
    const i32 = this.core.memory.i32;
    const at = (pointer >>> 0) / 4;
    return i32.slice(at + 1, at + 1 + i32[at]);
  }

  // Copies the last single-source result out of the core's per-vertex
  // records (STATE_BYTES = 24: dist f64 at 0, parent i32 at 20), once.
  private tree(): SlotTree {
    const { exports, memory } = this.core;
    const base = exports.graphStates(this.handle) >>> 0;
    const f64 = memory.f64;
    const i32 = memory.i32;
    const n = this.n;
    const dist = new Float64Array(n);
    const parent = new Int32Array(n);
    for (let v = 0, d = base / 8, p = (base + 20) / 4; v < n; v++, d += 3, p += 6) {
      dist[v] = f64[d];
      parent[v] = i32[p];
    }
    return { dist, parent };
  }

  // Views of the core's CSR; valid until the next call into the core.
  private csrView(): Csr {
    const { exports, memory } = this.core;
    const block = (exports.graphCsrPointers(this.handle) >>> 0) / 4;
    const m = exports.graphEdgeCount(this.handle);
    const i32 = memory.i32;
    const f64 = memory.f64;
    const n = this.n;
    const ptr = (k: number): number => i32[block + k] >>> 0;
    return {
      n,
      start: i32.subarray(ptr(0) / 4, ptr(0) / 4 + n + 1),
      target: i32.subarray(ptr(1) / 4, ptr(1) / 4 + m),
      weight: f64.subarray(ptr(2) / 8, ptr(2) / 8 + m),
      rStart: i32.subarray(ptr(3) / 4, ptr(3) / 4 + n + 1),
      rSource: i32.subarray(ptr(4) / 4, ptr(4) / 4 + m),
      rWeight: f64.subarray(ptr(5) / 8, ptr(5) / 8 + m),
    };
  }
}
