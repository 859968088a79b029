/** Stable codes carried by every {@link SpatialError}. */
export type SpatialErrorCode =
  | 'DUPLICATE_ID'
  | 'UNKNOWN_ID'
  | 'INVALID_ID'
  | 'INVALID_NUMBER'
  | 'INVALID_RECT'
  | 'INVALID_ARGUMENT'
  | 'NEGATIVE_RANGE'
  | 'NEGATIVE_WEIGHT'
  | 'NEGATIVE_CYCLE'
  | 'OUT_OF_GRID'
  | 'NOT_INITIALIZED'
  | 'DISPOSED'
  | 'INVALID_SNAPSHOT'
  | 'LIMIT_EXCEEDED'
  | 'OUT_OF_MEMORY'
  | 'INVALID_LAYOUT'
  | 'OUTSIDE_REGIONS'
  | 'RANGE_TOO_LARGE'
  | 'REGION_TIMEOUT'
  | 'REGION_SUPERSEDED'
  | 'HOOK_FAILED'
  | 'HOOK_LOOP'
  | 'INTERNAL';

/**
 * The one error type spatialkit throws for rejected calls. A call that throws
 * it has changed nothing: the object is exactly as it was before the call.
 * The one exception is HOOK_LOOP, which stops a call of the Colyseus adapter
 * whose hooks keep feeding each other, after the call has been applied.
 */
export class SpatialError extends Error {
  /** Machine-readable reason, stable across versions. */
  readonly code: SpatialErrorCode;

  constructor(code: SpatialErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'SpatialError';
    this.code = code;
  }
}
