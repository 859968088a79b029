// GridMap against PathFinding.js and a plain typed-array A*, on
// P1: a 512 x 512 grid with 20% random obstacles and 1,000 random reachable
// start / goal pairs, P2: the Moving AI Lab maps and their scenarios, and
// P3: any-angle paths (smooth, Theta*) on the same maps against
// PathFinding.js's smoothenPath, with path lengths over the optimal ones.
// Every contender's path lengths are checked against ours (and ours against
// Dijkstra) before anything is timed; PathFinding.js's jump point finder,
// which is not always optimal, is reported with how much longer it is.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GridMap, init, type FindPathOptions } from '../src/index.js';
import { parseMovingAIMap, parseMovingAIScenarios } from '../src/gridmap/movingai.js';
import type { CaseResult, Contender, ContenderKind, Suite, SuiteContext } from './harness.js';
import type { PlainGrid } from '../test/gridmap/dijkstra-oracle.js';
import { checkCorners } from '../test/gridmap/sight-oracle.js';
import { pathfindingFinder, pathfindingGrid, pathfindingSmoothen, polylineLength, stepsLength } from './peers/grid-pathfinding.js';
import { PlainAStar } from './peers/grid-plain-astar.js';
import { mulberry32 } from './random.js';

/** Start and goal cells of the searches of one case. */
type Pairs = Array<[number, number, number, number]>;

interface MapData {
  name: string;
  width: number;
  height: number;
  walkable: Uint8Array;
}

const MOVING_AI_DIR = resolve('test', 'fixtures', 'movingai');
const MOVING_AI_MAPS = ['arena.map', 'arena2.map', 'random512-10-0.map', 'maze512-1-0.map'];
const TOLERANCE = 1e-6;

function gridOf(map: MapData, backend: 'wasm' | 'js'): GridMap {
  const grid = new GridMap(map.width, map.height, { backend });
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) if (map.walkable[y * map.width + x] === 0) grid.setWalkable(x, y, false);
  }
  return grid;
}

/** Throws unless `actual` matches `expected` for every pair. */
function checkCosts(who: string, expected: number[], actual: number[]): void {
  expected.forEach((cost, i) => {
    if (Math.abs(actual[i] - cost) > TOLERANCE) throw new Error(`${who}: pair ${i} cost ${actual[i]}, expected ${cost}`);
  });
}

/** Our contenders and the plain A*, all over the same pairs; costs checked against `expected` first. */
function fastContenders(map: MapData, pairs: Pairs, expected: number[]): Contender[] {
  const wasm = gridOf(map, 'wasm');
  const js = gridOf(map, 'js');
  const plain = new PlainAStar(map.width, map.height, map.walkable);
  const ours = (grid: GridMap, algorithm: 'astar' | 'jps') => (): number[] =>
    pairs.map(([sx, sy, tx, ty]) => grid.findPath(sx, sy, tx, ty, { algorithm })?.cost ?? -1);
  const runs: Array<[string, () => unknown, ContenderKind?]> = [
    ['wasm A*', ours(wasm, 'astar')],
    ['wasm JPS', ours(wasm, 'jps')],
    ['js backend A*', ours(js, 'astar'), 'js'],
    ['js backend JPS', ours(js, 'jps')],
    ['plain typed-array JS A*', () => pairs.map(([sx, sy, tx, ty]) => plain.search(sx, sy, tx, ty)), 'hand-written'],
  ];
  for (const [name, run] of runs) checkCosts(`${map.name} ${name}`, expected, run() as number[]);
  return runs.map(([name, run, kind], i) => ({
    name,
    kind,
    run,
    teardown: i === runs.length - 1 ? () => { wasm.dispose(); js.dispose(); } : undefined,
  }));
}

/**
 * wasm A* next to PathFinding.js's A* and jump point finder (each search on a
 * fresh grid.clone()). Returns the contenders and how much longer
 * PathFinding.js's JPS paths are than the optimal ones.
 */
function pathfindingContenders(map: MapData, pairs: Pairs, expected: number[]): { contenders: Contender[]; jpsExcess: string } {
  const wasm = gridOf(map, 'wasm');
  const base = pathfindingGrid(map.width, map.height, map.walkable);
  const astar = pathfindingFinder('astar');
  const jps = pathfindingFinder('jps');
  const pf = (finder: ReturnType<typeof pathfindingFinder>) => (): number[] =>
    pairs.map(([sx, sy, tx, ty]) => stepsLength(finder.findPath(sx, sy, tx, ty, base.clone())));
  const ours = (): number[] => pairs.map(([sx, sy, tx, ty]) => wasm.findPath(sx, sy, tx, ty)?.cost ?? -1);
  checkCosts(`${map.name} wasm A*`, expected, ours());
  checkCosts(`${map.name} PathFinding.js AStarFinder`, expected, pf(astar)());
  const jpsCosts = pf(jps)();
  let worst = 0;
  let total = 0;
  jpsCosts.forEach((cost, i) => {
    if (cost < expected[i] - TOLERANCE) throw new Error(`${map.name} PathFinding.js JPS: pair ${i} shorter than optimal`);
    const excess = expected[i] > 0 ? cost / expected[i] - 1 : 0;
    worst = Math.max(worst, excess);
    total += excess;
  });
  const jpsExcess = `PathFinding.js JumpPointFinder on ${map.name}: paths ${((100 * total) / pairs.length).toFixed(1)}% longer than optimal on average, ${(100 * worst).toFixed(1)}% at worst (${pairs.length} pairs)`;
  return {
    contenders: [
      { name: 'wasm A*', run: ours },
      { name: 'PathFinding.js AStarFinder + clone', kind: 'library', run: pf(astar) },
      { name: 'PathFinding.js JumpPointFinder + clone', kind: 'library', run: pf(jps), teardown: () => wasm.dispose() },
    ],
    jpsExcess,
  };
}

/** Mean and largest ratio of lengths to the optimal ones, as "mean x (max y)". */
function ratios(lengths: number[], optimal: number[]): { mean: number; max: number; text: string } {
  let total = 0;
  let max = 0;
  lengths.forEach((length, i) => {
    const ratio = optimal[i] > 0 ? length / optimal[i] : 1;
    total += ratio;
    max = Math.max(max, ratio);
  });
  const mean = total / lengths.length;
  return { mean, max, text: `mean ${mean.toFixed(4)} (max ${max.toFixed(4)})` };
}

/**
 * P3, any-angle paths on one Moving AI map: wasm A* + smooth and wasm Theta*
 * next to PathFinding.js's A* + Util.smoothenPath. Before timing, notes each
 * contender's path length over the optimal grid (octile) length on every
 * pair, and how many of PathFinding.js's smoothed paths touch a blocked cell
 * by the supercover line-of-sight test ours pass (their line test walks
 * fewer cells). Returns the lengths for the totals across maps.
 */
function benchSmoothing(context: SuiteContext, map: MapData, pairs: Pairs, optimal: number[], timed: Pairs): Record<string, number[]> {
  const name = map.name.replace('P2', 'P3');
  const wasm = gridOf(map, 'wasm');
  const base = pathfindingGrid(map.width, map.height, map.walkable);
  const astar = pathfindingFinder('astar');
  const plain: PlainGrid = { width: map.width, height: map.height, walkable: Array.from(map.walkable, (c) => c === 1), cost: new Array<number>(map.walkable.length).fill(1) };
  const ours = (options: FindPathOptions) => (some: Pairs): number[] =>
    some.map(([sx, sy, tx, ty]) => wasm.findPath(sx, sy, tx, ty, options)?.cost ?? -1);
  const pf = (some: Pairs): number[][][] => some.map(([sx, sy, tx, ty]) => {
    const grid = base.clone();
    return pathfindingSmoothen(grid, astar.findPath(sx, sy, tx, ty, grid));
  });
  const pfPaths = pf(pairs);
  const cutting = pfPaths.filter((path, i) => typeof checkCorners(plain, path as Array<[number, number]>, ...pairs[i], 'no-corner-cutting') === 'string').length;
  const lengths: Record<string, number[]> = {
    'wasm A* + smooth': ours({ smooth: true })(pairs),
    'wasm Theta*': ours({ algorithm: 'theta*' })(pairs),
    'PathFinding.js A* + smoothenPath': pfPaths.map(polylineLength),
  };
  for (const [who, values] of Object.entries(lengths)) context.note(`${name} ${who}: path length / optimal grid length ${ratios(values, optimal).text} over ${pairs.length} pairs`);
  context.note(`${name}: ${cutting} of ${pairs.length} PathFinding.js smoothed paths touch a blocked cell by the supercover test (ours: none, checked by the tests)`);
  const heavy = { minSamples: context.quick ? 2 : 3, warmup: 0, minTimeMs: context.quick ? 0 : 300, opName: 'search', opsPerRun: timed.length };
  context.bench(`${name}: ${timed.length} smoothed searches against PathFinding.js`, [
    { name: 'wasm A* + smooth', run: () => ours({ smooth: true })(timed) },
    { name: 'wasm Theta*', run: () => ours({ algorithm: 'theta*' })(timed) },
    { name: 'PathFinding.js A* + clone + smoothenPath', run: () => pf(timed), teardown: () => wasm.dispose() },
  ], heavy);
  return lengths;
}

/** The 512 x 512 map of P1: 20% of cells blocked, seeded. */
function randomMap(): MapData {
  const size = 512;
  const random = mulberry32(20_240_512);
  const walkable = new Uint8Array(size * size);
  for (let i = 0; i < walkable.length; i++) walkable[i] = random() < 0.2 ? 0 : 1;
  return { name: 'P1 512 x 512, 20% obstacles', width: size, height: size, walkable };
}

/** Random walkable start / goal pairs that are connected, with their optimal costs (by wasm A*). */
function randomPairs(map: MapData, count: number): { pairs: Pairs; costs: number[] } {
  const random = mulberry32(7);
  const grid = gridOf(map, 'wasm');
  const pairs: Pairs = [];
  const costs: number[] = [];
  const cell = (): [number, number] => {
    for (;;) {
      const x = Math.floor(random() * map.width);
      const y = Math.floor(random() * map.height);
      if (map.walkable[y * map.width + x] === 1) return [x, y];
    }
  };
  while (pairs.length < count) {
    const [sx, sy] = cell();
    const [tx, ty] = cell();
    const result = grid.findPath(sx, sy, tx, ty);
    if (result === null) continue;
    pairs.push([sx, sy, tx, ty]);
    costs.push(result.cost);
  }
  grid.dispose();
  return { pairs, costs };
}

/** Dijkstra (no heuristic, no jumps) confirms the reference costs on the first `count` pairs. */
function confirmWithDijkstra(context: SuiteContext, map: MapData, pairs: Pairs, costs: number[], count: number): void {
  const grid = gridOf(map, 'wasm');
  const some = pairs.slice(0, count);
  checkCosts(`${map.name} Dijkstra`, costs.slice(0, count), some.map(([sx, sy, tx, ty]) => grid.findPath(sx, sy, tx, ty, { algorithm: 'dijkstra' })?.cost ?? -1));
  grid.dispose();
  context.note(`${map.name}: every contender's costs checked on every timed pair; the reference costs confirmed by Dijkstra on ${count} pairs`);
}

/** Times one map: our contenders and the plain A* on every pair, then PathFinding.js on a subset (when one is given). */
function benchMap(context: SuiteContext, map: MapData, pairs: Pairs, costs: number[], some?: { pairs: Pairs; costs: number[] }, headline?: string): CaseResult[] {
  // No warm-up run: checking the costs already ran every contender once over the same pairs.
  const heavy = { minSamples: context.quick ? 2 : 3, warmup: 0, minTimeMs: context.quick ? 0 : 300, opName: 'search' };
  const fast = context.bench(`${map.name}: ${pairs.length} searches`, fastContenders(map, pairs, costs), {
    ...heavy,
    opsPerRun: pairs.length,
    headline: headline === undefined ? undefined : `${headline}: ${pairs.length} searches`,
  });
  if (some === undefined) return [fast];
  const { contenders, jpsExcess } = pathfindingContenders(map, some.pairs, some.costs);
  const peers = context.bench(`${map.name}: ${some.pairs.length} searches against PathFinding.js`, contenders, {
    ...heavy,
    opsPerRun: some.pairs.length,
    headline: headline === undefined ? undefined : `${headline}: ${some.pairs.length} searches against PathFinding.js`,
  });
  context.note(jpsExcess);
  return [fast, peers];
}

/** Notes each contender's total time over several cases and its ratio to the first contender's total. */
function noteTotals(context: SuiteContext, label: string, cases: CaseResult[]): void {
  const totals = new Map<string, number>();
  for (const result of cases) for (const c of result.contenders) totals.set(c.name, (totals.get(c.name) ?? 0) + c.medianMs);
  const [first] = totals.values();
  const parts = [...totals].map(([name, ms]) => `${name} ${ms.toFixed(1)} ms (${(ms / first).toFixed(2)}x)`);
  context.note(`${label}: ${parts.join(', ')}`);
}

export const pathsGridSuite: Suite = {
  name: 'paths-grid',
  title: 'GridMap: A*, jump point search and any-angle paths against PathFinding.js and a plain typed-array A*',
  async run(context) {
    await init();
    context.note('memory: 30 bytes per cell once searched (1 walkability and 1 in its column copy, 8 cost, 16 search record, 4 heap position), over the grid plus a one-cell border');

    // P1: the random grid.
    const p1 = randomMap();
    const { pairs, costs } = randomPairs(p1, context.pick({ smoke: 20, default: 100, full: 1000 }));
    confirmWithDijkstra(context, p1, pairs, costs, context.pick({ smoke: 5, default: 20, full: 100 }));
    const pfCount = context.pick({ smoke: 3, default: 10, full: 25 });
    benchMap(context, p1, pairs, costs, { pairs: pairs.slice(0, pfCount), costs: costs.slice(0, pfCount) }, 'GridMap: A* on 512 x 512, 20% of cells blocked');

    // P2: the Moving AI maps, a spread of each file's scenarios (they are sorted by length).
    const p2: CaseResult[][] = [];
    const p3: Record<string, number[]> = {};
    const p3Optimal: number[] = [];
    for (const name of MOVING_AI_MAPS) {
      const parsed = parseMovingAIMap(readFileSync(resolve(MOVING_AI_DIR, name), 'utf8'));
      const map: MapData = { name: `P2 ${name}`, ...parsed, walkable: parsed.cells };
      const scenarios = parseMovingAIScenarios(readFileSync(resolve(MOVING_AI_DIR, `${name}.scen`), 'utf8'));
      const wanted = context.pick({ smoke: 8, default: 12, full: 120 });
      const every = Math.max(1, Math.floor(scenarios.length / wanted));
      const chosen = scenarios.filter((_, i) => i % every === 0).slice(0, wanted);
      const scenarioPairs: Pairs = chosen.map((s) => [s.startX, s.startY, s.goalX, s.goalY]);
      const optimal = chosen.map((s) => s.optimalLength);
      context.note(`${map.name}: ${chosen.length} of ${scenarios.length} scenarios (1 in ${every}); costs checked against the published optimal lengths`);
      // PathFinding.js on the Moving AI maps (P1 times it in every run) and any-angle paths: full runs only.
      if (!context.full) {
        p2.push(benchMap(context, map, scenarioPairs, optimal));
        continue;
      }
      const spacing = Math.ceil(chosen.length / 12);
      const spread = (_: unknown, i: number): boolean => i % spacing === 0;
      p2.push(benchMap(context, map, scenarioPairs, optimal, { pairs: scenarioPairs.filter(spread), costs: optimal.filter(spread) }));
      const lengths = benchSmoothing(context, map, scenarioPairs, optimal, scenarioPairs.filter(spread));
      for (const [name, values] of Object.entries(lengths)) (p3[name] ??= []).push(...values);
      p3Optimal.push(...optimal);
    }
    for (const [name, values] of Object.entries(p3)) {
      context.note(`P3, all four maps together, ${name}: path length / optimal grid length ${ratios(values, p3Optimal).text} over ${values.length} pairs`);
    }
    noteTotals(context, 'P2, all four maps together', p2.map(([fast]) => fast));
    if (context.full) noteTotals(context, 'P2 against PathFinding.js, all four maps together', p2.map(([, peers]) => peers));
  },
};
