// The main entry's init(): it loads the module of every concept.
import { once } from './core/wasm.js';
import { graphModule } from './graph/wasm.js';
import { gridmapModule } from './gridmap/wasm.js';
import { quadtreeModule } from './quadtree/module.js';
import { sceneModule } from './scene/wasm.js';

const loadAll = once(async () => {
  await Promise.all([sceneModule.load(), quadtreeModule.load(), graphModule.load(), gridmapModule.load()]);
});

/**
 * Loads and instantiates the wasm modules of every concept: Scene, QuadTree,
 * Graph and GridMap. Await it once before creating objects on the default
 * wasm backend, which throw NOT_INITIALIZED before it resolves; objects
 * created with `backend: 'js'` need no init(). Idempotent: every call after the first, including
 * concurrent ones, shares the same load; a failed load may be retried. The
 * entries `spatialkit/scene`, `spatialkit/quadtree`, `spatialkit/graph` and
 * `spatialkit/gridmap` each have an `init()` that loads its own module only.
 *
 * @example
 * ```ts
 * import { init, Scene } from 'spatialkit';
 *
 * await init();                  // once, before the first wasm-backed object
 * new Scene().backend;           // -> 'wasm'
 * new Scene({ backend: 'js' });  // the TypeScript backend needs no init()
 * ```
 */
export function init(): Promise<void> {
  return loadAll();
}
