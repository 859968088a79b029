// P3: shortest paths on random sparse graphs (100,000 vertices, 400,000
// edges), point to point, against ngraph.path, graphology-shortest-path and a
// plain CSR A* written here; plus building each graph, SPFA next to Dijkstra
// single-source, the geometric graph as an undirected road network
// (directed: false) against ngraph.path's undirected search (oriented: false),
// and a snapshot round trip (toBuffer -> fromBuffer) against graphology's
// export -> JSON -> import. Every contender's costs are checked against the
// wasm backend's before anything is timed. Default runs leave graphology and
// the single-source, undirected and snapshot cases to full runs.
import { Graph, init, type PathAlgorithm } from '../src/index.js';
import type { Contender, ContenderKind, SuiteContext, Suite } from './harness.js';
import { geometricGraph, undirectedOf, uniformGraph, type BenchGraph } from './peers/graph-data.js';
import { graphologyBuild, graphologyRoundTrip, graphologySearcher } from './peers/graph-graphology.js';
import { ngraphBuild, ngraphSearcher } from './peers/graph-ngraph.js';
import { plainCsr, plainSearcher } from './peers/graph-plain.js';

const VERTICES = 100_000;
const EDGES = 400_000;

type Search = (s: number, t: number) => number;

/** A searcher of a query case: its name, its search, and its headline column. */
type Searcher = [string, Search, ContenderKind?];

function bulk(data: BenchGraph, backend: 'wasm' | 'js', directed = true): Graph<number> {
  return Graph.fromEdges(data.from, data.to, data.weight, { vertexCount: data.n, x: data.x, y: data.y, backend, directed });
}

function ours(graph: Graph<number>, algorithm: PathAlgorithm): Search {
  return (s, t) => graph.path(s, t, { algorithm })?.cost ?? Infinity;
}

function costs(data: BenchGraph, search: Search, count = data.queries.length / 2): Float64Array {
  const q = data.queries;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = search(q[2 * i], q[2 * i + 1]);
  return out;
}

const close = (a: number, b: number): boolean =>
  a === b || (Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)));

function compare(name: string, got: Float64Array, expected: Float64Array): void {
  for (let i = 0; i < got.length; i++) {
    if (!close(got[i], expected[i])) throw new Error(`${name}: query ${i} costs ${got[i]}, expected ${expected[i]}`);
  }
}

// The slowest peers take tens of seconds per pass over the queries, so a
// contender is checked on the first queries before timing (which also warms
// it up: 20 in full runs, 3 of the 10 in default runs), and every timed pass
// checks all its answers before any result is reported.
const PRECHECK = { smoke: 3, default: 3, full: 20 };

function checked(name: string, data: BenchGraph, search: Search, expected: Float64Array, precheck: number, kind?: ContenderKind): Contender {
  compare(name, costs(data, search, Math.min(precheck, expected.length)), expected);
  return { name, kind, run: () => compare(name, costs(data, search), expected) };
}

function queryCase(context: SuiteContext, title: string, data: BenchGraph, searches: Searcher[], headline?: string): void {
  const expected = costs(data, searches[0][1]);
  const reachable = expected.filter((c) => c !== Infinity).length;
  const contenders = searches.map(([name, search, kind]) => checked(name, data, search, expected, context.pick(PRECHECK), kind));
  context.bench(title, contenders, { opsPerRun: expected.length, opName: 'query', warmup: 0, minSamples: 1, minTimeMs: 0, headline });
  context.note(`${title}: ${searches.length} contenders agree on all ${expected.length} query costs in every timed pass (${reachable} reachable, 1e-9 relative)`);
}

/**
 * graphology's searcher over its graph, when there is one: the slowest peer to
 * build and slower than ngraph at every search, it runs in full runs only.
 */
function graphologyPeer(name: string, graph: ReturnType<typeof graphologyBuild> | null, data: BenchGraph, algorithm: 'dijkstra' | 'astar'): Searcher[] {
  return graph === null ? [] : [[name, graphologySearcher(graph, data, algorithm), 'library']];
}

// Times each build; returns the peers' last-built graphs for the query cases (graphology's in full runs only).
function buildCase(context: SuiteContext, data: BenchGraph) {
  let ngraph: ReturnType<typeof ngraphBuild> | null = null;
  let graphology: ReturnType<typeof graphologyBuild> | null = null;
  const contenders: Contender[] = [
    { name: 'spatialkit wasm Graph.fromEdges', run: () => bulk(data, 'wasm').dispose() },
    { name: 'spatialkit js Graph.fromEdges', kind: 'js', run: () => bulk(data, 'js').dispose() },
    { name: 'ngraph.graph addNode/addLink', kind: 'library', run: () => { ngraph = null; ngraph = ngraphBuild(data); } },
    ...(context.full ? [{ name: 'graphology addNode/addEdge', kind: 'library' as const, run: () => { graphology = null; graphology = graphologyBuild(data); } }] : []),
  ];
  context.bench(`build: ${data.n.toLocaleString('en-US')} vertices with positions, ${data.from.length.toLocaleString('en-US')} edges`, contenders, {
    opName: 'build',
    headline: `Graph: fromEdges, ${data.n.toLocaleString('en-US')} vertices, ${data.from.length.toLocaleString('en-US')} edges`,
    // Every contender's first build is a warm-up: timed cold, the wasm one read anywhere from 34 to 168 ms (its memory growing).
    warmup: 1,
    minSamples: context.full ? 2 : 3,
    minTimeMs: 0,
  });
  if (ngraph === null || (context.full && graphology === null)) throw new Error('build case ran no peer');
  return { ngraph: ngraph as ReturnType<typeof ngraphBuild>, graphology: graphology as ReturnType<typeof graphologyBuild> | null };
}

function singleSourceCase(context: SuiteContext, title: string, data: BenchGraph): void {
  const wasm = bulk(data, 'wasm');
  const js = bulk(data, 'js');
  const sources = [0, 1, 2, 3, 4].map((i) => data.queries[2 * i]);
  // SPFA and Dijkstra must agree on every vertex's distance.
  for (const s of sources.slice(0, 2)) {
    const a = wasm.dijkstra(s);
    const b = wasm.spfa(s);
    const c = js.spfa(s);
    for (let v = 0; v < data.n; v++) {
      if (!close(a.distance(v), b.distance(v)) || !close(a.distance(v), c.distance(v))) {
        throw new Error(`${title}: SPFA and Dijkstra disagree at vertex ${v} from ${s}`);
      }
    }
  }
  context.note(`${title}: SPFA (wasm, js) and Dijkstra agree on all ${data.n.toLocaleString('en-US')} distances from 2 sources`);
  const each = (name: string, run: (s: number) => unknown): Contender => ({ name, run: () => { for (const s of sources) run(s); } });
  context.bench(title, [
    each('wasm dijkstra', (s) => wasm.dijkstra(s)),
    each('wasm spfa', (s) => wasm.spfa(s)),
    each('js dijkstra', (s) => js.dijkstra(s)),
    each('js spfa', (s) => js.spfa(s)),
  ], { opsPerRun: sources.length, opName: 'source', warmup: 1, minSamples: context.quick ? 1 : 3, minTimeMs: 0 });
  wasm.dispose();
  js.dispose();
}

// Persisting a graph or handing it to a worker: bytes out and a graph back.
// Every restored graph is checked to answer like the original first.
function snapshotCase(context: SuiteContext, data: BenchGraph, graphology: ReturnType<typeof graphologyBuild>): void {
  const wasm = bulk(data, 'wasm');
  const js = bulk(data, 'js');
  const probe = 5;
  const expected = costs(data, ours(wasm, 'astar'), probe);
  const bytes = wasm.toBuffer();
  for (const backend of ['wasm', 'js'] as const) {
    const copy = Graph.fromBuffer<number>(bytes, { backend });
    compare(`fromBuffer (${backend})`, costs(data, ours(copy, 'astar'), probe), expected);
    copy.dispose();
  }
  const restored = graphologyRoundTrip(graphology);
  if (restored.order !== data.n || restored.size !== data.from.length) throw new Error('graphology round trip lost vertices or edges');
  context.note(`snapshot: ${bytes.length.toLocaleString('en-US')} bytes (${(bytes.length / data.n).toFixed(1)} per vertex); restored graphs answer ${probe} queries as the original`);
  context.bench(`P3 snapshot round trip: ${data.n.toLocaleString('en-US')} vertices with positions, ${data.from.length.toLocaleString('en-US')} edges`, [
    { name: 'wasm toBuffer + fromBuffer', run: () => Graph.fromBuffer(wasm.toBuffer()).dispose() },
    { name: 'js toBuffer + fromBuffer', run: () => Graph.fromBuffer(js.toBuffer(), { backend: 'js' }).dispose() },
    { name: 'wasm fromEdges from the arrays (no snapshot)', run: () => bulk(data, 'wasm').dispose() },
    { name: 'graphology export + JSON + import', run: () => graphologyRoundTrip(graphology) },
  ], { opName: 'round trip', warmup: context.quick ? 0 : 1, minSamples: context.quick ? 1 : 3, minTimeMs: 0 });
  wasm.dispose();
  js.dispose();
}

// Each edge of an undirected graph as its two arcs, for the plain CSR baseline.
function bothWays(data: BenchGraph): { from: Int32Array; to: Int32Array; weight: Float64Array } {
  const m = data.from.length;
  const from = new Int32Array(2 * m);
  const to = new Int32Array(2 * m);
  const weight = new Float64Array(2 * m);
  from.set(data.from);
  from.set(data.to, m);
  to.set(data.to);
  to.set(data.from, m);
  weight.set(data.weight);
  weight.set(data.weight, m);
  return { from, to, weight };
}

function undirectedCase(context: SuiteContext, data: BenchGraph): void {
  const title = `undirected: ${data.n.toLocaleString('en-US')} vertices, ${data.from.length.toLocaleString('en-US')} edges`;
  let ngraph: ReturnType<typeof ngraphBuild> | null = null;
  context.bench(`P3 build, ${title}`, [
    { name: 'spatialkit wasm Graph.fromEdges directed: false', run: () => bulk(data, 'wasm', false).dispose() },
    { name: 'spatialkit js Graph.fromEdges directed: false', run: () => bulk(data, 'js', false).dispose() },
    { name: 'ngraph.graph addNode/addLink', run: () => { ngraph = null; ngraph = ngraphBuild(data); } },
  ], { opName: 'build', warmup: context.quick ? 0 : 1, minSamples: context.quick ? 1 : 2, minTimeMs: 0 });
  if (ngraph === null) throw new Error('undirected build case ran no peer');
  const wasm = bulk(data, 'wasm', false);
  const js = bulk(data, 'js', false);
  const arcs = bothWays(data);
  queryCase(context, `P3 ${title}: A* with the euclidean heuristic`, data, [
    ['wasm path astar', ours(wasm, 'astar')],
    ['wasm path bidirectional', ours(wasm, 'bidirectional')],
    ['js path astar', ours(js, 'astar')],
    ['plain CSR A* over both arcs (typed arrays)', plainSearcher(plainCsr(data.n, arcs.from, arcs.to, arcs.weight, data.x, data.y), true)],
    ['ngraph.path aStar oriented: false', ngraphSearcher(ngraph, data, 'aStar', true, false)],
    ['ngraph.path nba oriented: false', ngraphSearcher(ngraph, data, 'nba', true, false)],
  ]);
  wasm.dispose();
  js.dispose();
}

export const pathsGraphSuite: Suite = {
  name: 'paths-graph',
  title: 'Graph shortest paths on random sparse graphs (P3)',
  async run(context) {
    await init();
    const queries = context.pick({ smoke: 10, default: 10, full: 200 });
    const scale = context.pick({ smoke: 0.1, default: 1, full: 1 });
    const geometric = geometricGraph(VERTICES * scale, EDGES * scale, queries, 1);
    const uniform = uniformGraph(VERTICES * scale, EDGES * scale, queries, 2);
    context.note(`geometric: ${geometric.n} vertices, ${geometric.from.length} edges; uniform: ${uniform.n} vertices, ${uniform.from.length} edges; ${queries} random queries each`);

    // First, while the peers' big object graphs do not yet load the garbage collector.
    if (context.full) {
      singleSourceCase(context, 'P3 single source, geometric: SPFA next to Dijkstra', geometric);
      singleSourceCase(context, 'P3 single source, uniform: SPFA next to Dijkstra', uniform);
    }
    if (context.full) undirectedCase(context, undirectedOf(geometric));

    {
      const { ngraph, graphology } = buildCase(context, geometric);
      const wasm = bulk(geometric, 'wasm');
      const js = bulk(geometric, 'js');
      queryCase(context, 'P3 geometric: A* with the euclidean heuristic', geometric, [
        ['wasm path astar', ours(wasm, 'astar')],
        ['wasm path bidirectional', ours(wasm, 'bidirectional')],
        ['wasm path dijkstra', ours(wasm, 'dijkstra')],
        ['js path astar', ours(js, 'astar'), 'js'],
        ['plain CSR A* (typed arrays)', plainSearcher(plainCsr(geometric.n, geometric.from, geometric.to, geometric.weight, geometric.x, geometric.y), true), 'hand-written'],
        ['ngraph.path aStar', ngraphSearcher(ngraph, geometric, 'aStar', true), 'library'],
        ['ngraph.path nba', ngraphSearcher(ngraph, geometric, 'nba', true), 'library'],
        ...graphologyPeer('graphology astar', graphology, geometric, 'astar'),
      ], `Graph: ${queries} A* queries, ${geometric.n.toLocaleString('en-US')} vertices with positions`);
      wasm.dispose();
      js.dispose();
      if (graphology !== null) snapshotCase(context, geometric, graphology);
    }

    {
      const wasm = bulk(uniform, 'wasm');
      const js = bulk(uniform, 'js');
      const ngraph = ngraphBuild(uniform);
      const graphology = context.full ? graphologyBuild(uniform) : null;
      queryCase(context, 'P3 uniform: bidirectional Dijkstra, no positions', uniform, [
        ['wasm path bidirectional', ours(wasm, 'bidirectional')],
        ['wasm path dijkstra', ours(wasm, 'dijkstra')],
        ['js path bidirectional', ours(js, 'bidirectional'), 'js'],
        ['plain CSR Dijkstra (typed arrays)', plainSearcher(plainCsr(uniform.n, uniform.from, uniform.to, uniform.weight), false), 'hand-written'],
        ['ngraph.path nba', ngraphSearcher(ngraph, uniform, 'nba', false), 'library'],
        ...graphologyPeer('graphology dijkstra.bidirectional', graphology, uniform, 'dijkstra'),
      ], `Graph: ${queries} point-to-point queries, random graph without positions`);
      wasm.dispose();
      js.dispose();
    }

  },
};
