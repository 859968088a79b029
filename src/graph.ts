// Graph: a weighted directed graph with SPFA, Dijkstra, A* and bidirectional
// Dijkstra. This facade validates every call, owns the id <-> slot mapping and
// delegates to a backend (the wasm core or the TypeScript reference).
import { SpatialError } from './errors.js';
import { MAX_VERTICES, type GraphBackend } from './graph-backend.js';
import { VertexIds, type VertexId } from './graph-ids.js';
import { WasmGraph } from './graph-wasm.js';
import { ReferenceGraph } from './reference/graph.js';
import {
  ALGORITHM,
  HEURISTIC,
  NEGATIVE_CYCLE,
  NEGATIVE_WEIGHT,
  type Estimate,
  type SlotPath,
  type SlotTree,
} from './reference/graph-search.js';
import {
  asFloat64Array,
  asInt32Array,
  checkAlive,
  checkArrayLike,
  checkFinite,
  checkId,
  checkIdEntries,
  checkNumbers,
  checkOptions,
} from './validate.js';
import { resolveBackend, type Backend } from './wasm.js';

export type { VertexId } from './graph-ids.js';

/** A heuristic by name (from vertex positions), or a function of (vertex id, target id). */
export type Heuristic = 'euclidean' | 'manhattan' | 'octile' | 'zero' | ((a: VertexId, b: VertexId) => number);

/** Point-to-point algorithms of {@link Graph.path}. */
export type PathAlgorithm = 'astar' | 'dijkstra' | 'bidirectional' | 'spfa';

/** Options of the {@link Graph} constructor. */
export interface GraphOptions {
  /** 'wasm' (default, needs {@link init} first) or 'js' (the TypeScript reference). */
  backend?: Backend;
}

/** Options of {@link Graph.fromEdges}. */
export interface FromEdgesOptions {
  /** Number of vertices (ids 0..vertexCount-1); default: the largest id + 1. */
  vertexCount?: number;
  /** x coordinates of vertices 0..n-1 (give both x and y, or neither); a plain or typed array of length n. */
  x?: ArrayLike<number>;
  /** y coordinates of vertices 0..n-1 (give both x and y, or neither); a plain or typed array of length n. */
  y?: ArrayLike<number>;
  /** 'wasm' (default, needs {@link init} first) or 'js' (the TypeScript reference). */
  backend?: Backend;
}

/** Options of {@link Graph.path}. */
export interface PathOptions {
  /** The search to run; the default depends on the graph (see {@link Graph.path}). */
  algorithm?: PathAlgorithm;
  /** The A* heuristic (default 'euclidean'); only 'astar' reads it, and giving one makes 'astar' the default algorithm. */
  heuristic?: Heuristic;
}

/** A point-to-point shortest path: ids from source to target, and its cost. */
export interface PathResult {
  /** Vertex ids from source to target, both included; [source] when source equals target. */
  path: VertexId[];
  /** The sum of the edge weights along path; 0 when source equals target. */
  cost: number;
}

/** Every vertex's distance from one source, and the paths that realise them. */
export interface ShortestPaths {
  /** Cost of the shortest path from the source; Infinity if unreachable. */
  distance(id: VertexId): number;
  /** Ids from the source to id, or null if unreachable. */
  path(id: VertexId): VertexId[] | null;
}

/** A single-source result over a snapshot of the ids at query time. */
class SlotShortestPaths implements ShortestPaths {
  constructor(
    private readonly ids: VertexIds,
    private readonly tree: SlotTree,
  ) {}

  distance(id: VertexId): number {
    return this.tree.dist[this.slot(id)];
  }

  path(id: VertexId): VertexId[] | null {
    const slot = this.slot(id);
    if (this.tree.dist[slot] === Infinity) return null;
    const path: VertexId[] = [];
    for (let v = slot; v !== -1; v = this.tree.parent[v]) path.push(this.ids.idAt(v));
    return path.reverse();
  }

  private slot(id: VertexId): number {
    const slot = this.ids.slotOf(id);
    if (slot < 0) throw new SpatialError('UNKNOWN_ID', `no vertex ${describe(id)} when these paths were computed`);
    return slot;
  }
}

/** Every key each options object may have. */
const GRAPH_OPTION_KEYS = ['backend'];
const FROM_EDGES_OPTION_KEYS = ['vertexCount', 'x', 'y', 'backend'];
const PATH_OPTION_KEYS = ['algorithm', 'heuristic'];

const HEURISTIC_NAMES = new Set(['euclidean', 'manhattan', 'octile', 'zero']);
const ALGORITHMS = new Set(['astar', 'dijkstra', 'bidirectional', 'spfa']);

function describe(id: unknown): string {
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}

function checkVertexId(id: unknown): asserts id is VertexId {
  if (typeof id === 'string') return;
  if (typeof id !== 'number') throw new SpatialError('INVALID_ID', `vertex id must be a string or a number, got ${typeof id}`);
  checkId(id);
}

function checkPosition(pos: unknown): asserts pos is { x: number; y: number } {
  if (typeof pos !== 'object' || pos === null) {
    throw new SpatialError('INVALID_ARGUMENT', 'pos must be an object { x, y }');
  }
  const { x, y } = pos as { x: unknown; y: unknown };
  checkFinite('pos.x', x as number);
  checkFinite('pos.y', y as number);
}

function checkHeuristic(heuristic: unknown): asserts heuristic is Heuristic {
  if (typeof heuristic === 'function') return;
  if (typeof heuristic !== 'string' || !HEURISTIC_NAMES.has(heuristic)) {
    throw new SpatialError('INVALID_ARGUMENT', `heuristic must be 'euclidean', 'manhattan', 'octile', 'zero' or a function, got ${String(heuristic)}`);
  }
}

function createBackend(backend: Backend | undefined): GraphBackend {
  return resolveBackend(backend) === 'wasm' ? new WasmGraph() : new ReferenceGraph();
}

/**
 * A weighted directed graph whose vertices are string or number ids, with
 * single-source (SPFA, Dijkstra) and point-to-point (A*, Dijkstra,
 * bidirectional Dijkstra, SPFA) shortest paths.
 */
export class Graph {
  private readonly backend: GraphBackend;
  private ids: VertexIds;
  /** True while a ShortestPaths result reads `ids`: the next vertex edit copies it first. */
  private idsShared = false;
  /** Per slot: 1 when the vertex has a position. */
  private positioned = new Uint8Array(16);
  private positionedCount = 0;
  private disposed = false;
  private searching = false;

  /** Creates an empty graph; `backend` 'wasm' (default, needs init()) or 'js'. Unknown option keys throw INVALID_ARGUMENT. */
  constructor(options: GraphOptions = {}) {
    checkOptions('Graph', options, GRAPH_OPTION_KEYS);
    this.backend = createBackend(options.backend);
    this.ids = new VertexIds();
  }

  /**
   * Builds a graph over ids 0..n-1 from parallel edge arrays in one pass: the
   * fast path for big graphs. A repeated (from, to) keeps its last weight, as
   * addEdge would. The arrays (and options.x, options.y) may be plain arrays
   * or typed arrays of any kind. Throws INVALID_ARGUMENT for a non-array,
   * mismatched lengths or an unknown option, INVALID_ID for an id that is not
   * an integer in 0..n-1, INVALID_NUMBER for a weight or coordinate that is
   * not a finite number.
   */
  static fromEdges(from: ArrayLike<number>, to: ArrayLike<number>, weight: ArrayLike<number>, options: FromEdgesOptions = {}): Graph {
    checkOptions('Graph.fromEdges', options, FROM_EDGES_OPTION_KEYS);
    const edges = checkArrayLike('from', from);
    checkArrayLike('to', to, edges);
    checkNumbers('weight', weight, edges);
    checkIdEntries(from);
    checkIdEntries(to);
    let largest = -1;
    for (let e = 0; e < edges; e++) {
      if (from[e] > largest) largest = from[e];
      if (to[e] > largest) largest = to[e];
    }
    const n = options.vertexCount ?? largest + 1;
    if (!Number.isInteger(n) || n < 0 || n > MAX_VERTICES) {
      throw new SpatialError('INVALID_ARGUMENT', `vertexCount must be an integer in [0, ${MAX_VERTICES}], got ${String(n)}`);
    }
    if (largest >= n) throw new SpatialError('INVALID_ID', `edge id ${largest} is outside 0..${n - 1}`);
    const { x, y } = options;
    if ((x === undefined) !== (y === undefined)) throw new SpatialError('INVALID_ARGUMENT', 'give both x and y, or neither');
    if (x !== undefined && y !== undefined) {
      checkNumbers('x', x, n);
      checkNumbers('y', y, n);
    }
    const graph = new Graph({ backend: options.backend });
    graph.backend.load(
      n,
      asInt32Array(from),
      asInt32Array(to),
      asFloat64Array(weight),
      x === undefined ? undefined : asFloat64Array(x),
      y === undefined ? undefined : asFloat64Array(y),
    );
    graph.ids = VertexIds.identity(n);
    graph.positioned = new Uint8Array(Math.max(n, 16));
    if (x !== undefined) {
      graph.positioned.fill(1, 0, n);
      graph.positionedCount = n;
    }
    return graph;
  }

  /** Number of vertices. */
  get vertexCount(): number {
    this.alive();
    return this.ids.size;
  }

  /** Number of edges (a repeated edge counts once). */
  get edgeCount(): number {
    this.alive();
    return this.backend.edgeCount();
  }

  /** True when the graph has a vertex with this id. */
  hasVertex(id: VertexId): boolean {
    this.alive();
    checkVertexId(id);
    return this.ids.slotOf(id) >= 0;
  }

  /**
   * Adds a vertex, optionally with a position that A* heuristics read.
   * Throws DUPLICATE_ID when the id exists (use setPosition to place it).
   */
  addVertex(id: VertexId, pos?: { x: number; y: number }): void {
    this.editable();
    checkVertexId(id);
    if (pos !== undefined) checkPosition(pos);
    if (this.ids.slotOf(id) >= 0) throw new SpatialError('DUPLICATE_ID', `vertex ${describe(id)} already exists`);
    this.checkRoom(1);
    const slot = this.createVertex(id);
    if (pos !== undefined) this.place(slot, pos.x, pos.y);
  }

  /** Sets (or with null, clears) the position of an existing vertex. */
  setPosition(id: VertexId, pos: { x: number; y: number } | null): void {
    this.editable();
    checkVertexId(id);
    if (pos !== null) checkPosition(pos);
    const slot = this.slotOf(id);
    if (pos === null) this.place(slot, NaN, NaN);
    else this.place(slot, pos.x, pos.y);
  }

  /**
   * Adds the directed edge from -> to, creating missing vertices; a repeated
   * edge replaces its weight. Weights may be negative (only SPFA accepts
   * them); a non-finite weight throws INVALID_NUMBER.
   */
  addEdge(from: VertexId, to: VertexId, weight: number): void {
    this.editable();
    checkVertexId(from);
    checkVertexId(to);
    checkFinite('weight', weight);
    let u = this.ids.slotOf(from);
    let v = this.ids.slotOf(to);
    this.checkRoom((u < 0 ? 1 : 0) + (v < 0 && from !== to ? 1 : 0));
    if (u < 0) u = this.createVertex(from);
    if (v < 0) v = from === to ? u : this.createVertex(to);
    this.backend.setEdge(u, v, weight);
  }

  /** Removes the edge from -> to; false when there is none. */
  removeEdge(from: VertexId, to: VertexId): boolean {
    this.editable();
    checkVertexId(from);
    checkVertexId(to);
    const u = this.ids.slotOf(from);
    const v = this.ids.slotOf(to);
    if (u < 0 || v < 0) return false;
    return this.backend.removeEdge(u, v);
  }

  /** Removes a vertex and every edge into or out of it; false when absent. */
  removeVertex(id: VertexId): boolean {
    this.editable();
    checkVertexId(id);
    const slot = this.ids.slotOf(id);
    if (slot < 0) return false;
    this.backend.clearVertex(slot);
    if (this.positioned[slot] === 1) {
      this.positioned[slot] = 0;
      this.positionedCount--;
    }
    this.ownIds().remove(id);
    return true;
  }

  /**
   * Single-source shortest paths by SPFA (queue-based relaxation); negative
   * weights are allowed. Throws NEGATIVE_CYCLE when a negative cycle is
   * reachable from the source, UNKNOWN_ID for an unknown source.
   */
  spfa(source: VertexId): ShortestPaths {
    const s = this.sourceSlot(source);
    const tree = this.backend.spfa(s);
    if (typeof tree === 'number') throw this.cycleError(source);
    return this.shortestPaths(tree);
  }

  /**
   * Single-source shortest paths by Dijkstra with a binary heap. Throws
   * NEGATIVE_WEIGHT if any edge of the graph is negative.
   */
  dijkstra(source: VertexId): ShortestPaths {
    const s = this.sourceSlot(source);
    this.refuseNegative();
    return this.shortestPaths(this.backend.dijkstra(s));
  }

  /**
   * A* from source to target; null when target is unreachable. The heuristic
   * (default 'euclidean') reads vertex positions, a vertex without position
   * contributing 0, or is a function (vertexId, targetId) => lower bound.
   * Throws NEGATIVE_WEIGHT if any edge is negative.
   */
  astar(source: VertexId, target: VertexId, heuristic: Heuristic = 'euclidean'): PathResult | null {
    return this.path(source, target, { algorithm: 'astar', heuristic });
  }

  /**
   * Shortest path from source to target, stopping as soon as it is known;
   * null when unreachable. `algorithm` defaults to 'spfa' when the graph has
   * a negative edge, else 'astar' when a heuristic is given or any vertex has
   * a position, else 'bidirectional' (Dijkstra from both ends). 'astar', 'dijkstra' and
   * 'bidirectional' throw NEGATIVE_WEIGHT on a graph with a negative edge;
   * 'spfa' throws NEGATIVE_CYCLE when one is reachable from the source.
   * Unknown option keys throw INVALID_ARGUMENT.
   */
  path(source: VertexId, target: VertexId, options: PathOptions = {}): PathResult | null {
    this.alive();
    checkVertexId(source);
    checkVertexId(target);
    checkOptions('Graph.path', options, PATH_OPTION_KEYS);
    const { heuristic = 'euclidean' } = options;
    let { algorithm } = options;
    if (algorithm !== undefined && !ALGORITHMS.has(algorithm)) {
      throw new SpatialError('INVALID_ARGUMENT', `algorithm must be 'astar', 'dijkstra', 'bidirectional' or 'spfa', got ${String(algorithm)}`);
    }
    checkHeuristic(heuristic);
    const s = this.slotOf(source);
    const t = this.slotOf(target);
    if (algorithm === undefined) {
      if (this.backend.negativeEdges() > 0) algorithm = 'spfa';
      else algorithm = options.heuristic !== undefined || this.positionedCount > 0 ? 'astar' : 'bidirectional';
    }
    let found: SlotPath | null | number;
    if (algorithm === 'astar' && typeof heuristic === 'function') {
      this.refuseNegative();
      this.searching = true;
      try {
        found = this.backend.astarWith(s, t, this.userEstimate(heuristic, target));
      } finally {
        this.searching = false;
      }
    } else {
      const kind = typeof heuristic === 'function' ? 0 : HEURISTIC[heuristic];
      found = this.backend.path(s, t, ALGORITHM[algorithm], kind);
    }
    if (found === NEGATIVE_WEIGHT) throw this.negativeWeightError();
    if (found === NEGATIVE_CYCLE) throw this.cycleError(source);
    if (found === null || typeof found === 'number') return null;
    const path = new Array<VertexId>(found.slots.length);
    for (let i = 0; i < path.length; i++) path[i] = this.ids.idAt(found.slots[i]);
    return { path, cost: found.cost };
  }

  /** Frees the graph's wasm memory; every later call throws DISPOSED. Refused inside a heuristic function. */
  dispose(): void {
    if (this.disposed) return;
    this.editable();
    this.disposed = true;
    this.backend.dispose();
  }

  // ---- internals ----

  private alive(): void {
    checkAlive(this.disposed, 'this Graph');
  }

  // Edits are refused while a heuristic function runs inside a search: the
  // search reads the graph's arrays in place.
  private editable(): void {
    this.alive();
    if (this.searching) throw new SpatialError('INVALID_ARGUMENT', 'the graph cannot change while a heuristic function runs');
  }

  private slotOf(id: VertexId): number {
    const slot = this.ids.slotOf(id);
    if (slot < 0) throw new SpatialError('UNKNOWN_ID', `no vertex ${describe(id)}`);
    return slot;
  }

  private sourceSlot(source: VertexId): number {
    this.alive();
    checkVertexId(source);
    return this.slotOf(source);
  }

  private refuseNegative(): void {
    if (this.backend.negativeEdges() > 0) throw this.negativeWeightError();
  }

  private negativeWeightError(): SpatialError {
    return new SpatialError('NEGATIVE_WEIGHT', 'the graph has a negative edge weight; use spfa');
  }

  private cycleError(source: VertexId): SpatialError {
    return new SpatialError('NEGATIVE_CYCLE', `a negative cycle is reachable from ${describe(source)}`);
  }

  // The ids, copied first if a ShortestPaths result still reads them.
  private ownIds(): VertexIds {
    if (this.idsShared) {
      this.ids = this.ids.clone();
      this.idsShared = false;
    }
    return this.ids;
  }

  private shortestPaths(tree: SlotTree): ShortestPaths {
    this.idsShared = true;
    return new SlotShortestPaths(this.ids, tree);
  }

  private checkRoom(added: number): void {
    if (this.ids.slotCount + added > MAX_VERTICES) {
      throw new SpatialError('INVALID_ARGUMENT', `a graph holds at most ${MAX_VERTICES} vertex slots`);
    }
  }

  private createVertex(id: VertexId): number {
    const slot = this.ownIds().add(id);
    this.backend.ensureVertices(slot + 1);
    if (slot >= this.positioned.length) {
      const grown = new Uint8Array(Math.max(this.positioned.length * 2, slot + 1));
      grown.set(this.positioned);
      this.positioned = grown;
    }
    return slot;
  }

  private place(slot: number, x: number, y: number): void {
    const has = Number.isNaN(x) ? 0 : 1;
    this.positionedCount += has - this.positioned[slot];
    this.positioned[slot] = has;
    this.backend.setPosition(slot, x, y);
  }

  // A user heuristic as a per-slot estimate; it must return a finite number.
  private userEstimate(heuristic: (a: VertexId, b: VertexId) => number, target: VertexId): Estimate {
    const ids = this.ids;
    return (v) => {
      const h = heuristic(ids.idAt(v), target);
      if (!Number.isFinite(h)) {
        throw new SpatialError('INVALID_NUMBER', `heuristic returned ${String(h)} for ${describe(ids.idAt(v))}`);
      }
      return h;
    };
  }
}
