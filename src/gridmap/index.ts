/**
 * The GridMap alone, with an init() that loads only its wasm module.
 *
 * @module spatialkit/gridmap
 */
import { gridmapModule } from './wasm.js';

/**
 * Loads and instantiates the GridMap's wasm module, the only one a GridMap
 * needs. Idempotent: every call after the first, including concurrent ones,
 * shares the same load; a failed load may be retried. `init()` of the main
 * entry loads it too. Objects created with `backend: 'js'` need no init().
 */
export function init(): Promise<void> {
  return gridmapModule.load();
}

export { SpatialError, type SpatialErrorCode, type Backend, type FromBufferOptions } from '../core/public.js';
export { GridMap, MAX_GRID_CELLS } from './gridmap.js';
export type { GridMapOptions, FindPathOptions, DiagonalRule, GridAlgorithm, GridPath } from './gridmap.js';
export type { FromArrayOptions, FractionalCoordinates, GridCells } from './gridmap.js';
export { parseMovingAIScenarios } from './movingai.js';
export type { MovingAIScenario } from './movingai.js';
