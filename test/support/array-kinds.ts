// The shapes a user may hand a batch method, for tests that check each gives
// the same result as Int32Array ids and Float64Array numbers.

/** An object with a length and indexed entries, but no array methods. */
function arrayLike(values: number[]): ArrayLike<number> {
  return Object.assign({ length: values.length }, values);
}

/** Converters for ids (integers >= 0) and for numbers (small integers, exact in every kind), one pair per shape. */
export const ARRAY_KINDS: Array<[string, (ids: number[]) => ArrayLike<number>, (numbers: number[]) => ArrayLike<number>]> = [
  ['plain arrays', (v) => v, (v) => v],
  ['Uint16Array ids, Float32Array numbers', (v) => Uint16Array.from(v), (v) => Float32Array.from(v)],
  ['Float64Array ids, Int16Array numbers', (v) => Float64Array.from(v), (v) => Int16Array.from(v)],
  ['array-like objects', arrayLike, arrayLike],
];
