// What every entry of the package exports beside its concepts: the error
// type, its codes, and the option types all concepts share.
export { SpatialError } from './errors.js';
export type { SpatialErrorCode } from './errors.js';
export type { Backend } from './wasm.js';
export type { FromBufferOptions } from './snapshot-bytes.js';
