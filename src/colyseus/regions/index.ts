// Regions as Colyseus rooms: a room per region, their messages over Redis.
export { RegionRoom } from './region-room.js';
export type { RegionRoomOptions } from './region-room.js';
export { RedisRegionBus } from './redis-bus.js';
export type { RedisConnection } from './redis-bus.js';
