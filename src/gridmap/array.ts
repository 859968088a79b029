// Reading a grid from the arrays users already hold: flat row-major arrays
// (number[] or a typed array, width * height long) or arrays of rows
// (height rows of width values). Everything is checked before a grid exists,
// so a rejected GridMap.fromArray leaves nothing behind.
import { SpatialError } from '../core/errors.js';

/** Cell values: flat and row-major, or one array per row. */
export type GridCells = ArrayLike<number> | ArrayLike<ArrayLike<number>>;

function invalid(message: string): SpatialError {
  return new SpatialError('INVALID_ARGUMENT', message);
}

function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

/**
 * Calls `visit(index, value)` for every cell in row-major order, after
 * checking the shape: `what` names the array in messages. Values are finite
 * numbers (INVALID_NUMBER otherwise); a wrong length or a ragged row is
 * INVALID_ARGUMENT.
 */
function eachCell(width: number, height: number, cells: unknown, what: string, visit: (index: number, value: number) => void): void {
  if (!isArrayLike(cells)) throw invalid(`${what} must be an array or a typed array, got ${typeof cells}`);
  const value = (v: unknown, x: number, y: number): number => {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new SpatialError('INVALID_NUMBER', `${what} at (${x}, ${y}) must be a finite number, got ${String(v)}`);
    }
    return v;
  };
  const rows = cells.length > 0 && isArrayLike(cells[0]);
  if (rows) {
    if (cells.length !== height) throw invalid(`${what} has ${cells.length} rows, expected ${height}`);
    for (let y = 0; y < height; y++) {
      const row = cells[y];
      if (!isArrayLike(row)) throw invalid(`${what} row ${y} is not an array`);
      if (row.length !== width) throw invalid(`${what} row ${y} has ${row.length} values, expected ${width}`);
      for (let x = 0; x < width; x++) visit(y * width + x, value(row[x], x, y));
    }
    return;
  }
  if (cells.length !== width * height) {
    throw invalid(`${what} has ${cells.length} values, expected ${width} x ${height} = ${width * height}`);
  }
  for (let i = 0; i < cells.length; i++) visit(i, value(cells[i], i % width, Math.floor(i / width)));
}

/**
 * Walkability bytes (1 walkable, 0 blocked) from cell values: `walkable`
 * decides for each value and must return a boolean (INVALID_ARGUMENT).
 */
export function readWalkable(width: number, height: number, cells: unknown, walkable: (value: number) => boolean): Uint8Array {
  const out = new Uint8Array(width * height);
  eachCell(width, height, cells, 'cells', (i, value) => {
    const open = walkable(value);
    if (typeof open !== 'boolean') throw invalid(`walkable(${value}) must return a boolean, got ${String(open)}`);
    out[i] = open ? 1 : 0;
  });
  return out;
}

/** Cell costs, each finite (INVALID_NUMBER) and >= 1 (INVALID_ARGUMENT). */
export function readCosts(width: number, height: number, costs: unknown): Float64Array {
  const out = new Float64Array(width * height);
  eachCell(width, height, costs, 'costs', (i, cost) => {
    if (cost < 1) throw invalid(`costs at (${i % width}, ${Math.floor(i / width)}) must be >= 1, got ${cost}`);
    out[i] = cost;
  });
  return out;
}
