// The keys with which a client claims its player in the room that takes its
// region over after its room's process died: an HMAC of the player's id
// under a secret that every room of the world shares, kept in the presence.
// Any room can check a claim, so a player whose room died before a
// checkpoint named it can still be claimed where its entity was rebuilt.
import type { Presence } from '@colyseus/core';

const SECRET_PREFIX = 'spatialkit:region-secret:';

/** Makes and checks the players' keys of the rooms named roomName. */
export class PlayerKeys {
  private readonly secret: Promise<CryptoKey>;

  constructor(presence: Presence, roomName: string) {
    this.secret = sharedSecret(presence, SECRET_PREFIX + roomName);
  }

  /** The key of player id. */
  async of(id: number): Promise<string> {
    const mac = await crypto.subtle.sign('HMAC', await this.secret, new TextEncoder().encode(String(id)));
    return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  /** True when key is player id's. */
  async check(id: number, key: unknown): Promise<boolean> {
    return typeof key === 'string' && key === (await this.of(id));
  }
}

/** The world's secret: the first room to count itself in the presence writes one, the others read it. */
async function sharedSecret(presence: Presence, key: string): Promise<CryptoKey> {
  if ((await presence.hincrby(key, 'rooms', 1)) === 1) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    await presence.hset(key, 'secret', [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(''));
  }
  let hex = await presence.hget(key, 'secret');
  while (hex === null) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    hex = await presence.hget(key, 'secret');
  }
  const bytes = Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}
