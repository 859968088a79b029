// Public exports of spatialkit/regions: a world cut into rectangular regions,
// each simulated on its own with ghosts of its neighbours' entities, whose
// events agree with a single Scene of the whole world.
export { RegionLayout } from './layout.js';
export type { RegionLayoutOptions, RegionRect, WorldBounds } from './layout.js';
export { Region } from './region.js';
export type { RegionOptions } from './region.js';
export { RegionWorld } from './world.js';
export { decodeGhostBatch, decodeHandoffs, encodeGhostBatch, encodeHandoffs } from './codec.js';
export type { RegionWorldOptions, TickTraffic } from './world.js';
export type { EntityOp, EntityState, GhostBatch, GhostEntity, GhostOp, GhostRecord, Handoff } from './messages.js';
export { RegionPeer } from './peer.js';
export type { PeerTick, RegionBus, RegionPeerOptions } from './peer.js';
export { RegionStandby } from './standby.js';
export type { RegionStandbyOptions } from './standby.js';
export type { RegionStore, SavedRegion, TakeoverOptions } from './store.js';
export type { CheckpointEntity, CheckpointGhost, RegionCheckpoint } from './checkpoint.js';
export { RedisRegionBus } from './redis-bus.js';
export type { RedisConnection } from './redis-bus.js';
