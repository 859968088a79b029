/**
 * The QuadTree alone, with an init() that loads only its wasm module.
 *
 * @module spatialkit/quadtree
 */
import { quadtreeModule } from './module.js';

/**
 * Loads and instantiates the QuadTree's wasm module, the only one a QuadTree
 * needs. Idempotent: every call after the first, including concurrent ones,
 * shares the same load; a failed load may be retried. `init()` of the main
 * entry loads it too. Objects created with `backend: 'js'` need no init().
 */
export function init(): Promise<void> {
  return quadtreeModule.load();
}

export { SpatialError, type SpatialErrorCode, type Backend, type FromBufferOptions } from '../core/public.js';
export { QuadTree } from './quadtree.js';
export type { QuadTreeBounds, QuadTreeOptions, QuadTreeMode, SegmentOptions } from './quadtree.js';
export { StaticQuadTree } from './static.js';
export type { StaticQuadTreeOptions } from './static.js';
export type { QueryResults, NearestManyOptions } from './batch.js';
