// graphology + graphology-shortest-path adapters: a directed graph built one
// edge at a time, point-to-point searchers returning the path's cost, and the
// round trip a graphology user persists or posts a graph with.
import { DirectedGraph } from 'graphology';
import { astar, dijkstra } from 'graphology-shortest-path';
import type { BenchGraph } from './graph-data.js';

export function graphologyBuild(data: BenchGraph): DirectedGraph {
  const graph = new DirectedGraph();
  for (let v = 0; v < data.n; v++) graph.addNode(v, data.x ? { x: data.x[v], y: data.y![v] } : {});
  for (let e = 0; e < data.from.length; e++) graph.addEdge(data.from[e], data.to[e], { weight: data.weight[e] });
  return graph;
}

export function graphologySearcher(
  graph: DirectedGraph,
  data: BenchGraph,
  algorithm: 'dijkstra' | 'astar',
): (s: number, t: number) => number {
  const xs = data.x;
  const ys = data.y;
  const heuristic =
    xs && ys ? (a: string, b: string): number => Math.hypot(xs[+a] - xs[+b], ys[+a] - ys[+b]) : (): number => 0;
  // Node keys are strings in graphology: numbers would never equal them.
  return (s, t) => {
    const nodes =
      algorithm === 'dijkstra'
        ? dijkstra.bidirectional(graph, String(s), String(t), 'weight')
        : astar.bidirectional(graph, String(s), String(t), 'weight', heuristic);
    if (!nodes || nodes.length === 0) return s === t ? 0 : Infinity;
    return data.pathCost(nodes.map(Number));
  };
}

/** export -> JSON text -> parse -> import: graphology's serialization round trip. */
export function graphologyRoundTrip(graph: DirectedGraph): DirectedGraph {
  return DirectedGraph.from(JSON.parse(JSON.stringify(graph.export())));
}
