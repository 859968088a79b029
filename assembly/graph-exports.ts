// The Graph core's exports: structure and edits, then searches.
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
  graphNegativeEdges,
  graphCsrPointers,
} from './graph';
export {
  graphSpfa,
  graphDijkstra,
  graphStates,
  graphPath,
  graphPathSlots,
  graphPathCost,
} from './graph-search';
