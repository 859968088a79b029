// The graph as a user would describe it, in plain maps: vertices in insertion
// order, edges by (from, to), an undirected edge stored under both ends, and
// positions. Its answers (edge counts, neighbours, the nearest vertex) are
// computed here the obvious way, to check the Graph's against.
import type { Id, OracleEdge } from './bellman-ford.js';

/** Numbers ascending, then strings by UTF-16 code units: the documented id order. */
export function idOrder(a: Id, b: Id): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export class GraphModel {
  vertices: Id[] = [];
  edges = new Map<Id, Map<Id, number>>();
  positions = new Map<Id, { x: number; y: number }>();

  constructor(readonly directed = true) {}

  has(id: Id): boolean {
    return this.edges.has(id);
  }
  addVertex(id: Id, pos?: { x: number; y: number }): void {
    if (this.has(id)) return;
    this.vertices.push(id);
    this.edges.set(id, new Map());
    if (pos !== undefined) this.positions.set(id, pos);
  }
  setPosition(id: Id, pos: { x: number; y: number } | null): void {
    if (pos === null) this.positions.delete(id);
    else this.positions.set(id, pos);
  }
  addEdge(from: Id, to: Id, weight: number): void {
    this.addVertex(from);
    this.addVertex(to);
    this.edges.get(from)?.set(to, weight);
    if (!this.directed) this.edges.get(to)?.set(from, weight);
  }
  removeEdge(from: Id, to: Id): boolean {
    const removed = this.edges.get(from)?.delete(to) ?? false;
    if (!this.directed) this.edges.get(to)?.delete(from);
    return removed;
  }
  removeVertex(id: Id): boolean {
    if (!this.has(id)) return false;
    this.edges.delete(id);
    this.positions.delete(id);
    this.vertices = this.vertices.filter((v) => v !== id);
    for (const out of this.edges.values()) out.delete(id);
    return true;
  }
  /** Every arc (an undirected edge gives two), for Bellman-Ford. */
  edgeList(): OracleEdge[] {
    const list: OracleEdge[] = [];
    for (const [from, out] of this.edges) for (const [to, weight] of out) list.push({ from, to, weight });
    return list;
  }
  /** Edges as a user counts them: an undirected edge once. */
  edgeCount(): number {
    let arcs = 0;
    let loops = 0;
    for (const [from, out] of this.edges) {
      arcs += out.size;
      if (out.has(from)) loops++;
    }
    return this.directed ? arcs : (arcs + loops) / 2;
  }
  weight(from: Id, to: Id): number | undefined {
    return this.edges.get(from)?.get(to);
  }
  neighbors(id: Id): Id[] {
    return [...(this.edges.get(id)?.keys() ?? [])].sort(idOrder);
  }
  /** The least id among the positioned vertices at the least distance, or null. */
  nearest(x: number, y: number): Id | null {
    let best: Id | null = null;
    let bestDistance = Infinity;
    for (const [id, p] of this.positions) {
      const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d < bestDistance || (d === bestDistance && (best === null || idOrder(id, best) < 0))) {
        best = id;
        bestDistance = d;
      }
    }
    return best;
  }
}
