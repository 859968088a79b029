// What the page exposes on window.__demo, so an end-to-end test can read
// exactly what is drawn and compare it with the library's own answers.
import type { library } from './library.js';

/** The AOI panel's state, as drawn. */
export interface ScenePanelSnapshot {
  readonly backend: string;
  /** The scene's index: the default, as users get it. */
  readonly index: string;
  readonly ids: number[];
  readonly xs: number[];
  readonly ys: number[];
  /** Square half-extent of each entity's view range. */
  readonly ranges: number[];
  readonly selected: number | null;
  /** Ids highlighted as seen by the selected entity, ascending. */
  readonly seen: number[];
  /** Ids marked as watchers of the selected entity, ascending. */
  readonly watchers: number[];
  /** Lines of the enter / leave log. */
  readonly log: string[];
}

/** The quadtree panel's state, as drawn. */
export interface QuadTreeSnapshot {
  readonly backend: string;
  readonly capacity: number;
  /** Flat [minX, minY, maxX, maxY, ...] per id 0..n-1. */
  readonly rects: number[];
  /** Colliding pairs, flat [a, b, ...] with a < b, sorted by (a, b). */
  readonly pairs: number[];
  /** The query box under the pointer and the ids outlined in it, ascending; null without a pointer. */
  readonly probe: { box: [number, number, number, number]; ids: number[] } | null;
  /** How many cells the last frame outlined. */
  readonly cellsDrawn: number;
  /** Those cells, flat [minX, minY, maxX, maxY, ...]. */
  readonly cells: number[];
}

/** The paths panel's state, as drawn. */
export interface PathsSnapshot {
  readonly backend: string;
  readonly algorithm: string;
  readonly diagonal: string;
  readonly start: [number, number];
  readonly goal: [number, number];
  readonly cost: number | null;
  readonly path: Array<[number, number]> | null;
  /** The cost as the page shows it. */
  readonly costText: string;
}

/** window.__demo */
export interface DemoHook {
  /** The public entry of the library, for answers computed in the page. */
  readonly lib: typeof library;
  /** Panels shown (their component exists in this build). */
  readonly panels: string[];
  /** Components not in this build, whose panels are hidden. */
  readonly missing: string[];
  /** Frames drawn so far. */
  frames: number;
  setPaused(paused: boolean): void;
  scene?: {
    snapshot(): ScenePanelSnapshot;
    /** Where an entity is drawn, in CSS pixels from the canvas' top-left corner. */
    pointOf(id: number): { x: number; y: number };
  };
  quadtree?: {
    snapshot(): QuadTreeSnapshot;
    /** The panel's tree's cells, asked of the tree now (tree.cells()). */
    treeCells(): number[];
  };
  paths?: {
    snapshot(): PathsSnapshot;
    /** The map in Moving AI format. */
    mapText(): string;
    /** The centre of a tile, in CSS pixels from the canvas' top-left corner. */
    pointOf(x: number, y: number): { x: number; y: number };
  };
}

declare global {
  interface Window {
    __demo?: DemoHook;
  }
}
