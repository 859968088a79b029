// The slice of rbush's API the AOI peer uses (rbush ships no types).
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
  }
}
