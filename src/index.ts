// Public exports of spatialkit.
export { init } from './wasm.js';
export type { Backend } from './wasm.js';
export { SpatialError } from './errors.js';
export type { SpatialErrorCode } from './errors.js';
export { Scene } from './scene.js';
export type { AoiEvent, AoiRange, SceneOptions } from './scene.js';
