// Input checks shared by every component. They run before anything changes
// or crosses into wasm, which is what makes a rejected call leave no trace.
import { SpatialError } from './errors.js';

const MAX_ID = 0x7fffffff;

/** Throws INVALID_ID unless id is an integer in [0, 2^31 - 1]. */
export function checkId(id: number): void {
  if (!Number.isInteger(id) || id < 0 || id > MAX_ID) {
    throw new SpatialError('INVALID_ID', `id must be an integer in [0, 2^31 - 1], got ${String(id)}`);
  }
}

/** Throws INVALID_NUMBER unless value is a finite number. */
export function checkFinite(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SpatialError('INVALID_NUMBER', `${name} must be a finite number, got ${String(value)}`);
  }
}

/** Throws INVALID_NUMBER for non-finite values, NEGATIVE_RANGE for negative ones. */
export function checkRange(name: string, value: number): void {
  checkFinite(name, value);
  if (value < 0) throw new SpatialError('NEGATIVE_RANGE', `${name} must be >= 0, got ${value}`);
}

/** Throws INVALID_NUMBER or INVALID_RECT unless the four bounds form a closed rectangle. */
export function checkRect(minX: number, minY: number, maxX: number, maxY: number): void {
  checkFinite('minX', minX);
  checkFinite('minY', minY);
  checkFinite('maxX', maxX);
  checkFinite('maxY', maxY);
  if (minX > maxX || minY > maxY) {
    throw new SpatialError('INVALID_RECT', `rectangle [${minX}, ${minY}, ${maxX}, ${maxY}] has min > max`);
  }
}

/** Throws INVALID_ARGUMENT unless value is an integer >= 1 (capacities, depths). */
export function checkPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new SpatialError('INVALID_ARGUMENT', `${name} must be an integer >= 1, got ${String(value)}`);
  }
}

/** Throws DISPOSED when the object has been disposed. */
export function checkAlive(disposed: boolean, what: string): void {
  if (disposed) throw new SpatialError('DISPOSED', `${what} was disposed`);
}
