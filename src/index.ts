// Public exports of spatialkit.
export { init } from './wasm.js';
export type { Backend } from './wasm.js';
export { SpatialError } from './errors.js';
export type { SpatialErrorCode } from './errors.js';
export { Graph } from './graph.js';
export type { FromEdgesOptions, GraphOptions, Heuristic, PathAlgorithm, PathOptions, PathResult, ShortestPaths, VertexId } from './graph.js';
export { GridMap, MAX_GRID_CELLS } from './grid.js';
export type { GridMapOptions, FindPathOptions, DiagonalRule, GridAlgorithm, GridPath } from './grid.js';
export type { FromArrayOptions, FractionalCoordinates, GridCells } from './grid.js';
export { parseMovingAIScenarios } from './movingai.js';
export type { MovingAIScenario } from './movingai.js';
export { QuadTree } from './quadtree.js';
export type { QuadTreeBounds, QuadTreeOptions, QuadTreeMode, SegmentOptions } from './quadtree.js';
export { Scene } from './scene.js';
export type { AddOptions, AoiEvent, AoiRange, NearestOptions, SceneOptions } from './scene.js';
export type { SceneIndex } from './scene-cores.js';
export type { FromBufferOptions } from './snapshot-bytes.js';
