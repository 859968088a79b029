// Hostile layouts: every structure built, moved and queried where spatial
// indexes usually break (all on a line, all at one point, ids and
// coordinates sorted or reverse-sorted, a few dense clusters, identical
// rectangles, a maze with one corridor), each timed beside the uniform
// layout of the same count. A layout that makes more output (events, pairs,
// hits, path cells) pays for writing it whatever the index, so besides the
// plain ratio each case notes the ratio per unit of work: time / (entities
// or items handled + output). The bar for the Scene indexes and the
// QuadTree: no build or tick above 3x its uniform case per unit of work.
import { GridMap, Graph, init, QuadTree, Scene, type SceneIndex } from '../src/index.js';
import type { CaseResult, Contender, Suite, SuiteContext } from './harness.js';
import { mulberry32 } from './random.js';

/** Where the points of a layout lie; `order` sorts ids (and batch order) by x. */
type Layout = 'uniform' | 'line' | 'point' | 'sorted' | 'reverse' | 'clusters';

/** Builds and ticks at most this many times uniform cost per unit of work. */
const BAR = 3;
/** Half-extent of a view box, and of a rectangle's larger side. */
const RANGE = 50;
/** Entities a uniform view box holds on average (the W1 density of the scene suite). */
const IN_VIEW = 10;
/** Share of the entities a tick moves, and the longest step. */
const MOVING = 0.1;
const STEP = 5;
const CLUSTERS = 5;

/** n points of a layout, ids 0..n-1 in the order a batch adds them. */
interface Points {
  layout: Layout;
  n: number;
  xs: Float64Array;
  ys: Float64Array;
  ids: Int32Array;
  /** Side of the square world the uniform layout fills. */
  side: number;
}

/** The side of a square holding n points at IN_VIEW per (2 * RANGE)². */
const worldSide = (n: number): number => 2 * RANGE * Math.sqrt(n / IN_VIEW);

function points(layout: Layout, n: number, seed = 1): Points {
  const random = mulberry32(seed);
  const side = worldSide(n);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  // A line as long as holds IN_VIEW per view box along it.
  const length = (2 * RANGE * n) / IN_VIEW;
  // Clusters: Gaussian, five times the uniform density at their centre.
  const sigma = Math.sqrt(((n / CLUSTERS) * 4 * RANGE * RANGE) / (2 * Math.PI * 5 * IN_VIEW));
  const centres = Array.from({ length: CLUSTERS }, () => [side * (0.1 + 0.8 * random()), side * (0.1 + 0.8 * random())]);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  for (let i = 0; i < n; i++) {
    if (layout === 'line') {
      xs[i] = ys[i] = random() * length;
    } else if (layout === 'point') {
      xs[i] = ys[i] = side / 2;
    } else if (layout === 'clusters') {
      const [cx, cy] = centres[Math.floor(random() * CLUSTERS)];
      xs[i] = cx + gauss() * sigma;
      ys[i] = cy + gauss() * sigma;
    } else {
      xs[i] = random() * side;
      ys[i] = random() * side;
    }
  }
  if (layout === 'sorted' || layout === 'reverse') {
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (layout === 'sorted' ? xs[a] - xs[b] : xs[b] - xs[a]));
    const [sx, sy] = [xs.slice(), ys.slice()];
    order.forEach((from, to) => {
      xs[to] = sx[from];
      ys[to] = sy[from];
    });
  }
  return { layout, n, xs, ys, ids: Int32Array.from({ length: n }, (_, i) => i), side };
}

/** A tick's moves: MOVING of the entities by up to STEP, staying in the layout (on the line; near the point); sorted layouts move in x order. */
class Ticks {
  readonly ids: Int32Array;
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  private readonly random: () => number;

  constructor(private readonly p: Points, seed = 9) {
    const m = Math.max(1, Math.round(p.n * MOVING));
    this.ids = new Int32Array(m);
    this.xs = new Float64Array(m);
    this.ys = new Float64Array(m);
    this.random = mulberry32(seed);
  }

  next(): void {
    const { p, random } = this;
    const m = this.ids.length;
    const picked = Int32Array.from({ length: m }, () => Math.floor(random() * p.n));
    if (p.layout === 'sorted') picked.sort();
    if (p.layout === 'reverse') picked.sort().reverse();
    for (let k = 0; k < m; k++) {
      const id = picked[k];
      const angle = random() * 2 * Math.PI;
      const step = random() * STEP;
      let x = p.xs[id] + Math.cos(angle) * step;
      let y = p.ys[id] + Math.sin(angle) * step;
      if (p.layout === 'line') y = x = p.xs[id] + (random() - 0.5) * 2 * STEP;
      if (p.layout === 'point') {
        x = p.side / 2 + (random() - 0.5) * STEP;
        y = p.side / 2 + (random() - 0.5) * STEP;
      }
      p.xs[id] = x;
      p.ys[id] = y;
      this.ids[k] = id;
      this.xs[k] = x;
      this.ys[k] = y;
    }
  }
}

/** What one run of a contender handled: its work (entities, items, moves, queries) and its output (events, hits, pairs, path cells). */
interface Tally {
  work: number;
  output: number;
}

/** A contender of one layout that tallies what its last run handled. */
interface Measured {
  contender: Contender;
  tally: Tally;
}

/** Per-unit-of-work ratios of a timed case, noted under it; returns the worst hostile one. */
function noteUnits(context: SuiteContext, result: CaseResult, tallies: Map<string, Tally>, barred: boolean): number {
  const base = result.contenders.find((c) => c.name === result.baseline)!;
  const unit = (name: string, ms: number): number => {
    const t = tallies.get(name)!;
    return ms / (t.work + t.output);
  };
  const baseUnit = unit(base.name, base.medianMs);
  let worst = 0;
  const parts = result.contenders
    .filter((c) => c !== base)
    .map((c) => {
      const ratio = unit(c.name, c.medianMs) / baseUnit;
      worst = Math.max(worst, ratio);
      const t = tallies.get(c.name)!;
      return `${c.name} ${ratio.toFixed(2)}x (output ${t.output.toLocaleString('en-US')})`;
    });
  const flag = barred ? (worst <= BAR ? ` — within the ${BAR}x bar` : ` — ABOVE the ${BAR}x bar`) : '';
  const own = tallies.get(base.name)!;
  context.note(`${result.name}: per unit of work against ${base.name} (output ${own.output.toLocaleString('en-US')}): ${parts.join(', ')}${flag}`);
  return worst;
}

/**
 * Times one contender per layout (the first is the baseline) and notes the
 * per-unit ratios. The baseline runs a few times untimed first: the code
 * every layout shares (tick generation, the batch paths) is then compiled
 * before anything is timed, so the first contender does not pay for it.
 */
function layoutCase(context: SuiteContext, name: string, measured: Array<[string, Measured]>, opName: string, opsPerRun: number, barred: boolean): void {
  if (!context.quick) {
    const first = measured[0][1].contender;
    first.setup?.();
    for (let k = 0; k < 3; k++) first.run();
    first.teardown?.();
  }
  const tallies = new Map(measured.map(([label, m]) => [label, m.tally]));
  const contenders = measured.map(([label, m]) => ({ ...m.contender, name: label }));
  const result = context.bench(name, contenders, { opsPerRun, opName, minSamples: 3, minTimeMs: 0 });
  noteUnits(context, result, tallies, barred);
}

// ---- Scene ------------------------------------------------------------------

/**
 * A contender of one layout: `setup` makes its state (untimed), `run` does
 * the timed work on it and says what it handled, `teardown` frees it.
 */
function measured<S>(setup: () => S, run: (state: S) => Tally, teardown: (state: S) => void = () => {}): Measured {
  const tally: Tally = { work: 0, output: 0 };
  let state: S;
  return {
    tally,
    contender: {
      name: '',
      setup: () => {
        state = setup();
      },
      run: () => {
        Object.assign(tally, run(state));
      },
      teardown: () => teardown(state),
    },
  };
}

function sceneOf(index: SceneIndex): Scene {
  return new Scene({ index, defaultRange: RANGE });
}

/** A scene of the layout, built and drained (untimed). */
function builtScene(index: SceneIndex, layout: Layout, n: number): { scene: Scene; ticks: Ticks } {
  const p = points(layout, n);
  const scene = sceneOf(index);
  scene.addMany(p.ids, p.xs, p.ys);
  scene.drainArray();
  return { scene, ticks: new Ticks(p) };
}

/** addMany of the whole layout into an empty scene, or (`each`) one add call per entity, then a drain. */
function sceneBuild(index: SceneIndex, p: Points, each = false): Measured {
  return measured(
    () => null,
    () => {
      const scene = sceneOf(index);
      if (each) for (let i = 0; i < p.n; i++) scene.add(p.ids[i], p.xs[i], p.ys[i]);
      else scene.addMany(p.ids, p.xs, p.ys);
      const output = scene.drainArray().length / 3;
      scene.dispose();
      return { work: p.n, output };
    },
  );
}

/** A tick: moveMany of the layout's moves on a built scene, then a drain. */
function sceneTick(index: SceneIndex, layout: Layout, n: number): Measured {
  return measured(
    () => builtScene(index, layout, n),
    ({ scene, ticks }) => {
      ticks.next();
      scene.moveMany(ticks.ids, ticks.xs, ticks.ys);
      return { work: ticks.ids.length, output: scene.drainArray().length / 3 };
    },
    ({ scene }) => scene.dispose(),
  );
}

/** query(id) for a thousand ids of a built scene. */
function sceneQuery(index: SceneIndex, layout: Layout, n: number): Measured {
  const asked = Int32Array.from({ length: 1000 }, (_, k) => (k * 7919) % n);
  return measured(
    () => builtScene(index, layout, n),
    ({ scene }) => {
      let seen = 0;
      for (const id of asked) seen += scene.query(id).length;
      return { work: asked.length, output: seen };
    },
    ({ scene }) => scene.dispose(),
  );
}

function sceneCases(context: SuiteContext, index: SceneIndex, n: number, crowd: number, eachCount: number): void {
  const spread: Layout[] = ['uniform', 'line', 'sorted', 'reverse', 'clusters'];
  const name = (what: string, count: number): string => `Scene ${index}: ${what}, ${count.toLocaleString('en-US')} entities, range ${RANGE}`;
  layoutCase(context, name('addMany build', n), spread.map((l) => [l, sceneBuild(index, points(l, n))]), 'entity', n, true);
  layoutCase(context, name('one add call each', eachCount), spread.map((l) => [l, sceneBuild(index, points(l, eachCount), true)]), 'entity', eachCount, true);
  layoutCase(context, name(`tick (${MOVING * 100}% move)`, n), spread.map((l) => [l, sceneTick(index, l, n)]), 'move', Math.round(n * MOVING), true);
  layoutCase(context, name('query(id) x 1,000', n), spread.map((l) => [l, sceneQuery(index, l, n)]), 'query', 1000, false);
  // All at one point: every entity sees every other, so the output is the square of the count.
  const point: Layout[] = ['uniform', 'point'];
  layoutCase(context, name('addMany build at one point', crowd), point.map((l) => [l, sceneBuild(index, points(l, crowd))]), 'entity', crowd, true);
  layoutCase(context, name('tick at one point', crowd), point.map((l) => [l, sceneTick(index, l, crowd)]), 'move', Math.round(crowd * MOVING), true);
}

// ---- QuadTree ---------------------------------------------------------------

/** Rectangles around a layout's points, sides 2 to 2 * RANGE (all 2 * RANGE wide when `identical`). */
function rectsOf(p: Points, identical: boolean): Float64Array {
  const random = mulberry32(5);
  const rects = new Float64Array(p.n * 4);
  for (let i = 0; i < p.n; i++) {
    const w = identical ? RANGE : 1 + random() * (RANGE - 1);
    const h = identical ? RANGE : 1 + random() * (RANGE - 1);
    rects.set([p.xs[i] - w, p.ys[i] - h, p.xs[i] + w, p.ys[i] + h], i * 4);
  }
  return rects;
}

/** A tree whose bounds are the layout's extent (and at least its uniform square). */
function treeOf(p: Points): QuadTree {
  let maxX = p.side, maxY = p.side;
  for (let i = 0; i < p.n; i++) {
    maxX = Math.max(maxX, p.xs[i] + RANGE);
    maxY = Math.max(maxY, p.ys[i] + RANGE);
  }
  return new QuadTree({ bounds: { minX: -RANGE, minY: -RANGE, maxX, maxY } });
}

/** insertMany of the layout's rectangles into an empty tree. */
function treeBuild(p: Points, identical: boolean): Measured {
  const rects = rectsOf(p, identical);
  return measured(
    () => null,
    () => {
      const tree = treeOf(p);
      tree.insertMany(p.ids, rects);
      tree.dispose();
      return { work: p.n, output: 0 };
    },
  );
}

/** A tree of the layout's rectangles, built (untimed), with the half-sizes of its rectangles and the layout's ticks. */
function builtTree(layout: Layout, n: number, identical: boolean): { tree: QuadTree; p: Points; halves: Float64Array; ticks: Ticks; moved: Float64Array } {
  const p = points(layout, n);
  const rects = rectsOf(p, identical);
  const halves = Float64Array.from({ length: n * 2 }, (_, k) => (rects[(k >> 1) * 4 + 2 + (k & 1)] - rects[(k >> 1) * 4 + (k & 1)]) / 2);
  const tree = treeOf(p);
  tree.insertMany(p.ids, rects);
  const ticks = new Ticks(p);
  return { tree, p, halves, ticks, moved: new Float64Array(ticks.ids.length * 4) };
}

/** updateMany of a tick's moves (rects keep their size), on a built tree. */
function treeTick(layout: Layout, n: number, identical: boolean): Measured {
  return measured(
    () => builtTree(layout, n, identical),
    ({ tree, halves, ticks, moved }) => {
      ticks.next();
      for (let k = 0; k < ticks.ids.length; k++) {
        const [w, h] = [halves[ticks.ids[k] * 2], halves[ticks.ids[k] * 2 + 1]];
        moved.set([ticks.xs[k] - w, ticks.ys[k] - h, ticks.xs[k] + w, ticks.ys[k] + h], k * 4);
      }
      tree.updateMany(ticks.ids, moved);
      return { work: ticks.ids.length, output: 0 };
    },
    ({ tree }) => tree.dispose(),
  );
}

/** A thousand queries around points of the layout (boxes of side 4 * RANGE), or every intersecting pair. */
function treeRead(layout: Layout, n: number, identical: boolean, what: 'query' | 'pairs'): Measured {
  return measured(
    () => {
      const built = builtTree(layout, n, identical);
      const boxes = new Float64Array(4000);
      for (let k = 0; k < 1000; k++) {
        const i = (k * 7919) % n;
        boxes.set([built.p.xs[i] - 2 * RANGE, built.p.ys[i] - 2 * RANGE, built.p.xs[i] + 2 * RANGE, built.p.ys[i] + 2 * RANGE], k * 4);
      }
      return { tree: built.tree, boxes };
    },
    ({ tree, boxes }) => {
      if (what === 'pairs') return { work: n, output: tree.pairIds().length / 2 };
      let hits = 0;
      for (let k = 0; k < 1000; k++) hits += tree.queryIds(boxes[k * 4], boxes[k * 4 + 1], boxes[k * 4 + 2], boxes[k * 4 + 3]).length;
      return { work: 1000, output: hits };
    },
    ({ tree }) => tree.dispose(),
  );
}

function treeCases(context: SuiteContext, n: number, crowd: number): void {
  const spread: Layout[] = ['uniform', 'line', 'sorted', 'reverse', 'clusters'];
  const name = (what: string, count: number): string => `QuadTree: ${what}, ${count.toLocaleString('en-US')} rects`;
  layoutCase(context, name('insertMany build', n), spread.map((l) => [l, treeBuild(points(l, n), false)]), 'insert', n, true);
  layoutCase(context, name(`tick (updateMany of ${MOVING * 100}%)`, n), spread.map((l) => [l, treeTick(l, n, false)]), 'update', Math.round(n * MOVING), true);
  layoutCase(context, name('queryIds x 1,000', n), spread.map((l) => [l, treeRead(l, n, false, 'query')]), 'query', 1000, false);
  layoutCase(context, name('pairIds', n), spread.map((l) => [l, treeRead(l, n, false, 'pairs')]), 'pairs call', 1, false);
  // Identical rectangles: every one overlaps every other.
  const same = (make: (identical: boolean) => Measured): Array<[string, Measured]> => [['uniform', make(false)], ['identical', make(true)]];
  layoutCase(context, name('insertMany build, identical rectangles', crowd), same((i) => treeBuild(points(i ? 'point' : 'uniform', crowd), i)), 'insert', crowd, true);
  layoutCase(context, name('tick, identical rectangles', crowd), same((i) => treeTick(i ? 'point' : 'uniform', crowd, i)), 'update', Math.round(crowd * MOVING), true);
  layoutCase(context, name('pairIds, identical rectangles', crowd), same((i) => treeRead(i ? 'point' : 'uniform', crowd, i, 'pairs')), 'pairs call', 1, false);
}

// ---- GridMap and Graph: a maze with one corridor ------------------------------

/** Walls (1) of a side x side map (side odd; 0 walkable, as GridMap.fromArray reads it): a serpentine maze (one corridor through every row pair) or 20% random walls. */
function mapCells(side: number, maze: boolean): Uint8Array {
  const random = mulberry32(13);
  const cells = new Uint8Array(side * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (maze) {
        // Every odd row is a wall but for one gap, at alternating ends.
        const gap = (y >> 1) % 2 === 0 ? side - 1 : 0;
        if (y % 2 === 1 && x !== gap) cells[y * side + x] = 1;
      } else if (random() < 0.2 && x + y > 2 && x + y < 2 * side - 4) {
        cells[y * side + x] = 1;
      }
    }
  }
  return cells;
}

function gridSearch(side: number, maze: boolean, algorithm: 'astar' | 'jps'): Measured {
  return measured(
    () => GridMap.fromArray(side, side, mapCells(side, maze)),
    (grid) => ({ work: 1, output: grid.findPath(0, 0, side - 1, side - 1, { algorithm })?.path.length ?? 0 }),
    (grid) => grid.dispose(),
  );
}

/** The walkable cells of a map as a graph (4-neighbour edges of weight 1), searched corner to corner. */
function graphSearch(side: number, maze: boolean): Measured {
  return measured(
    () => {
      const cells = mapCells(side, maze);
      const from: number[] = [];
      const to: number[] = [];
      for (let y = 0; y < side; y++) {
        for (let x = 0; x < side; x++) {
          const v = y * side + x;
          if (cells[v] === 1) continue;
          for (const w of [x + 1 < side ? v + 1 : -1, y + 1 < side ? v + side : -1]) {
            if (w < 0 || cells[w] === 1) continue;
            from.push(v, w);
            to.push(w, v);
          }
        }
      }
      const xs = Float64Array.from({ length: side * side }, (_, v) => v % side);
      const ys = Float64Array.from({ length: side * side }, (_, v) => Math.floor(v / side));
      return Graph.fromEdges(from, to, new Float64Array(from.length).fill(1), { vertexCount: side * side, x: xs, y: ys });
    },
    (graph) => ({ work: 1, output: graph.path(0, side * side - 1, { algorithm: 'astar', heuristic: 'manhattan' })?.path.length ?? 0 }),
    (graph) => graph.dispose(),
  );
}

function pathCases(context: SuiteContext, side: number): void {
  const pair = (make: (maze: boolean) => Measured): Array<[string, Measured]> => [['20% random walls', make(false)], ['one corridor', make(true)]];
  const name = (what: string): string => `${what}, ${side} x ${side} map, corner to corner`;
  layoutCase(context, name('GridMap A*'), pair((maze) => gridSearch(side, maze, 'astar')), 'search', 1, false);
  layoutCase(context, name('GridMap JPS'), pair((maze) => gridSearch(side, maze, 'jps')), 'search', 1, false);
  layoutCase(context, name('Graph A* over the walkable cells'), pair((maze) => graphSearch(side, maze)), 'search', 1, false);
}

export const adversarialSuite: Suite = {
  name: 'adversarial',
  title: 'Hostile layouts: lines, one point, sorted orders, clusters, identical rectangles, a one-corridor maze',
  async run(context) {
    await init();
    const n = context.pick({ smoke: 2_000, default: 40_000, full: 100_000 });
    const crowd = context.pick({ smoke: 200, default: 1_500, full: 3_000 });
    const each = context.pick({ smoke: 1_000, default: 10_000, full: 20_000 });
    context.note(
      `layouts: uniform over a square at ${IN_VIEW} per view box; a line (y = x) as dense along it; ids and batch order sorted or reverse-sorted by x; ${CLUSTERS} Gaussian clusters five times as dense at their centre; all at one point (every pair visible); ticks move ${MOVING * 100}% by up to ${STEP}, along the line and near the point in those layouts`,
    );
    // The lists index, not the default one and the slowest to build, in full runs only.
    for (const index of context.full ? (['lists', 'grid'] as const) : (['grid'] as const)) sceneCases(context, index, n, crowd, each);
    treeCases(context, n, crowd);
    pathCases(context, context.pick({ smoke: 63, default: 255, full: 511 }));
  },
};
