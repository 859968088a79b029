// The module's exports, nothing else.
export * from './memory';
export * from './probe';
export * from './graph/exports';
export * from './gridmap/exports';
export * from './quadtree/quadtree';
export * from './scene/lists';
export * from './scene/grid';
export * from './quadtree/batch';
export * from './quadtree/static';
export { qbIds, qbOffsets } from './quadtree/results';
