// The ids of every player in a world of region rooms, kept in the presence
// that all of the world's processes share (Redis, across processes), so that
// one id is one player in the whole world, whichever room a client joins.
//
//   <prefix>            hash: id -> claims made on it (1 for its holder)
//   <prefix>:<region>   hash: id -> 1 for each id that region's room holds
//
// A claim increments the id's count: the claim that makes it 1 wins, and
// of two joins with one id at once exactly one does (Redis runs each
// increment alone). A release deletes the id whatever its count, so a
// claim that lost leaves nothing behind once the holder is gone.
import type { Presence } from '@colyseus/core';

/** The players' ids of one world (its rooms' name), held by region. */
export class WorldIds {
  private readonly all: string;

  constructor(
    private readonly presence: Presence,
    world: string,
  ) {
    this.all = `spatialkit:region-ids:${world}`;
  }

  /** Claims id for a player of region; false when the id is held anywhere in the world. */
  async claim(id: number, region: number): Promise<boolean> {
    if ((await this.presence.hincrby(this.all, String(id), 1)) !== 1) return false;
    await this.presence.hset(this.of(region), String(id), '1');
    return true;
  }

  /** Frees id: its player has left the world. */
  async release(id: number, region: number): Promise<void> {
    await this.presence.hdel(this.of(region), String(id));
    await this.presence.hdel(this.all, String(id));
  }

  /** Records that id's player now lives in region `to`. */
  async transfer(id: number, from: number, to: number): Promise<void> {
    await this.presence.hset(this.of(to), String(id), '1');
    await this.presence.hdel(this.of(from), String(id));
  }

  /** Frees every id region held: the region is lost, with its players. */
  async releaseRegion(region: number): Promise<void> {
    const held = Object.keys((await this.presence.hgetall(this.of(region))) ?? {});
    for (const id of held) await this.presence.hdel(this.all, id);
    this.presence.del(this.of(region));
  }

  private of(region: number): string {
    return `${this.all}:${region}`;
  }
}
