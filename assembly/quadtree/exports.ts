// The QuadTree module's exports (the entry of build/quadtree.wasm). A tree is
// a handle: the address of its Tree record in quadtree.ts. Results are
// written to the tree's output buffer (qtOutput) for one read on the other side.
// The tree's calls, then the batch searches with their shared results
// (results.ts), then the static tree's (static.ts: a block's address).
export { alloc, realloc, free } from '../memory';

export { qtCreate, qtDispose, qtSettings, qtItems, qtLevels, qtBytes, qtCells } from './quadtree';
export { qtInsert, qtUpdate, qtRemove, qtClear, qtInsertMany, qtUpdateMany, qtSetBounds, qtSetCapacity } from './quadtree';
export { qtQuery, qtPairs, qtNearest, qtWithin, qtSegment, qtOutput } from './quadtree';

export { qbIds, qbOffsets } from './results';
export { qtQueryMany, qtWithinMany, qtNearestMany } from './batch';
export { sqtBuild, sqtVerify, sqtFree } from './static';
export { sqtQuery, sqtWithin, sqtNearest, sqtQueryMany, sqtWithinMany, sqtNearestMany } from './static';
