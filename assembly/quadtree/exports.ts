// The QuadTree module's exports (the entry of build/quadtree.wasm). A tree is
// a handle: the address of its Tree record in quadtree.ts. Results are
// written to the tree's output buffer (qtOutput) for one read on the other side.
export { alloc, realloc, free } from '../memory';

export { qtCreate, qtDispose, qtSettings, qtItems, qtLevels, qtBytes, qtCells } from './quadtree';
export { qtInsert, qtUpdate, qtRemove, qtClear, qtInsertMany, qtUpdateMany, qtSetBounds, qtSetCapacity } from './quadtree';
export { qtQuery, qtPairs, qtNearest, qtWithin, qtSegment, qtOutput } from './quadtree';

export * from './batch';
export * from './static';
export { qbIds, qbOffsets } from './results';
