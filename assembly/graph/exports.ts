// The Graph core's exports: structure and edits, read-only accessors, then searches.
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
