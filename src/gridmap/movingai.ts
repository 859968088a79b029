// The Moving AI Lab grid benchmark formats (https://movingai.com/benchmarks/formats.html):
// `.map` files (a header, then one character per cell) and `.scen` scenario files.
import { SpatialError } from '../core/errors.js';

/** A parsed map: width * height bytes, row-major, 1 walkable and 0 blocked. */
export interface MovingAIMap {
  width: number;
  height: number;
  cells: Uint8Array;
}

/** One scenario line: a start, a goal and the optimal length (8-connected, no corner cutting). */
export interface MovingAIScenario {
  /** The scenario's bucket (scenarios are grouped by optimal length, 4 units per bucket). */
  bucket: number;
  /** The map file the scenario belongs to, as written in the line (e.g. 'arena.map'). */
  map: string;
  /** The map's width, as written in the line. */
  mapWidth: number;
  /** The map's height, as written in the line. */
  mapHeight: number;
  /** Start cell column, from the left. */
  startX: number;
  /** Start cell row, from the top. */
  startY: number;
  /** Goal cell column. */
  goalX: number;
  /** Goal cell row. */
  goalY: number;
  /** The shortest path's length: orthogonal steps 1, diagonal steps sqrt(2), no corner cutting. */
  optimalLength: number;
}

const PASSABLE = new Set(['.', 'G', 'S']);
const BLOCKED = new Set(['@', 'O', 'T', 'W']);

function malformed(message: string): SpatialError {
  return new SpatialError('INVALID_ARGUMENT', `malformed Moving AI map: ${message}`);
}

function headerNumber(line: string | undefined, name: string): number {
  const match = /^(\w+)\s+(\d+)\s*$/.exec(line ?? '');
  if (match === null || match[1] !== name) throw malformed(`expected "${name} N", got ${JSON.stringify(line)}`);
  const value = Number(match[2]);
  if (value < 1) throw malformed(`${name} must be >= 1`);
  return value;
}

/**
 * Parses a `.map` file: `type octile`, `height H`, `width W`, `map`, then H
 * rows of W characters. '.', 'G', 'S' are passable; '@', 'O', 'T', 'W'
 * blocked. CRLF line endings and trailing blank lines are accepted; anything
 * else malformed throws INVALID_ARGUMENT.
 */
export function parseMovingAIMap(text: string): MovingAIMap {
  if (typeof text !== 'string') throw malformed('expected a string');
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  if (!/^type\s+octile\s*$/.test(lines[0] ?? '')) throw malformed(`expected "type octile", got ${JSON.stringify(lines[0])}`);
  const height = headerNumber(lines[1], 'height');
  const width = headerNumber(lines[2], 'width');
  if ((lines[3] ?? '').trim() !== 'map') throw malformed(`expected "map", got ${JSON.stringify(lines[3])}`);
  if (lines.length !== 4 + height) throw malformed(`expected ${height} rows, got ${lines.length - 4}`);
  const cells = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = lines[4 + y];
    if (row.length !== width) throw malformed(`row ${y} has ${row.length} cells, expected ${width}`);
    for (let x = 0; x < width; x++) {
      const c = row[x];
      if (PASSABLE.has(c)) cells[y * width + x] = 1;
      else if (!BLOCKED.has(c)) throw malformed(`unknown cell ${JSON.stringify(c)} at (${x}, ${y})`);
    }
  }
  return { width, height, cells };
}

/**
 * Parses a Moving AI Lab `.scen` file: a `version` line, then one scenario
 * per line, nine tab-separated fields (bucket, map, map width, map height,
 * start x, start y, goal x, goal y, optimal length). CRLF line endings and
 * blank lines are accepted. A missing version line, a line without nine
 * fields, or a field that is not a number where one belongs (integers >= 0
 * for the bucket, sizes and cells) throws INVALID_ARGUMENT.
 */
export function parseMovingAIScenarios(text: string): MovingAIScenario[] {
  if (typeof text !== 'string') throw new SpatialError('INVALID_ARGUMENT', 'malformed scenario file: expected a string');
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (!/^version\s/.test(lines[0] ?? '')) throw new SpatialError('INVALID_ARGUMENT', 'malformed scenario file: no version line');
  return lines.slice(1).map((line) => {
    const f = line.split('\t');
    const bad = (): SpatialError => new SpatialError('INVALID_ARGUMENT', `malformed scenario line: ${JSON.stringify(line)}`);
    if (f.length !== 9) throw bad();
    const whole = (field: string): number => {
      if (!/^\d+$/.test(field.trim())) throw bad();
      return Number(field);
    };
    const length = Number(f[8]);
    if (f[8].trim() === '' || !Number.isFinite(length) || length < 0) throw bad();
    return {
      bucket: whole(f[0]),
      map: f[1],
      mapWidth: whole(f[2]),
      mapHeight: whole(f[3]),
      startX: whole(f[4]),
      startY: whole(f[5]),
      goalX: whole(f[6]),
      goalY: whole(f[7]),
      optimalLength: length,
    };
  });
}
