// Input checks shared by every component. They run before anything changes
// or crosses into wasm, which is what makes a rejected call leave no trace.
import { closestName } from './closest-name.js';
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
    throw new SpatialError('INVALID_NUMBER', `${name} must be a finite number, got ${shown(value)}`);
  }
}

/** A value as an error message shows it: strings quoted and BigInts marked, so '5' and 5n do not read as the number 5. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  return String(value);
}

/** Throws INVALID_NUMBER for non-finite values, NEGATIVE_RANGE for negative ones. */
export function checkRange(name: string, value: number): void {
  checkFinite(name, value);
  if (value < 0) throw new SpatialError('NEGATIVE_RANGE', `${name} must be >= 0, got ${value}`);
}

/**
 * Throws INVALID_NUMBER or INVALID_RECT unless the four bounds form a closed
 * rectangle. The message names the argument order, since other libraries
 * take x, y, width, height where spatialkit takes two corners.
 */
export function checkRect(minX: number, minY: number, maxX: number, maxY: number): void {
  checkFinite('minX', minX);
  checkFinite('minY', minY);
  checkFinite('maxX', maxX);
  checkFinite('maxY', maxY);
  if (minX > maxX || minY > maxY) {
    const inverted = [minX > maxX ? `minX ${minX} > maxX ${maxX}` : '', minY > maxY ? `minY ${minY} > maxY ${maxY}` : ''].filter(Boolean).join(' and ');
    const sized = maxX >= 0 && maxY >= 0 ? `; a ${maxX} x ${maxY} rectangle at (${minX}, ${minY}) is ${minX}, ${minY}, ${minX + maxX}, ${minY + maxY}` : '';
    throw new SpatialError(
      'INVALID_RECT',
      `${inverted}: a rectangle is given by two corners, minX, minY, maxX, maxY, not by x, y, width, height${sized}`,
    );
  }
}

/** Throws INVALID_ARGUMENT unless value is an integer >= 1 (capacities, depths). */
export function checkPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new SpatialError('INVALID_ARGUMENT', `${name} must be an integer >= 1, got ${String(value)}`);
  }
}

/** Throws INVALID_ARGUMENT unless value is an integer >= 0 (how many results a nearest search returns). */
export function checkCount(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new SpatialError('INVALID_ARGUMENT', `${name} must be an integer >= 0, got ${String(value)}`);
  }
}

/** Throws INVALID_NUMBER for a non-number or NaN maxDistance, NEGATIVE_RANGE for a negative one; Infinity is allowed. */
export function checkMaxDistance(maxDistance: number): void {
  if (typeof maxDistance !== 'number' || Number.isNaN(maxDistance)) {
    throw new SpatialError('INVALID_NUMBER', `maxDistance must be a number, got ${String(maxDistance)}`);
  }
  if (maxDistance < 0) throw new SpatialError('NEGATIVE_RANGE', `maxDistance must be >= 0, got ${maxDistance}`);
}

/** Throws INVALID_ARGUMENT unless mask is a 32-bit integer (signed or unsigned); returns it as a signed one. */
export function checkMask(name: string, mask: number): number {
  if (typeof mask !== 'number' || !Number.isInteger(mask) || mask < -0x80000000 || mask > 0xffffffff) {
    throw new SpatialError('INVALID_ARGUMENT', `${name} must be a 32-bit integer mask, got ${String(mask)}`);
  }
  return mask | 0;
}

/** Throws INVALID_ARGUMENT unless value is true or false. */
export function checkBoolean(name: string, value: unknown): void {
  if (typeof value !== 'boolean') throw new SpatialError('INVALID_ARGUMENT', `${name} must be true or false, got ${shown(value)}`);
}

/** Throws DISPOSED when the object has been disposed. */
export function checkAlive(disposed: boolean, what: string): void {
  if (disposed) throw new SpatialError('DISPOSED', `${what} was disposed`);
}

/** True for an object literal or Object.create(null) (from any realm): not an array, class instance or function. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Throws INVALID_ARGUMENT unless options is undefined or a plain object whose
 * own keys are all in allowedKeys. The message names the first unknown key
 * and the valid key it most likely meant: `aliases` maps names other
 * libraries use for the same setting to it, otherwise the closest by spelling.
 */
export function checkOptions(
  where: string,
  options: unknown,
  allowedKeys: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): void {
  if (options === undefined) return;
  if (!isPlainObject(options)) {
    const got = options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options;
    throw new SpatialError('INVALID_ARGUMENT', `${where}: options must be a plain object, got ${got}`);
  }
  for (const key of Object.keys(options)) {
    if (allowedKeys.includes(key)) continue;
    const meant = Object.prototype.hasOwnProperty.call(aliases, key) ? aliases[key] : closestName(key, allowedKeys);
    const hint = meant === undefined ? '' : ` (did you mean '${meant}'?)`;
    throw new SpatialError(
      'INVALID_ARGUMENT',
      `${where}: unknown option '${key}'${hint}; valid options: ${allowedKeys.join(', ')}`,
    );
  }
}

/**
 * Throws INVALID_ARGUMENT unless values is an array-like (an array, a typed
 * array, or an object with an integer length >= 0), with exactly `length`
 * entries when given; returns its length.
 */
export function checkArrayLike(name: string, values: unknown, length?: number): number {
  if (isDetached(values)) throw new SpatialError('INVALID_ARGUMENT', `${name} is a typed array whose buffer was detached (transferred)`);
  const count = typeof values === 'object' && values !== null ? (values as { length?: unknown }).length : undefined;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
    throw new SpatialError('INVALID_ARGUMENT', `${name} must be an array or a typed array of numbers`);
  }
  if (length !== undefined && count !== length) {
    throw new SpatialError('INVALID_ARGUMENT', `${name} must have ${length} entries, got ${count}`);
  }
  return count;
}

/** Whether values is a typed array over a detached buffer (one transferred away), which reads as empty. */
function isDetached(values: unknown): boolean {
  if (!ArrayBuffer.isView(values) || values.buffer.byteLength !== 0) return false;
  try {
    new Uint8Array(values.buffer);
    return false;
  } catch {
    return true;
  }
}

/**
 * Throws as {@link checkArrayLike}, then INVALID_NUMBER unless every entry of
 * values is a finite number (a hole or a non-number is not); returns the length.
 */
export function checkNumbers(name: string, values: unknown, length?: number): number {
  const count = checkArrayLike(name, values, length);
  const entries = values as ArrayLike<unknown>;
  for (let i = 0; i < count; i++) {
    if (!Number.isFinite(entries[i])) {
      throw new SpatialError('INVALID_NUMBER', `${name}[${i}] must be a finite number, got ${String(entries[i])}`);
    }
  }
  return count;
}

/** Throws INVALID_ID unless every entry of values is an id (see {@link checkId}). */
export function checkIdEntries(values: ArrayLike<number>): void {
  if (values instanceof Int32Array) {
    // Int32Array entries are integers below 2^31: only the sign can be wrong.
    let signs = 0;
    for (let i = 0; i < values.length; i++) signs |= values[i];
    if (signs >= 0) return;
  }
  for (let i = 0; i < values.length; i++) checkId(values[i]);
}

/** values as a Float64Array: itself when it is one, else a copy. For entries already checked to be numbers. */
export function asFloat64Array(values: ArrayLike<number>): Float64Array {
  return values instanceof Float64Array ? values : Float64Array.from(values);
}

/** values as an Int32Array: itself when it is one, else a copy. For entries already checked to be ids. */
export function asInt32Array(values: ArrayLike<number>): Int32Array {
  return values instanceof Int32Array ? values : Int32Array.from(values);
}
