/**
 * The Scene alone, with an init() that loads only its wasm module.
 *
 * @module spatialkit/scene
 */
import { sceneModule } from './wasm.js';

/**
 * Loads and instantiates the Scene's wasm module, the only one a Scene needs.
 * Idempotent: every call after the first, including concurrent ones, shares
 * the same load; a failed load may be retried. `init()` of the main entry
 * loads it too. Objects created with `backend: 'js'` need no init().
 */
export function init(): Promise<void> {
  return sceneModule.load();
}

export { SpatialError, type SpatialErrorCode, type Backend, type FromBufferOptions } from '../core/public.js';
export { Scene } from './scene.js';
export type { AddOptions, AoiEvent, AoiRange, NearestOptions, SceneNearestManyOptions, SceneOptions, SetRangeOptions } from './scene.js';
export type { QueryResults } from '../core/batch-results.js';
export type { SceneEventMode } from './scene.js';
export { ENTER, LEAVE, MOVE } from './event-codes.js';
export type { GroupedEvents } from './grouped.js';
export type { SceneIndex } from './backend.js';
