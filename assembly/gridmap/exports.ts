// The GridMap module's exports (the entry of build/gridmap.wasm). A grid is a
// handle: the address of its Grid record (map.ts). A path comes back as a
// block in linear memory (see gridFindPath).
export { alloc, realloc, free } from '../memory';

export { gridCreate, gridDispose } from './gridmap';
export { gridSetWalkable, gridIsWalkable, gridLoadWalkable, gridSetCost, gridLoadCosts, gridGetCost } from './gridmap';
export { gridFindPath } from './gridmap';
