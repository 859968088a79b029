/**
 * The main entry: every concept, and an init() that loads all of their wasm modules.
 *
 * @module spatialkit
 */
export { init } from './init.js';
export * from './scene/index.js';
export * from './quadtree/index.js';
export * from './graph/index.js';
export * from './gridmap/index.js';
