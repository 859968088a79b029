// Public exports of spatialkit: every concept, and an init() that loads all
// of their wasm modules. Each concept's own entry (src/<concept>/index.ts,
// the package's subpaths) lists its public names.
export { init } from './init.js';
export * from './scene/index.js';
export * from './quadtree/index.js';
export * from './graph/index.js';
export * from './gridmap/index.js';
