// Minimal typings for the peer libraries that ship none (rbush, box-intersect, d3-quadtree).
declare module 'rbush' {
  export interface BBox {
    minX: number;
    minY: number;
    maxX: number;
    maxY: number;
  }
  export default class RBush<T extends BBox> {
    constructor(maxEntries?: number);
    load(items: T[]): this;
    insert(item: T): this;
    remove(item: T): this;
    search(box: BBox): T[];
    clear(): this;
    toJSON(): unknown;
    fromJSON(data: unknown): this;
  }
}

declare module 'box-intersect' {
  type Box = [number, number, number, number];
  export default function boxIntersect(boxes: Box[], visit: (i: number, j: number) => void): void;
}

declare module 'd3-quadtree' {
  export interface QuadtreeLeaf<T> {
    data: T;
    next?: QuadtreeLeaf<T>;
    length?: undefined;
  }
  export type QuadtreeNode<T> = QuadtreeLeaf<T> | Array<QuadtreeNode<T> | undefined>;
  export interface Quadtree<T> {
    x(fn: (d: T) => number): this;
    y(fn: (d: T) => number): this;
    addAll(data: T[]): this;
    extent(extent: [[number, number], [number, number]]): this;
    visit(fn: (node: QuadtreeNode<T>, x0: number, y0: number, x1: number, y1: number) => boolean | void): this;
    /** The datum nearest to (x, y) within radius (default: any), or undefined. */
    find(x: number, y: number, radius?: number): T | undefined;
  }
  export function quadtree<T>(): Quadtree<T>;
}

declare module 'rbush-knn' {
  import type RBush from 'rbush';
  import type { BBox } from 'rbush';
  /** The n items of tree nearest to (x, y), nearest first (all when n is 0). */
  export default function knn<T extends BBox>(tree: RBush<T>, x: number, y: number, n?: number, predicate?: (item: T) => boolean, maxDistance?: number): T[];
}
