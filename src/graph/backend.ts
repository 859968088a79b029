// What the Graph facade needs from a backend. Everything here speaks in dense
// vertex slots (the facade owns the ids) and trusts its input: the facade has
// validated it, so both backends see the same calls and reject nothing.

/** Status codes shared with the wasm core. */
export const NEGATIVE_WEIGHT = -2;
export const NEGATIVE_CYCLE = -3;

/** Point-to-point algorithms, numbered as the wasm core numbers them. */
export const ALGORITHM = { astar: 0, dijkstra: 1, bidirectional: 2, spfa: 3 } as const;
/** Position-based heuristics, numbered as the wasm core numbers them. */
export const HEURISTIC = { zero: 0, euclidean: 1, manhattan: 2, octile: 3 } as const;

/** Lower bound of the cost from a slot to the target. */
export type Estimate = (v: number) => number;

/** A found path: slots from source to target, and its cost. */
export interface SlotPath {
  slots: Int32Array;
  cost: number;
}

/** Distances and parents for every slot after a single-source search. */
export interface SlotTree {
  dist: Float64Array;
  parent: Int32Array;
}

export interface GraphBackend {
  /** Makes slots 0..count-1 exist; new slots have no position and no edges. */
  ensureVertices(count: number): void;
  /** Sets a slot's position; NaN x clears it. */
  setPosition(v: number, x: number, y: number): void;
  /**
   * Adds u -> v or replaces its weight, then with `mirror` also v -> u (an
   * undirected edge: both arcs, one weight), making slots up to u and v
   * exist; true when u -> v is new. Whole or nothing: should memory run out,
   * it throws before changing anything.
   */
  setEdge(u: number, v: number, w: number, mirror: boolean): boolean;
  /** Removes u -> v, then with `mirror` also v -> u; true when u -> v existed. */
  removeEdge(u: number, v: number, mirror: boolean): boolean;
  /** Weight of u -> v; NaN when there is no such edge. */
  weightOf(u: number, v: number): number;
  /** Number of edges out of v. */
  degree(v: number): number;
  /** Targets of the edges out of v, in the searches' adjacency order. */
  neighbors(v: number): Int32Array;
  /** Every positioned slot at the least squared distance from (x, y), ascending; empty when none has a position. */
  nearest(x: number, y: number): Int32Array;
  /** Copies of the edge list, in the order edits and loads left it (no repeated pair). */
  arcs(): { from: Int32Array; to: Int32Array; weight: Float64Array };
  /** Copies of the positions of slots 0..n-1; NaN x and y where there is none. */
  positions(): { xs: Float64Array; ys: Float64Array };
  /** Removes every edge into or out of v and clears its position. */
  clearVertex(v: number): void;
  /** Number of distinct edges. */
  edgeCount(): number;
  /** Number of edges with a negative weight. */
  negativeEdges(): number;
  /**
   * Replaces every edge with the given ones over n fresh slots (a repeated
   * pair keeps its last weight), with positions when xs / ys are given. With
   * `listed` the edges hold no repeated pair and the edge list keeps their
   * order exactly (a snapshot's list), so later edits and searches go as they
   * went on the graph the list came from.
   */
  load(n: number, from: Int32Array, to: Int32Array, weight: Float64Array, xs?: Float64Array, ys?: Float64Array, listed?: boolean): void;
  /** SPFA from s: the tree, or NEGATIVE_CYCLE. */
  spfa(s: number): SlotTree | number;
  /** Dijkstra from s: the tree (the graph has no negative weight). */
  dijkstra(s: number): SlotTree;
  /**
   * Point-to-point search with a numbered algorithm and position heuristic
   * (see ALGORITHM / HEURISTIC): the path, null when unreachable, or
   * NEGATIVE_WEIGHT / NEGATIVE_CYCLE.
   */
  path(s: number, t: number, algorithm: number, heuristic: number): SlotPath | null | number;
  /** A* with a caller-supplied estimate per slot (no negative weights). */
  astarWith(s: number, t: number, estimate: Estimate): SlotPath | null;
  /** Frees what the backend holds. */
  dispose(): void;
}

/** Most vertex slots a graph may have (keeps an edge's (from, to) key exact in a double). */
export const MAX_VERTICES = 1 << 26;
