// Brute-force shortest paths for the Graph tests: plain Bellman-Ford over an
// edge list, |V| - 1 rounds of relaxing every edge. An edge that still
// relaxes afterwards from a reachable vertex proves a reachable negative cycle.
export type Id = string | number;

export interface OracleEdge {
  from: Id;
  to: Id;
  weight: number;
}

export interface OracleResult {
  /** Distance per vertex; Infinity when unreachable. */
  dist: Map<Id, number>;
  /** True when a negative cycle is reachable from the source. */
  negativeCycle: boolean;
}

export function bellmanFord(vertices: Id[], edges: OracleEdge[], source: Id): OracleResult {
  const dist = new Map<Id, number>(vertices.map((v) => [v, Infinity]));
  dist.set(source, 0);
  for (let round = 1; round < vertices.length; round++) {
    for (const { from, to, weight } of edges) {
      const du = dist.get(from) as number;
      if (du + weight < (dist.get(to) as number)) dist.set(to, du + weight);
    }
  }
  const negativeCycle = edges.some(({ from, to, weight }) => (dist.get(from) as number) + weight < (dist.get(to) as number));
  return { dist, negativeCycle };
}
