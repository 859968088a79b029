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
