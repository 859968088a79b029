// Public exports of spatialkit.
export { init } from './wasm.js';
export type { Backend } from './wasm.js';
export { SpatialError } from './errors.js';
export type { SpatialErrorCode } from './errors.js';
export { QuadTree } from './quadtree.js';
export type { QuadTreeBounds, QuadTreeOptions, QuadTreeMode } from './quadtree.js';
