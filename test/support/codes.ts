import { expect } from 'vitest';
import { SpatialError } from '../../src/index.js';

/** The SpatialError code a call throws, or null when it returns. */
export function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof SpatialError) return error.code;
    throw error;
  }
}

/** The error a call throws; fails the test when it returns or throws anything but a SpatialError. */
export function errorOf(call: () => unknown): SpatialError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(SpatialError);
    return error as SpatialError;
  }
  return expect.fail('expected a SpatialError');
}
