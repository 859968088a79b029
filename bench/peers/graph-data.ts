// The P3 benchmark graphs: seeded, sparse, without repeated or self edges so
// every library sees the same graph. Geometric: vertices scattered over a
// square at unit density, each linked to up to four random neighbours within
// its 3 x 3 cells, weight = distance x (1 + up to 0.5), so the euclidean
// heuristic is admissible. Uniform: random endpoints and weights, no positions.
// `undirectedOf` turns either into an undirected graph: each pair of vertices
// joined once, whichever way round it was listed first.
import { mulberry32 } from '../random.js';

export interface BenchGraph {
  n: number;
  from: Int32Array;
  to: Int32Array;
  weight: Float64Array;
  x?: Float64Array;
  y?: Float64Array;
  /** Query pairs, flat [s0, t0, s1, t1, ...]. */
  queries: Int32Array;
  /** Cost of a path given as vertex ids, NaN if a step is not an edge. */
  pathCost(path: number[]): number;
}

function finish(n: number, edges: Map<number, number>, queryCount: number, random: () => number, x?: Float64Array, y?: Float64Array): BenchGraph {
  const from = new Int32Array(edges.size);
  const to = new Int32Array(edges.size);
  const weight = new Float64Array(edges.size);
  let e = 0;
  for (const [key, w] of edges) {
    from[e] = Math.floor(key / n);
    to[e] = key % n;
    weight[e] = w;
    e++;
  }
  const queries = new Int32Array(queryCount * 2);
  for (let i = 0; i < queries.length; i++) queries[i] = Math.floor(random() * n);
  const pathCost = (path: number[]): number => {
    let total = 0;
    for (let i = 1; i < path.length; i++) total += edges.get(path[i - 1] * n + path[i]) ?? NaN;
    return total;
  };
  return { n, from, to, weight, x, y, queries, pathCost };
}

export function geometricGraph(n: number, m: number, queryCount: number, seed: number): BenchGraph {
  const random = mulberry32(seed);
  const side = Math.ceil(Math.sqrt(n));
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const cells: number[][] = Array.from({ length: side * side }, () => []);
  for (let v = 0; v < n; v++) {
    x[v] = random() * side;
    y[v] = random() * side;
    cells[Math.floor(y[v]) * side + Math.floor(x[v])].push(v);
  }
  const edges = new Map<number, number>();
  const perVertex = Math.round(m / n);
  for (let u = 0; u < n; u++) {
    const cx = Math.floor(x[u]);
    const cy = Math.floor(y[u]);
    const near: number[] = [];
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const gx = cx + dx;
        const gy = cy + dy;
        if (gx >= 0 && gy >= 0 && gx < side && gy < side) for (const v of cells[gy * side + gx]) if (v !== u) near.push(v);
      }
    }
    for (let k = 0; k < perVertex && near.length > 0; k++) {
      const pick = Math.floor(random() * near.length);
      const v = near[pick];
      near[pick] = near[near.length - 1];
      near.pop();
      edges.set(u * n + v, Math.hypot(x[u] - x[v], y[u] - y[v]) * (1 + 0.5 * random()));
    }
  }
  return finish(n, edges, queryCount, random, x, y);
}

export function uniformGraph(n: number, m: number, queryCount: number, seed: number): BenchGraph {
  const random = mulberry32(seed);
  const edges = new Map<number, number>();
  while (edges.size < m) {
    const u = Math.floor(random() * n);
    const v = Math.floor(random() * n);
    if (u !== v) edges.set(u * n + v, 1 + 99 * random());
  }
  return finish(n, edges, queryCount, random);
}

/** The same graph with each unordered pair once (its first listing kept), for undirected searches. */
export function undirectedOf(data: BenchGraph): BenchGraph {
  const { n } = data;
  const kept = new Map<number, number>();
  const from: number[] = [];
  const to: number[] = [];
  const weight: number[] = [];
  for (let e = 0; e < data.from.length; e++) {
    const u = data.from[e];
    const v = data.to[e];
    const key = Math.min(u, v) * n + Math.max(u, v);
    if (kept.has(key)) continue;
    kept.set(key, data.weight[e]);
    from.push(u);
    to.push(v);
    weight.push(data.weight[e]);
  }
  const pathCost = (path: number[]): number => {
    let total = 0;
    for (let i = 1; i < path.length; i++) {
      const u = path[i - 1];
      const v = path[i];
      total += kept.get(Math.min(u, v) * n + Math.max(u, v)) ?? NaN;
    }
    return total;
  };
  return {
    ...data,
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    weight: Float64Array.from(weight),
    pathCost,
  };
}
