/**
 * The Graph alone, with an init() that loads only its wasm module.
 *
 * @module spatialkit/graph
 */
import { graphModule } from './wasm.js';

/**
 * Loads and instantiates the Graph's wasm module, the only one a Graph needs.
 * Idempotent: every call after the first, including concurrent ones, shares
 * the same load; a failed load may be retried. `init()` of the main entry
 * loads it too. Objects created with `backend: 'js'` need no init().
 */
export function init(): Promise<void> {
  return graphModule.load();
}

export { SpatialError, type SpatialErrorCode, type Backend, type FromBufferOptions } from '../core/public.js';
export { Graph } from './graph.js';
export type { FromEdgesOptions, GraphOptions, Heuristic, PathAlgorithm, PathOptions, PathResult, ShortestPaths, VertexId } from './graph.js';
