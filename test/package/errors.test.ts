import { describe, expect, it } from 'vitest';
import { SpatialError } from '../../src/index.js';
import { checkFinite, checkId, checkPositiveInteger, checkRange, checkRect } from '../../src/core/validate.js';

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SpatialError);
    expect(error).toBeInstanceOf(Error);
    return (error as SpatialError).code;
  }
  return undefined;
}

describe('SpatialError and input checks', () => {
  it('carries a stable code and names it in the message', () => {
    const error = new SpatialError('UNKNOWN_ID', 'no entity 5');
    expect(error.code).toBe('UNKNOWN_ID');
    expect(error.name).toBe('SpatialError');
    expect(error.message).toContain('UNKNOWN_ID');
  });

  it('rejects ids outside [0, 2^31 - 1] and non-integers', () => {
    expect(codeOf(() => checkId(-1))).toBe('INVALID_ID');
    expect(codeOf(() => checkId(2 ** 31))).toBe('INVALID_ID');
    expect(codeOf(() => checkId(1.5))).toBe('INVALID_ID');
    expect(codeOf(() => checkId(NaN))).toBe('INVALID_ID');
    expect(codeOf(() => checkId(2 ** 31 - 1))).toBeUndefined();
    expect(codeOf(() => checkId(0))).toBeUndefined();
  });

  it('rejects NaN and infinities, negative ranges, inverted rects, bad capacities', () => {
    expect(codeOf(() => checkFinite('x', NaN))).toBe('INVALID_NUMBER');
    expect(codeOf(() => checkFinite('x', -Infinity))).toBe('INVALID_NUMBER');
    expect(codeOf(() => checkRange('range', -0.5))).toBe('NEGATIVE_RANGE');
    expect(codeOf(() => checkRange('range', 0))).toBeUndefined();
    expect(codeOf(() => checkRect(0, 0, -1, 0))).toBe('INVALID_RECT');
    expect(codeOf(() => checkRect(0, 0, 0, 0))).toBeUndefined();
    expect(codeOf(() => checkRect(0, NaN, 1, 1))).toBe('INVALID_NUMBER');
    expect(codeOf(() => checkPositiveInteger('capacity', 0))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => checkPositiveInteger('capacity', 2.5))).toBe('INVALID_ARGUMENT');
  });
});
