// spatialkit/colyseus-client: what a browser (or any @colyseus/sdk client)
// needs to play in a world of region rooms, with no server code: the
// RegionClient that follows its player from room to room, and the messages
// and state the rooms send.
export { RegionClient } from './region-client.js';
export type { RegionClientOptions, RegionSdkClient, RegionSdkRoom, RegionView, SeenEntity } from './region-client.js';
export { REGION_MESSAGES } from '../region-protocol.js';
export type { RegionFailure, RegionHandoffMessage, RegionInput, RegionWelcome } from '../region-protocol.js';
