// spatialkit/colyseus-regions: one region of a world cut into regions, as a
// Colyseus room (RegionRoom), with its players, their hand-off to the
// neighbouring room by a seat reservation, and the state and messages its
// clients receive. An entry of its own, apart from spatialkit/colyseus: it
// needs @colyseus/core at run time, which the interest adapter does not.
export { RegionRoom } from './region-room.js';
export type { PlayerSpawn, RegionHook, RegionRoomOptions } from './region-room.js';
export { standByForRegions } from './standby.js';
export type { RegionStandbyRooms, RegionStandbyRoomsOptions } from './standby.js';
export { RegionEntity, RegionState } from './region-state.js';
export { REGION_MESSAGES } from '../region-protocol.js';
export type { RegionFailure, RegionHandoffMessage, RegionInput, RegionWelcome } from '../region-protocol.js';
