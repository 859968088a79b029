// The library as the demo sees it: the public entry, plus the slice of the
// API contract each panel uses. Components are looked up by name at run time,
// so the page builds and runs whichever of them this build of the library
// exports, and a panel whose component is missing is simply not shown.
import * as spatialkit from '../src/index.js';

/** Which implementation backs an object. */
export type Backend = 'wasm' | 'js';

/** The Scene methods the AOI panel calls. */
export interface SceneApi {
  readonly size: number;
  addMany(ids: Int32Array, xs: Float64Array, ys: Float64Array, zs?: Float64Array, ranges?: Float64Array): void;
  moveMany(ids: Int32Array, xs: Float64Array, ys: Float64Array): void;
  query(id: number): number[];
  watchers(id: number): number[];
  queryBox(minX: number, minY: number, maxX: number, maxY: number): number[];
  drainArray(): Int32Array;
  dispose(): void;
}

/** The QuadTree methods the quadtree panel calls. */
export interface QuadTreeApi {
  readonly size: number;
  readonly depth: number;
  insert(id: number, minX: number, minY: number, maxX: number, maxY: number): void;
  update(id: number, minX: number, minY: number, maxX: number, maxY: number): void;
  pairIds(): Int32Array;
  queryIds(minX: number, minY: number, maxX: number, maxY: number): Int32Array;
  setCapacity(capacity: number): void;
  dispose(): void;
}

/** The GridMap methods the paths panel calls. */
export interface GridMapApi {
  setWalkable(x: number, y: number, walkable: boolean): void;
  findPath(
    sx: number,
    sy: number,
    tx: number,
    ty: number,
    options?: { diagonal?: DiagonalRule; algorithm?: GridAlgorithm },
  ): { path: Array<[number, number]>; cost: number } | null;
  dispose?(): void;
}

export type DiagonalRule = 'never' | 'always' | 'no-corner-cutting' | 'one-obstacle';
export type GridAlgorithm = 'astar' | 'jps' | 'dijkstra' | 'spfa';

/** Constructors of the components, as the contract names them. */
export interface Components {
  Scene: new (options: { backend?: Backend; defaultRange?: number }) => SceneApi;
  QuadTree: new (options: {
    bounds: { minX: number; minY: number; maxX: number; maxY: number };
    capacity?: number;
    backend?: Backend;
  }) => QuadTreeApi;
  GridMap: new (width: number, height: number, options?: { backend?: Backend }) => GridMapApi;
}

/** The whole public entry, for code that computes its own answer in the page. */
export const library = spatialkit;

/** The constructor of a component, or undefined when this build lacks it. */
export function component<K extends keyof Components>(name: K): Components[K] | undefined {
  const value = (spatialkit as Record<string, unknown>)[name];
  return typeof value === 'function' ? (value as Components[K]) : undefined;
}
