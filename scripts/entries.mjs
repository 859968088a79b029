// The package's entries: each subpath of package.json's "exports" (the main
// entry as "index") and the source file it is built from. The bundle, the
// declaration files, the tests' resolution of 'spatialkit/...' and the
// checks of package.json and typedoc.json all read this one list.
export const ENTRIES = {
  index: 'src/index.ts',
  scene: 'src/scene/index.ts',
  quadtree: 'src/quadtree/index.ts',
  graph: 'src/graph/index.ts',
  gridmap: 'src/gridmap/index.ts',
  regions: 'src/regions/index.ts',
  colyseus: 'src/colyseus/interest/index.ts',
  'colyseus-regions': 'src/colyseus/rooms/index.ts',
  'colyseus-client': 'src/colyseus/client/index.ts',
};
