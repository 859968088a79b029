// Grid steps shared by the reference searches: diagonal rule codes, the step
// and distance measures, and which neighbours a cell may step to. The same
// definitions as assembly/gridmap/map.ts.

export const SQRT2 = Math.SQRT2;
/** Ties on f are broken toward the larger g: the key is f - g * TIE (2^-36, as in the core). */
export const TIE = 1 / 68719476736;
export const NEVER = 0;
export const ALWAYS = 1;
export const NO_CORNER_CUTTING = 2;
export const ONE_OBSTACLE = 3;

/** Octile distance (or manhattan when diagonal steps are not allowed). */
export function distance(dx: number, dy: number, diagonal: number): number {
  dx = Math.abs(dx);
  dy = Math.abs(dy);
  if (diagonal === NEVER) return dx + dy;
  const lo = Math.min(dx, dy);
  return Math.max(dx, dy) - lo + SQRT2 * lo;
}

/** Whether a diagonal step is allowed, given which of its two orthogonal neighbours are walkable. */
export function diagonalAllowed(first: boolean, second: boolean, diagonal: number): boolean {
  if (diagonal === NO_CORNER_CUTTING) return first && second;
  if (diagonal === ONE_OBSTACLE) return first || second;
  return true;
}

/**
 * The k-th neighbour of a cell, in the order N, S, W, E, NW, NE, SW, SE, when
 * the rule allows the step there; else -1. `north` .. `east` say which
 * orthogonal neighbours are walkable. A step to neighbour k has length 1
 * (k < 4) or sqrt 2.
 */
export function neighbour(
  walk: Uint8Array, stride: number, cell: number, k: number,
  north: boolean, south: boolean, west: boolean, east: boolean, diagonal: number,
): number {
  if (k === 0) return north ? cell - stride : -1;
  if (k === 1) return south ? cell + stride : -1;
  if (k === 2) return west ? cell - 1 : -1;
  if (k === 3) return east ? cell + 1 : -1;
  if (diagonal === NEVER) return -1;
  const next = cell + (k < 6 ? -stride : stride) + ((k & 1) === 0 ? -1 : 1);
  return walk[next] !== 0 && diagonalAllowed(k < 6 ? north : south, (k & 1) === 0 ? west : east, diagonal) ? next : -1;
}
