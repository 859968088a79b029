// Graph: a weighted graph, directed or undirected, with SPFA, Dijkstra, A*
// and bidirectional Dijkstra. This facade validates every call, owns the
// id <-> slot mapping and delegates to a backend (the wasm core or the
// TypeScript reference). An undirected edge is kept as its two arcs, so every
// search runs unchanged on undirected graphs.
import { SpatialError } from '../core/errors.js';
import { checkLimit, limits, outOfMemory } from '../core/limits.js';
import { INSPECT, summary, keepName } from '../core/inspect.js';
import {
  ALGORITHM,
  HEURISTIC,
  NEGATIVE_CYCLE,
  NEGATIVE_WEIGHT,
  type Estimate,
  type GraphBackend,
  type SlotPath,
  type SlotTree,
} from './backend.js';
import { VertexIds, type VertexId } from './ids.js';
import { decodeGraph, encodeGraph } from './snapshot.js';
import type { FromBufferOptions } from '../core/snapshot-bytes.js';
import { WasmGraph } from './wasm.js';
import { ReferenceGraph } from './js/graph.js';
import { checkAlive, checkFinite, checkId, checkOptions, copyIds, copyNumbers } from '../core/validate.js';
import { resolveBackend, type Backend } from '../core/wasm.js';

export type { VertexId } from './ids.js';

/** A heuristic by name (from vertex positions), or a function of (vertex id, target id). */
export type Heuristic<Id extends VertexId = VertexId> = 'euclidean' | 'manhattan' | 'octile' | 'zero' | ((a: Id, b: Id) => number);

/** Point-to-point algorithms of {@link Graph.path}. */
export type PathAlgorithm = 'astar' | 'dijkstra' | 'bidirectional' | 'spfa';

/** Options of the {@link Graph} constructor. */
export interface GraphOptions {
  /** Which implementation backs the graph: 'wasm' (default, needs init()) or 'js'. */
  backend?: Backend;
  /**
   * false for an undirected graph: each edge is the two arcs u -> v and
   * v -> u with one weight. Default true.
   */
  directed?: boolean;
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
  /** false for an undirected graph: each (from[i], to[i]) is one edge usable both ways. Default true. */
  directed?: boolean;
}

/** Options of {@link Graph.path}. */
export interface PathOptions<Id extends VertexId = VertexId> {
  /** The search to run; the default depends on the graph (see {@link Graph.path}). */
  algorithm?: PathAlgorithm;
  /** The A* heuristic (default 'euclidean'); only 'astar' reads it, and giving one makes 'astar' the default algorithm. */
  heuristic?: Heuristic<Id>;
}

/** A point-to-point shortest path: ids from source to target, and its cost. */
export interface PathResult<Id extends VertexId = VertexId> {
  /** Vertex ids from source to target, both included; [source] when source equals target. */
  path: Id[];
  /** The sum of the edge weights along path; 0 when source equals target. */
  cost: number;
}

/** Every vertex's distance from one source, and the paths that realise them. */
export interface ShortestPaths<Id extends VertexId = VertexId> {
  /** Cost of the shortest path from the source; Infinity if unreachable. */
  distance(id: Id): number;
  /** Ids from the source to id, or null if unreachable. */
  path(id: Id): Id[] | null;
}

/** A single-source result over a snapshot of the ids at query time. */
class SlotShortestPaths<Id extends VertexId> implements ShortestPaths<Id> {
  constructor(
    private readonly ids: VertexIds,
    private readonly tree: SlotTree,
  ) {}

  distance(id: Id): number {
    return this.tree.dist[this.slot(id)];
  }

  path(id: Id): Id[] | null {
    const slot = this.slot(id);
    if (this.tree.dist[slot] === Infinity) return null;
    const path: Id[] = [];
    for (let v = slot; v !== -1; v = this.tree.parent[v]) path.push(this.ids.idAt(v) as Id);
    return path.reverse();
  }

  private slot(id: Id): number {
    const slot = this.ids.slotOf(id);
    if (slot < 0) throw new SpatialError('UNKNOWN_ID', `no vertex ${describe(id)} when these paths were computed`);
    return slot;
  }
}

/** Every key each options object may have. */
const GRAPH_OPTION_KEYS = ['backend', 'directed'];
const FROM_BUFFER_OPTION_KEYS = ['backend'];
const FROM_EDGES_OPTION_KEYS = ['vertexCount', 'x', 'y', 'backend', 'directed'];
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

function checkDirected(directed: unknown): boolean {
  if (directed === undefined) return true;
  if (typeof directed !== 'boolean') throw new SpatialError('INVALID_ARGUMENT', `directed must be a boolean, got ${String(directed)}`);
  return directed;
}

/**
 * The order of {@link Graph.neighbors} and of ties in
 * {@link Graph.nearestVertex}: numbers ascending, then strings by UTF-16
 * code units.
 */
function compareIds(a: VertexId, b: VertexId): number {
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
  if (typeof a === 'number') return a - (b as number);
  return a < b ? -1 : a > b ? 1 : 0;
}

function createBackend(backend: Backend | undefined): GraphBackend {
  return resolveBackend(backend) === 'wasm' ? new WasmGraph() : new ReferenceGraph();
}

/**
 * A weighted graph, directed (default) or undirected, whose vertices are
 * string or number ids, with single-source (SPFA, Dijkstra) and
 * point-to-point (A*, Dijkstra, bidirectional Dijkstra, SPFA) shortest paths.
 * `Id` narrows the ids in TypeScript: `new Graph<string>()`, and graphs from
 * {@link Graph.fromEdges} are `Graph<number>`.
 *
 * Any call that needs memory the host will not give (an edit, a search)
 * throws OUT_OF_MEMORY and leaves the graph as it was; the vertex and arc
 * limits are in docs/limits.md.
 *
 * @example
 * ```ts
 * import { init, Graph } from 'spatialkit';
 * await init();
 *
 * const roads = new Graph<string>({ directed: false });
 * roads.addVertex('mill', { x: 0, y: 0 });   // positions feed A*
 * roads.addVertex('keep', { x: 6, y: 8 });
 * roads.addEdge('mill', 'bridge', 4);         // 'bridge' is created, without a position
 * roads.addEdge('bridge', 'keep', 7);
 * roads.addEdge('mill', 'keep', 12);
 * roads.path('keep', 'mill');                 // -> { path: ['keep', 'bridge', 'mill'], cost: 11 }
 * roads.dijkstra('mill').distance('keep');    // -> 11
 * ```
 */
export class Graph<Id extends VertexId = VertexId> {
  static {
    keepName(this, 'Graph');
  }

  /** False for an undirected graph (each edge is both arcs, with one weight). */
  readonly directed: boolean;
  private readonly backend: GraphBackend;
  /** Which core runs the graph, for inspection. */
  private readonly backendName: Backend;
  private ids: VertexIds;
  /** True while a ShortestPaths result reads `ids`: the next vertex edit copies it first. */
  private idsShared = false;
  /** Per slot: 1 when the vertex has a position. */
  private positioned = new Uint8Array(16);
  private positionedCount = 0;
  /** Undirected graphs: vertices with a self-loop, the one edge that is a single arc. */
  private selfLoops = 0;
  private disposed = false;
  /** Searches running (a heuristic function may start one inside another): edits wait for none. */
  private searches = 0;
  /** Arcs held (an undirected edge is two, a self-loop one); -1 when not yet counted after a bulk load. */
  private arcs = 0;

  /**
   * Creates an empty graph; `directed` true (default) or false. On the
   * default wasm backend, await init() first (NOT_INITIALIZED otherwise);
   * `backend: 'js'` needs no init(). Throws INVALID_ARGUMENT for a bad
   * option or an unknown option key.
   */
  constructor(options: GraphOptions = {}) {
    checkOptions('Graph', options, GRAPH_OPTION_KEYS);
    this.directed = checkDirected(options.directed);
    this.backendName = resolveBackend(options.backend);
    this.backend = createBackend(this.backendName);
    this.ids = new VertexIds();
  }

  /** @internal What console.log and util.inspect print in Node: the class name and a summary, not the arrays inside. */
  [INSPECT](): string {
    if (this.disposed) return summary('Graph', 'disposed');
    return summary('Graph', { vertexCount: this.ids.size, edgeCount: this.edgeCount, directed: this.directed, backend: this.backendName });
  }

  /**
   * Builds a graph over ids 0..n-1 from parallel edge arrays in one pass: the
   * fast path for big graphs. A repeated (from, to) keeps its last weight, as
   * addEdge would; with `directed: false` each entry is an undirected edge,
   * and (u, v) and (v, u) are the same edge. The arrays (and options.x,
   * options.y) may be plain arrays or typed arrays of any kind. Throws
   * INVALID_ARGUMENT for a non-array, mismatched lengths or an unknown option,
   * INVALID_ID for an id that is not an integer in 0..n-1, INVALID_NUMBER for
   * a weight or coordinate that is not a finite number, LIMIT_EXCEEDED for
   * more vertices or arcs than a graph holds (docs/limits.md). The graph is a
   * `Graph<number>`; name another `Id` (`Graph.fromEdges<VertexId>(...)`) to
   * add string vertices later.
   */
  static fromEdges<Id extends VertexId = number>(from: ArrayLike<number>, to: ArrayLike<number>, weight: ArrayLike<number>, options: FromEdgesOptions = {}): Graph<Id> {
    checkOptions('Graph.fromEdges', options, FROM_EDGES_OPTION_KEYS);
    const ints = copyIds('from', from);
    const edges = ints.length;
    const tos = copyIds('to', to, edges);
    const weights = copyNumbers('weight', weight, edges);
    let largest = -1;
    for (let e = 0; e < edges; e++) {
      if (ints[e] > largest) largest = ints[e];
      if (tos[e] > largest) largest = tos[e];
    }
    const n = options.vertexCount ?? largest + 1;
    if (!Number.isInteger(n) || n < 0) throw new SpatialError('INVALID_ARGUMENT', `vertexCount must be an integer >= 0, got ${String(n)}`);
    checkLimit('the number of vertices', n, limits.graphVertices);
    checkLimit('the number of arcs', options.directed === false ? 2 * edges : edges, limits.graphEdges);
    if (largest >= n) throw new SpatialError('INVALID_ID', `edge id ${largest} is outside 0..${n - 1}`);
    const { x, y } = options;
    if ((x === undefined) !== (y === undefined)) throw new SpatialError('INVALID_ARGUMENT', 'give both x and y, or neither');
    const [xs, ys] = x === undefined || y === undefined ? [undefined, undefined] : [copyNumbers('x', x, n), copyNumbers('y', y, n)];
    const graph = new Graph<Id>({ backend: options.backend, directed: options.directed });
    graph.building(() => {
      if (graph.directed) graph.backend.load(n, ints, tos, weights, xs, ys);
      else graph.loadUndirected(n, ints, tos, weights, xs, ys);
    });
    graph.arcs = -1;
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

  /**
   * Restores a graph from {@link Graph.toBuffer} bytes, written by either
   * backend: the same ids, positions, edges, weights and directedness, and
   * the same answer to every query. Throws INVALID_SNAPSHOT for truncated,
   * corrupt or unsupported bytes, INVALID_ARGUMENT when bytes is not a
   * Uint8Array or an option is bad, LIMIT_EXCEEDED for more vertices or arcs
   * than a graph holds.
   */
  static fromBuffer<Id extends VertexId = VertexId>(bytes: Uint8Array, options: FromBufferOptions = {}): Graph<Id> {
    checkOptions('Graph.fromBuffer', options, FROM_BUFFER_OPTION_KEYS);
    const layout = decodeGraph(bytes);
    const n = layout.ids.length;
    checkLimit('the number of vertices', layout.ids.length - layout.free.length, limits.graphVertices);
    checkLimit('the number of arcs', layout.from.length, limits.graphEdges);
    const graph = new Graph<Id>({ backend: options.backend, directed: layout.directed });
    graph.building(() => graph.backend.load(n, layout.from, layout.to, layout.weight, layout.xs, layout.ys, true));
    graph.arcs = layout.from.length;
    graph.ids = VertexIds.fromLayout(layout.ids.slice(), layout.free.slice());
    graph.positioned = new Uint8Array(Math.max(n, 16));
    for (let slot = 0; slot < n; slot++) {
      if (Number.isNaN(layout.xs[slot])) continue;
      graph.positioned[slot] = 1;
      graph.positionedCount++;
    }
    if (!graph.directed) for (let e = 0; e < layout.from.length; e++) if (layout.from[e] === layout.to[e]) graph.selfLoops++;
    return graph;
  }

  /**
   * The graph as bytes (format 'SKGR' version 1) for {@link Graph.fromBuffer}:
   * persistence, or handing the graph to a worker. Either backend reads what
   * either writes; the same graph gives the same bytes on both.
   */
  toBuffer(): Uint8Array {
    this.alive();
    const { ids, free } = this.ids.layout();
    const { xs, ys } = this.backend.positions();
    return encodeGraph({ directed: this.directed, ids, free, xs, ys, ...this.backend.arcs() });
  }

  /** Number of edges (a repeated edge counts once; an undirected edge counts once). */
  get edgeCount(): number {
    this.alive();
    const arcs = this.backend.edgeCount();
    return this.directed ? arcs : (arcs + this.selfLoops) / 2;
  }

  /** True when the graph has a vertex with this id. */
  hasVertex(id: Id): boolean {
    this.alive();
    checkVertexId(id);
    return this.ids.slotOf(id) >= 0;
  }

  /**
   * Adds a vertex, optionally with a position that A* heuristics read.
   * Throws DUPLICATE_ID when the id exists (use setPosition to place it),
   * LIMIT_EXCEEDED when the graph holds its most vertices.
   */
  addVertex(id: Id, pos?: { x: number; y: number }): void {
    this.editable();
    checkVertexId(id);
    if (pos !== undefined) checkPosition(pos);
    if (this.ids.slotOf(id) >= 0) throw new SpatialError('DUPLICATE_ID', `vertex ${describe(id)} already exists`);
    this.checkRoom(1);
    const slot = this.ids.nextSlot(0);
    try {
      this.backend.ensureVertices(slot + 1);
    } catch (error) {
      throw this.editFailure(error);
    }
    this.createVertex(id);
    if (pos !== undefined) this.place(slot, pos.x, pos.y);
  }

  /** Sets (or with null, clears) the position of an existing vertex. */
  setPosition(id: Id, pos: { x: number; y: number } | null): void {
    this.editable();
    checkVertexId(id);
    if (pos !== null) checkPosition(pos);
    const slot = this.slotOf(id);
    if (pos === null) this.place(slot, NaN, NaN);
    else this.place(slot, pos.x, pos.y);
  }

  /**
   * Adds the edge from -> to (in an undirected graph the edge between them,
   * both arcs with this weight), creating missing vertices; a repeated edge
   * replaces its weight. Weights may be negative (only SPFA accepts them; an
   * undirected negative edge is a negative cycle of two arcs); a non-finite
   * weight throws INVALID_NUMBER. LIMIT_EXCEEDED, changing nothing, when the
   * new vertices or arcs would pass the graph's limits.
   */
  addEdge(from: Id, to: Id, weight: number): void {
    this.editable();
    checkVertexId(from);
    checkVertexId(to);
    checkFinite('weight', weight);
    const known = [this.ids.slotOf(from), this.ids.slotOf(to)];
    const fresh = (known[0] < 0 ? 1 : 0) + (known[1] < 0 && from !== to ? 1 : 0);
    this.checkRoom(fresh);
    // The slots new vertices will take, given only once the edge is in.
    const u = known[0] >= 0 ? known[0] : this.ids.nextSlot(0);
    const v = known[1] >= 0 ? known[1] : from === to ? u : this.ids.nextSlot(known[0] < 0 ? 1 : 0);
    const arcs = !this.directed && u !== v ? 2 : 1;
    let added: boolean;
    try {
      if (this.arcCount() + arcs > limits.graphEdges && (fresh > 0 || Number.isNaN(this.backend.weightOf(u, v)))) {
        checkLimit('the number of arcs', this.arcCount() + arcs, limits.graphEdges);
      }
      added = this.backend.setEdge(u, v, weight, !this.directed);
    } catch (error) {
      throw this.editFailure(error);
    }
    if (known[0] < 0) this.createVertex(from);
    if (known[1] < 0 && from !== to) this.createVertex(to);
    if (added) this.arcs += arcs;
    if (added && u === v && !this.directed) this.selfLoops++;
  }

  /** Removes the edge from -> to (in an undirected graph, the edge between them); false when there is none. */
  removeEdge(from: Id, to: Id): boolean {
    this.editable();
    const slots = this.edgeSlots(from, to);
    if (slots === null) return false;
    const [u, v] = slots;
    let removed: boolean;
    try {
      removed = this.backend.removeEdge(u, v, !this.directed);
    } catch (error) {
      throw this.editFailure(error);
    }
    if (removed) this.arcs -= !this.directed && u !== v ? 2 : 1;
    if (removed && u === v && !this.directed) this.selfLoops--;
    return removed;
  }

  /**
   * True when the edge from -> to exists (in an undirected graph, the edge
   * between them, either way round); false when it or either vertex does not.
   */
  hasEdge(from: Id, to: Id): boolean {
    return this.weight(from, to) !== undefined;
  }

  /**
   * Weight of the edge from -> to (undirected: the edge between them);
   * undefined when there is no such edge or either vertex does not exist,
   * as Map.get answers.
   */
  weight(from: Id, to: Id): number | undefined {
    this.alive();
    const slots = this.edgeSlots(from, to);
    if (slots === null) return undefined;
    const w = this.backend.weightOf(slots[0], slots[1]);
    return Number.isNaN(w) ? undefined : w;
  }

  /**
   * Out-neighbours of id: every vertex an edge from id leads to (undirected:
   * every vertex joined to id, id itself when it has a self-loop), each once,
   * numbers ascending and then strings by UTF-16 code units. Throws
   * UNKNOWN_ID for an unknown vertex. Reads the adjacency the searches use,
   * which the first read after an edit rebuilds (O(V + E)).
   */
  neighbors(id: Id): Id[] {
    const slots = this.backend.neighbors(this.sourceSlot(id));
    const ids = new Array<Id>(slots.length);
    for (let i = 0; i < slots.length; i++) ids[i] = this.ids.idAt(slots[i]) as Id;
    return ids.sort(compareIds);
  }

  /**
   * Out-degree of id: the number of edges leaving it, neighbors(id).length
   * (undirected: the edges at id, a self-loop counted once). Throws
   * UNKNOWN_ID for an unknown vertex.
   */
  degree(id: Id): number {
    return this.backend.degree(this.sourceSlot(id));
  }

  /**
   * The id of the vertex whose position is nearest to (x, y) by euclidean
   * distance (compared as squared distances in doubles); among equally near
   * vertices the least id (numbers ascending, then strings). null when no
   * vertex has a position. A scan of every vertex: O(V). Throws
   * INVALID_NUMBER for a non-finite coordinate.
   */
  nearestVertex(x: number, y: number): Id | null {
    this.alive();
    checkFinite('x', x);
    checkFinite('y', y);
    const tied = this.backend.nearest(x, y);
    if (tied.length === 0) return null;
    let best = this.ids.idAt(tied[0]);
    for (let i = 1; i < tied.length; i++) {
      const id = this.ids.idAt(tied[i]);
      if (compareIds(id, best) < 0) best = id;
    }
    return best as Id;
  }

  /** Removes a vertex and every edge into or out of it; false when absent. */
  removeVertex(id: Id): boolean {
    this.editable();
    checkVertexId(id);
    const slot = this.ids.slotOf(id);
    if (slot < 0) return false;
    try {
      const looped = !this.directed && !Number.isNaN(this.backend.weightOf(slot, slot));
      this.backend.clearVertex(slot);
      if (looped) this.selfLoops--;
    } catch (error) {
      throw this.editFailure(error);
    }
    this.arcs = -1;
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
   * reachable from the source (in an undirected graph any negative edge is
   * one: its two arcs), UNKNOWN_ID for an unknown source.
   */
  spfa(source: Id): ShortestPaths<Id> {
    const s = this.sourceSlot(source);
    const tree = this.search(() => this.backend.spfa(s));
    if (typeof tree === 'number') throw this.cycleError(source);
    return this.shortestPaths(tree);
  }

  /**
   * Single-source shortest paths by Dijkstra with a binary heap. Throws
   * NEGATIVE_WEIGHT if any edge of the graph is negative.
   */
  dijkstra(source: Id): ShortestPaths<Id> {
    const s = this.sourceSlot(source);
    this.refuseNegative();
    return this.shortestPaths(this.search(() => this.backend.dijkstra(s)));
  }

  /**
   * A* from source to target; null when target is unreachable. The heuristic
   * (default 'euclidean') reads vertex positions, a vertex without position
   * contributing 0, or is a function (vertexId, targetId) => lower bound.
   * Throws NEGATIVE_WEIGHT if any edge is negative.
   */
  astar(source: Id, target: Id, heuristic: Heuristic<Id> = 'euclidean'): PathResult<Id> | null {
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
   *
   * @example
   * ```ts
   * import { init, Graph } from 'spatialkit';
   * await init();
   *
   * const g = new Graph();
   * g.addEdge('a', 'b', 2);
   * g.addEdge('b', 'c', -1);                           // a negative edge: SPFA finds the way
   * g.addEdge('a', 'c', 3);
   * g.path('a', 'c');                                  // -> { path: ['a', 'b', 'c'], cost: 1 }
   * g.path('c', 'a');                                  // -> null: unreachable
   * g.path('a', 'c', { algorithm: 'dijkstra' });       // -> throws NEGATIVE_WEIGHT
   * ```
   */
  path(source: Id, target: Id, options: PathOptions<Id> = {}): PathResult<Id> | null {
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
      const estimate = this.userEstimate(heuristic, target);
      found = this.search(() => this.backend.astarWith(s, t, estimate));
    } else {
      const kind = typeof heuristic === 'function' ? 0 : HEURISTIC[heuristic];
      const number = ALGORITHM[algorithm];
      found = this.search(() => this.backend.path(s, t, number, kind));
    }
    if (found === NEGATIVE_WEIGHT) throw this.negativeWeightError();
    if (found === NEGATIVE_CYCLE) throw this.cycleError(source);
    if (found === null || typeof found === 'number') return null;
    const path = new Array<Id>(found.slots.length);
    for (let i = 0; i < path.length; i++) path[i] = this.ids.idAt(found.slots[i]) as Id;
    return { path, cost: found.cost };
  }

  /**
   * Frees the graph's wasm memory now; every later call throws DISPOSED.
   * Refused inside a heuristic function. A graph dropped without dispose()
   * is freed once garbage-collected, which may be much later.
   */
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
    if (this.searches > 0) throw new SpatialError('INVALID_ARGUMENT', 'the graph cannot change while a heuristic function runs');
  }

  // Runs a search, counted while it runs (its heuristic function may start
  // another on this graph, which then has its own state); memory that runs
  // out is OUT_OF_MEMORY, and a search changes nothing either way.
  private search<T>(run: () => T): T {
    this.searches++;
    try {
      return run();
    } catch (error) {
      throw outOfMemory(error, 'this Graph search') ?? error;
    } finally {
      this.searches--;
    }
  }

  // What an edit throws when the backend fails: it changes nothing then (see GraphBackend), and memory that ran out is OUT_OF_MEMORY.
  private editFailure(error: unknown): unknown {
    return outOfMemory(error, 'this Graph') ?? error;
  }

  // Runs the bulk load of a graph being built: should memory run out, the graph is freed and OUT_OF_MEMORY thrown.
  private building(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.backend.dispose();
      throw outOfMemory(error, 'building a Graph') ?? error;
    }
  }

  // Arcs held, counted once after a bulk load.
  private arcCount(): number {
    if (this.arcs < 0) this.arcs = this.backend.edgeCount();
    return this.arcs;
  }

  private slotOf(id: Id): number {
    const slot = this.ids.slotOf(id);
    if (slot < 0) throw new SpatialError('UNKNOWN_ID', `no vertex ${describe(id)}`);
    return slot;
  }

  // The slots of an edge's two ends, or null when either vertex is absent.
  private edgeSlots(from: Id, to: Id): [number, number] | null {
    checkVertexId(from);
    checkVertexId(to);
    const u = this.ids.slotOf(from);
    const v = this.ids.slotOf(to);
    return u < 0 || v < 0 ? null : [u, v];
  }

  private sourceSlot(source: Id): number {
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

  private cycleError(source: Id): SpatialError {
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

  private shortestPaths(tree: SlotTree): ShortestPaths<Id> {
    this.idsShared = true;
    return new SlotShortestPaths<Id>(this.ids, tree);
  }

  private checkRoom(added: number): void {
    checkLimit('the number of vertex slots', this.ids.slotCount + added, limits.graphVertices);
  }

  // Gives id its slot; the backend has made the slot exist already.
  private createVertex(id: Id): number {
    const slot = this.ownIds().add(id);
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

  // An undirected bulk load: each edge as its two arcs, side by side, so a
  // repeated edge in either direction keeps its last weight on both arcs.
  private loadUndirected(n: number, from: Int32Array, to: Int32Array, weight: Float64Array, x?: Float64Array, y?: Float64Array): void {
    const m = from.length;
    const arcFrom = new Int32Array(2 * m);
    const arcTo = new Int32Array(2 * m);
    const arcWeight = new Float64Array(2 * m);
    const looped = new Uint8Array(n);
    for (let e = 0; e < m; e++) {
      arcFrom[2 * e] = arcTo[2 * e + 1] = from[e];
      arcTo[2 * e] = arcFrom[2 * e + 1] = to[e];
      arcWeight[2 * e] = arcWeight[2 * e + 1] = weight[e];
      if (from[e] === to[e] && looped[from[e]] === 0) {
        looped[from[e]] = 1;
        this.selfLoops++;
      }
    }
    this.backend.load(n, arcFrom, arcTo, arcWeight, x, y);
  }

  // A user heuristic as a per-slot estimate; it must return a finite number.
  private userEstimate(heuristic: (a: Id, b: Id) => number, target: Id): Estimate {
    const ids = this.ids;
    return (v) => {
      const h = heuristic(ids.idAt(v) as Id, target);
      if (!Number.isFinite(h)) {
        throw new SpatialError('INVALID_NUMBER', `heuristic returned ${String(h)} for ${describe(ids.idAt(v))}`);
      }
      return h;
    };
  }
}
