// ngraph.graph + ngraph.path adapters: a graph built one link at a time, and
// point-to-point searchers returning the found path's cost.
import createGraph from 'ngraph.graph';
import path from 'ngraph.path';
import type { BenchGraph } from './graph-data.js';

interface Point {
  x: number;
  y: number;
}

export function ngraphBuild(data: BenchGraph) {
  const graph = createGraph<Point, number>();
  for (let v = 0; v < data.n; v++) graph.addNode(v, data.x ? { x: data.x[v], y: data.y![v] } : { x: 0, y: 0 });
  for (let e = 0; e < data.from.length; e++) graph.addLink(data.from[e], data.to[e], data.weight[e]);
  return graph;
}

export function ngraphSearcher(
  graph: ReturnType<typeof ngraphBuild>,
  data: BenchGraph,
  algorithm: 'aStar' | 'nba',
  euclidean: boolean,
  oriented = true,
): (s: number, t: number) => number {
  // oriented: false walks every link both ways: ngraph's undirected graph.
  const finder = path[algorithm](graph, {
    oriented,
    distance: (_a, _b, link) => link.data,
    heuristic: euclidean ? (a, b) => Math.hypot(a.data.x - b.data.x, a.data.y - b.data.y) : () => 0,
  });
  return (s, t) => {
    const nodes = finder.find(s, t);
    if (nodes.length === 0) return s === t ? 0 : Infinity;
    // ngraph returns the path target first.
    return data.pathCost(nodes.map((node) => node.id as number).reverse());
  };
}
