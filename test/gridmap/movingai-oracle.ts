// Runs the Moving AI Lab scenarios (test/fixtures/movingai, ODC-By, see the
// README there) through GridMap and checks each answer against the published
// optimal length and the path checker.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { GridMap, type Backend, type DiagonalRule, type GridAlgorithm } from '../../src/index.js';
import { parseMovingAIMap, parseMovingAIScenarios, type MovingAIScenario } from '../../src/gridmap/movingai.js';
import { checkPath, type PlainGrid } from './dijkstra-oracle.js';
import { checkCorners } from './sight-oracle.js';

export const MOVING_AI_DIR = fileURLToPath(new URL('../fixtures/movingai/', import.meta.url));
export const MOVING_AI_MAPS = ['arena.map', 'arena2.map', 'random512-10-0.map', 'maze512-1-0.map'];

/**
 * The scenario files give lengths with 8 decimals, computed with a slightly
 * different rounding of sqrt(2) sums (differences up to 1.6e-7 on the 512 x 512
 * maps), so lengths are compared within 1e-6.
 */
const TOLERANCE = 1e-6;

/** One map as a GridMap and as the checker's plain grid, with its scenarios. */
function load(map: string, backend: Backend): { plain: PlainGrid; grid: GridMap; scenarios: MovingAIScenario[] } {
  const text = readFileSync(MOVING_AI_DIR + map, 'utf8');
  const parsed = parseMovingAIMap(text);
  const plain: PlainGrid = {
    width: parsed.width,
    height: parsed.height,
    walkable: Array.from(parsed.cells, (c) => c === 1),
    cost: new Array<number>(parsed.cells.length).fill(1),
  };
  const scenarios = parseMovingAIScenarios(readFileSync(MOVING_AI_DIR + map + '.scen', 'utf8'));
  return { plain, grid: GridMap.fromMovingAI(text, { backend }), scenarios };
}

/** How many scenarios a map has. */
export function scenarioCount(map: string): number {
  return parseMovingAIScenarios(readFileSync(MOVING_AI_DIR + map + '.scen', 'utf8')).length;
}

/**
 * Checks every `every`-th scenario of one map whose index is in [from, to);
 * returns how many were checked.
 */
export function checkMovingAI(map: string, backend: Backend, algorithm: GridAlgorithm, every = 1, from = 0, to = Infinity): number {
  const { plain, grid, scenarios } = load(map, backend);
  let checked = 0;
  for (let i = from; i < Math.min(to, scenarios.length); i += every) {
    const s = scenarios[i];
    const result = grid.findPath(s.startX, s.startY, s.goalX, s.goalY, { diagonal: 'no-corner-cutting', algorithm });
    const where = `${map} scenario ${i} (${s.startX}, ${s.startY}) -> (${s.goalX}, ${s.goalY})`;
    if (result === null) expect.fail(`${where}: no path, optimal length ${s.optimalLength}`);
    if (Math.abs(result.cost - s.optimalLength) > TOLERANCE) expect.fail(`${where}: cost ${result.cost}, optimal ${s.optimalLength}`);
    const recomputed = checkPath(plain, result.path, s.startX, s.startY, s.goalX, s.goalY, 'no-corner-cutting');
    if (typeof recomputed === 'string') expect.fail(`${where}: ${recomputed}`);
    if (Math.abs(recomputed - s.optimalLength) > TOLERANCE) expect.fail(`${where}: path steps cost ${recomputed}`);
    checked++;
  }
  grid.dispose();
  return checked;
}

/**
 * Under another diagonal rule the published lengths do not apply: checks that
 * jump point search finds A*'s cost and a valid path on every `every`-th
 * scenario's endpoints; returns how many were checked.
 */
export function compareJpsWithAStar(map: string, diagonal: DiagonalRule, every: number): number {
  const { plain, grid, scenarios } = load(map, 'wasm');
  let checked = 0;
  for (let i = 0; i < scenarios.length; i += every) {
    const s = scenarios[i];
    const astar = grid.findPath(s.startX, s.startY, s.goalX, s.goalY, { diagonal });
    const jps = grid.findPath(s.startX, s.startY, s.goalX, s.goalY, { diagonal, algorithm: 'jps' });
    const where = `${map} ${diagonal} scenario ${i}`;
    if (astar === null || jps === null) expect.fail(`${where}: no path`);
    if (Math.abs(jps.cost - astar.cost) > 1e-9) expect.fail(`${where}: jps ${jps.cost}, A* ${astar.cost}`);
    const recomputed = checkPath(plain, jps.path, s.startX, s.startY, s.goalX, s.goalY, diagonal);
    if (typeof recomputed === 'string' || Math.abs(recomputed - astar.cost) > 1e-9) expect.fail(`${where}: ${String(recomputed)}`);
    checked++;
  }
  grid.dispose();
  return checked;
}

/**
 * Smoothed A* and Theta* on every `every`-th scenario of one map, on both
 * backends: the two backends return the same path; every segment passes the
 * brute-force line-of-sight check; the cost is the segments' cost, at most
 * the published optimal (grid) length and at least the straight-line
 * distance. Returns how many scenarios were checked.
 */
export function checkAnyAngle(map: string, every: number): number {
  const wasm = load(map, 'wasm');
  const js = load(map, 'js');
  let checked = 0;
  for (let i = 0; i < wasm.scenarios.length; i += every) {
    const s = wasm.scenarios[i];
    for (const options of [{ smooth: true }, { algorithm: 'theta*' as const }]) {
      const where = `${map} scenario ${i} ${JSON.stringify(options)}`;
      const result = wasm.grid.findPath(s.startX, s.startY, s.goalX, s.goalY, options);
      expect(js.grid.findPath(s.startX, s.startY, s.goalX, s.goalY, options), where).toEqual(result);
      if (result === null) expect.fail(`${where}: no path`);
      const cost = checkCorners(wasm.plain, result.path, s.startX, s.startY, s.goalX, s.goalY, 'no-corner-cutting');
      if (typeof cost === 'string') expect.fail(`${where}: ${cost}`);
      expect(result.cost, where).toBeCloseTo(cost, 9);
      expect(result.cost, where).toBeLessThanOrEqual(s.optimalLength + TOLERANCE);
      expect(result.cost, where).toBeGreaterThanOrEqual(Math.hypot(s.goalX - s.startX, s.goalY - s.startY) - TOLERANCE);
    }
    checked++;
  }
  wasm.grid.dispose();
  js.grid.dispose();
  return checked;
}
