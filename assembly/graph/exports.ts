// The Graph module's exports (the entry of build/graph.wasm). A graph is a
// handle: the address of its Graph record in graph.ts. Structure and edits,
// then read-only accessors, then searches.
export { alloc, realloc, free } from '../memory';

export {
  graphCreate,
  graphDispose,
  graphEnsureVertices,
  graphSetPosition,
  graphPositions,
  graphSetEdge,
  graphRemoveEdge,
  graphClearVertex,
  graphEdgeCount,
  graphReserveLoad,
  graphEdgeFrom,
  graphEdgeTo,
  graphEdgeWeight,
  graphLoadEdges,
  graphLoadListed,
  graphNegativeEdges,
  graphCsrPointers,
} from './graph';
export { graphWeightOf, graphDegree, graphNeighbors, graphNearest } from './accessors';
export {
  graphSpfa,
  graphDijkstra,
  graphStates,
  graphPath,
  graphPathSlots,
  graphPathCost,
} from './search';
