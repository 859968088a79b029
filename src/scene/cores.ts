// Which core runs a Scene: the backend (wasm or the TypeScript reference)
// crossed with the index (sorted lists or cell grid).
import { SpatialError } from '../core/errors.js';
import { ListsIndexCore } from './js/lists.js';
import { GridIndexCore } from './js/grid.js';
import type { SceneBackend, SceneIndex } from './backend.js';
import { WasmSceneCore } from './wasm.js';
import { checkFinite } from '../core/validate.js';
import type { Backend } from '../core/wasm.js';

/** Validates the index option, defaulting to 'grid' (faster on every measured world); anything else is INVALID_ARGUMENT. */
export function resolveIndex(index: SceneIndex | undefined): SceneIndex {
  if (index === undefined || index === 'grid') return 'grid';
  if (index === 'lists') return 'lists';
  throw new SpatialError('INVALID_ARGUMENT', `index must be 'lists' or 'grid', got ${String(index)}`);
}

/** Validates the cellSize option (finite, > 0); the default is defaultRange, or 1 when that is 0. */
export function resolveCellSize(cellSize: number | undefined, defaultRange: number): number {
  if (cellSize === undefined) return defaultRange > 0 ? defaultRange : 1;
  checkFinite('cellSize', cellSize);
  if (!(cellSize > 0)) throw new SpatialError('INVALID_ARGUMENT', `cellSize must be > 0, got ${cellSize}`);
  return cellSize;
}

/** The core for a backend and an index. */
export function createSceneCore(backend: Backend, index: SceneIndex, dimensions: 2 | 3, cellSize: number): SceneBackend {
  if (index === 'grid') return backend === 'wasm' ? new WasmSceneCore(dimensions, 'grid', cellSize) : new GridIndexCore(dimensions, cellSize);
  return backend === 'wasm' ? new WasmSceneCore(dimensions) : new ListsIndexCore(dimensions);
}
