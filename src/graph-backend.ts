// What the Graph facade needs from a backend. Everything here speaks in dense
// vertex slots (the facade owns the ids) and trusts its input: the facade has
// validated it, so both backends see the same calls and reject nothing.
import type { Estimate, SlotPath, SlotTree } from './reference/graph-search.js';

export interface GraphBackend {
  /** Makes slots 0..count-1 exist; new slots have no position and no edges. */
  ensureVertices(count: number): void;
  /** Sets a slot's position; NaN x clears it. */
  setPosition(v: number, x: number, y: number): void;
  /** Adds u -> v or replaces its weight; true when the edge is new. */
  setEdge(u: number, v: number, w: number): boolean;
  /** Removes u -> v; true when it existed. */
  removeEdge(u: number, v: number): boolean;
  /** Removes every edge into or out of v and clears its position. */
  clearVertex(v: number): void;
  /** Number of distinct edges. */
  edgeCount(): number;
  /** Number of edges with a negative weight. */
  negativeEdges(): number;
  /**
   * Replaces every edge with the given ones over n fresh slots (a repeated
   * pair keeps its last weight), with positions when xs / ys are given.
   */
  load(n: number, from: Int32Array, to: Int32Array, weight: Float64Array, xs?: Float64Array, ys?: Float64Array): void;
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
