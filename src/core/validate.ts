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

/** Throws INVALID_NUMBER unless ms is a number of milliseconds >= 0 (above 0 when `positive`), finite unless `forever` allows Infinity. */
export function checkMilliseconds(name: string, ms: number, { positive = false, forever = false } = {}): void {
  if (typeof ms === 'number' && (positive ? ms > 0 : ms >= 0) && (Number.isFinite(ms) || forever)) return;
  throw new SpatialError('INVALID_NUMBER', `${name} must be a ${forever ? '' : 'finite '}number of milliseconds ${positive ? 'above 0' : '>= 0'}, got ${shown(ms)}`);
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
  return typedKind.call(values) !== undefined && isDetachedBuffer(typedBuffer.call(values as ArrayBufferView));
}

// ---- batch input: copied once, then checked --------------------------------
//
// A batch reads the caller's array exactly once, into a typed array of its
// own, and every check and the core read that copy. An array whose entries
// change between reads (a getter, a Proxy, a typed array another thread
// writes) then cannot pass a check with one value and reach the core with
// another.

const typedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype) as object;
/** A getter of every typed array, called on the object itself: reads its internal slots, which no own property or Proxy can stand in for. */
const typedGetter = (key: PropertyKey) => Object.getOwnPropertyDescriptor(typedArrayPrototype, key)!.get! as (this: unknown) => unknown;
/** A typed array's kind ('Float64Array', ...); undefined for anything else, a Proxy of one included. */
const typedKind = typedGetter(Symbol.toStringTag) as (this: unknown) => string | undefined;
const typedLength = typedGetter('length') as (this: ArrayBufferView) => number;
const typedBuffer = typedGetter('buffer') as (this: ArrayBufferView) => ArrayBufferLike;

/** Batches up to this many entries are copied into arrays kept for the next batch; larger ones into fresh arrays, so a rare huge batch holds no memory after it. */
const KEPT_ENTRIES = 1 << 20;

/**
 * Room one role of a batch (its ids, its xs, ...) copies into, kept from
 * call to call so that a tick's batch allocates nothing. A copy is a view
 * of it, valid until the next copy into the same room: a call copies each
 * of its arrays into a room of its own, and the cores read the copies
 * during the call only.
 */
export class CopyRoom {
  private numbers = new Float64Array(0);
  private ids = new Int32Array(0);

  /** n entries for numbers. */
  f64(n: number): Float64Array {
    if (n > KEPT_ENTRIES) return new Float64Array(n);
    if (this.numbers.length < n) this.numbers = new Float64Array(Math.min(KEPT_ENTRIES, Math.max(n, this.numbers.length * 2)));
    return this.numbers.subarray(0, n);
  }

  /** n entries for ids. */
  i32(n: number): Int32Array {
    if (n > KEPT_ENTRIES) return new Int32Array(n);
    if (this.ids.length < n) this.ids = new Int32Array(Math.min(KEPT_ENTRIES, Math.max(n, this.ids.length * 2)));
    return this.ids.subarray(0, n);
  }
}

/**
 * How many user arrays are being read right now. Reading one may run the
 * user's code (a getter, a Proxy), which may start another batch; a copy
 * begun then goes into fresh arrays, so the rooms the outer call has
 * filled stay as they were.
 */
let readingUserArrays = 0;

/** n entries for numbers: of room, unless none was given or this copy began while a user array was being read. */
function numbersFor(n: number, room: CopyRoom | undefined, nested: boolean): Float64Array {
  return room === undefined || nested ? new Float64Array(n) : room.f64(n);
}

/** n entries for ids, as {@link numbersFor}. */
function idsFor(n: number, room: CopyRoom | undefined, nested: boolean): Int32Array {
  return room === undefined || nested ? new Int32Array(n) : room.i32(n);
}

/** What `read` returns, given whether this read began inside the read of another user array; counted as one meanwhile. */
function readingUser<T>(read: (nested: boolean) => T): T {
  const nested = readingUserArrays > 0;
  readingUserArrays++;
  try {
    return read(nested);
  } finally {
    readingUserArrays--;
  }
}

/** The length of values when it is a typed array of numbers (not BigInts), else -1; INVALID_ARGUMENT when detached or of another length than `length`. */
function typedCount(name: string, values: unknown, length: number | undefined): number {
  const kind = typedKind.call(values);
  if (kind === undefined || kind.startsWith('Big')) return -1;
  if (isDetached(values)) throw new SpatialError('INVALID_ARGUMENT', `${name} is a typed array whose buffer was detached (transferred)`);
  const count = typedLength.call(values as ArrayBufferView);
  if (length !== undefined && count !== length) throw new SpatialError('INVALID_ARGUMENT', `${name} must have ${length} entries, got ${count}`);
  return count;
}

/** Whether a buffer was detached (transferred away): it then reads as empty and no view of it can be made. */
function isDetachedBuffer(buffer: ArrayBufferLike): boolean {
  if (buffer.byteLength !== 0) return false;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/** How the entries of a batch of numbers must relate, beyond being finite. */
export type NumberRule =
  /** Finite, nothing more. */
  | 'finite'
  /** Flat boxes [minX, minY, maxX, maxY, ...]: a multiple of four entries, each box a valid rect (INVALID_RECT). */
  | 'boxes'
  /** Ranges and radii: each >= 0 (NEGATIVE_RANGE). */
  | 'ranges';

/**
 * The entries of values (an array, a typed array or an array-like), each
 * read once, in a Float64Array of `room` (or a fresh one); the checks run on
 * that copy. Throws INVALID_ARGUMENT for something else, a detached typed
 * array or a length other than `length` (when given); INVALID_NUMBER for an
 * entry that is not a finite number; then as `rule` says.
 */
export function copyNumbers(name: string, values: unknown, length?: number, rule: NumberRule = 'finite', room?: CopyRoom): Float64Array {
  const typed = typedCount(name, values, length);
  let copy: Float64Array;
  if (typed >= 0) {
    copy = numbersFor(typed, room, readingUserArrays > 0);
    copy.set(values as ArrayLike<number>); // every number a typed array holds fits a double exactly
  } else {
    copy = readingUser((nested) => {
      const count = checkArrayLike(name, values, length);
      const entries = values as ArrayLike<unknown>;
      const out = numbersFor(count, room, nested);
      for (let i = 0; i < count; i++) {
        const v = entries[i];
        if (typeof v !== 'number') throw new SpatialError('INVALID_NUMBER', `${name}[${i}] must be a finite number, got ${described(v)}`);
        out[i] = v;
      }
      return out;
    });
  }
  const count = copy.length;
  if (rule === 'boxes') checkBoxes(name, copy);
  else {
    if (!allFinite(copy)) for (let i = 0; i < count; i++) checkFinite(`${name}[${i}]`, copy[i]);
    if (rule === 'ranges') for (let i = 0; i < count; i++) if (copy[i] < 0) checkRange(`${name}[${i}]`, copy[i]);
  }
  return copy;
}

/** Whether every entry is finite: x * 0 is 0 for a finite x and NaN otherwise, summed on four lanes that do not wait for each other. */
function allFinite(values: Float64Array): boolean {
  let a = 0, b = 0, c = 0, d = 0, i = 0;
  for (; i + 4 <= values.length; i += 4) {
    a += values[i] * 0;
    b += values[i + 1] * 0;
    c += values[i + 2] * 0;
    d += values[i + 3] * 0;
  }
  for (; i < values.length; i++) a += values[i] * 0;
  return a + b + c + d === 0;
}

/** Throws INVALID_ARGUMENT unless flat holds whole boxes, then INVALID_NUMBER or INVALID_RECT for the first bad one (one pass when all are good). */
function checkBoxes(name: string, flat: Float64Array): void {
  if (flat.length % 4 !== 0) throw new SpatialError('INVALID_ARGUMENT', `${name} must hold four numbers per box, got ${flat.length}`);
  let zero = 0, ordered = true;
  for (let i = 0; i < flat.length; i += 4) {
    const x0 = flat[i], y0 = flat[i + 1], x1 = flat[i + 2], y1 = flat[i + 3];
    zero += x0 * 0 + y0 * 0 + x1 * 0 + y1 * 0;
    ordered = ordered && x0 <= x1 && y0 <= y1;
  }
  if (zero !== 0 || !ordered) for (let i = 0; i < flat.length; i += 4) checkRect(flat[i], flat[i + 1], flat[i + 2], flat[i + 3]);
}

/**
 * The ids in values (an array, a typed array or an array-like), each read
 * once, in an Int32Array of `room` (or a fresh one); the checks run on that
 * copy. Throws as {@link copyNumbers} for the array itself, INVALID_ID for
 * an entry that is not an integer in [0, 2^31 - 1].
 */
export function copyIds(name: string, values: unknown, length?: number, room?: CopyRoom): Int32Array {
  const typed = typedCount(name, values, length);
  if (typed < 0) {
    return readingUser((nested) => {
      const count = checkArrayLike(name, values, length);
      const entries = values as ArrayLike<unknown>;
      const out = idsFor(count, room, nested);
      for (let i = 0; i < count; i++) out[i] = anId(name, entries[i], i);
      return out;
    });
  }
  const copy = idsFor(typed, room, readingUserArrays > 0);
  if (typedKind.call(values) === 'Int32Array') {
    copy.set(values as Int32Array);
    // Int32Array entries are integers below 2^31: only the sign can be wrong.
    let signs = 0;
    for (let i = 0; i < typed; i++) signs |= copy[i];
    if (signs < 0) for (let i = 0; i < typed; i++) checkId(copy[i]);
    return copy;
  }
  // Another typed array is copied into doubles, which hold its every entry exactly, and checked there.
  const numbers = new Float64Array(typed);
  numbers.set(values as ArrayLike<number>);
  for (let i = 0; i < typed; i++) copy[i] = anId(name, numbers[i], i);
  return copy;
}

/** The id entry i of `name` holds: INVALID_ID unless it is an integer in [0, 2^31 - 1]. */
function anId(name: string, id: unknown, i: number): number {
  if (typeof id !== 'number') throw new SpatialError('INVALID_ID', `${name}[${i}] must be an id, got ${described(id)}`);
  if ((id | 0) !== id || id < 0) checkId(id);
  return id;
}

/** A value as an error message names it, without calling anything of its own (an object's toString may throw). */
function described(value: unknown): string {
  return typeof value === 'object' || typeof value === 'function' ? (value === null ? 'null' : `a ${typeof value}`) : shown(value);
}
