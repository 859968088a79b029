// The module's exports, nothing else.
export * from './memory';
export * from './probe';
export * from './graph-exports';
export * from './grid';
export * from './quadtree';
export * from './aoi';
export * from './aoi-grid';
