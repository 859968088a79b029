// The test hook. A facade's [CORE] is the object that runs its algorithm (a
// js core, or the wasm adapter), for the few tests that check a decision no
// public call shows: how the lists index cuts its bands, the grid index's cell
// side, how often a visit crosses into the core. The symbol is not exported
// from any package entry, so users never meet it.
export const CORE: unique symbol = Symbol('spatialkit core');
