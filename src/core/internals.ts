// The test hooks, exported from no package entry, so users never meet them.
//
// A facade's [CORE] is the object that runs its algorithm (a js core, or the
// wasm adapter), for the few tests that check a decision no public call
// shows: how the lists index cuts its bands, the grid index's cell side, how
// often a visit crosses into the core.
//
// LIMITS is the set of size limits in force (docs/limits.md): a test lowers
// one, say `LIMITS.graphVertices = 100`, to reach it with small data, and
// puts DEFAULT_LIMITS back afterwards. A structure reads its limits when it
// is created (a Scene's entities) or when it is asked to grow.
export const CORE: unique symbol = Symbol('spatialkit core');
export { limits as LIMITS, DEFAULT_LIMITS } from './limits.js';
