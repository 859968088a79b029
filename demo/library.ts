// The library as the demo sees it: the public entry. Components are looked up
// by name at run time, so the page runs whichever of them a build of the
// library exports, and a panel whose component is missing is simply not shown.
import * as spatialkit from '../src/index.js';
import type { GridMap, QuadTree, Scene } from '../src/index.js';

export type { Backend, DiagonalRule, GridAlgorithm } from '../src/index.js';
export type SceneApi = Scene;
export type QuadTreeApi = QuadTree;
export type GridMapApi = GridMap;

/** Constructors of the components the panels show. */
export interface Components {
  Scene: typeof Scene;
  QuadTree: typeof QuadTree;
  GridMap: typeof GridMap;
}

/** The whole public entry, for code that computes its own answer in the page. */
export const library = spatialkit;

/** The constructor of a component, or undefined when this build lacks it. */
export function component<K extends keyof Components>(name: K): Components[K] | undefined {
  const value = (spatialkit as Record<string, unknown>)[name];
  return typeof value === 'function' ? (value as Components[K]) : undefined;
}
