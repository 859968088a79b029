// A RegionBus over Redis pub/sub: one channel per region and one every
// region listens to, binary messages both ways. The connections are the
// caller's (ioredis, or anything with the same three methods), so this
// package imports no Redis client of its own.
import type { RegionBus } from './peer.js';

/** What the bus needs of a Redis connection; an ioredis `Redis` has it. */
export interface RedisConnection {
  /** PUBLISH, called with the message as a Node Buffer (typed `never` here so that no Node types are needed to name it). */
  publish(channel: string, message: never): Promise<unknown>;
  /** SUBSCRIBE. */
  subscribe(...channels: string[]): Promise<unknown>;
  /** ioredis emits 'messageBuffer' with the channel and the message as bytes. */
  on(event: 'messageBuffer', listener: (channel: Uint8Array, message: Uint8Array) => void): unknown;
  /** Closes the connection. */
  quit(): Promise<unknown>;
}

/**
 * Region messages over Redis: `prefix:region:<id>` for one region,
 * `prefix:all` for every region. A connection in subscriber mode cannot
 * publish, so the bus takes two: one to publish on, one to subscribe with.
 */
export class RedisRegionBus implements RegionBus {
  /** Bytes published so far, Redis channel names and framing excluded. */
  bytesPublished = 0;

  /** A bus publishing on pub and listening on sub, under the channel prefix (default 'spatialkit:regions'). */
  constructor(
    private readonly pub: RedisConnection,
    private readonly sub: RedisConnection,
    private readonly prefix = 'spatialkit:regions',
  ) {}

  /** Publishes bytes to region `to`'s channel, or to the channel every region listens to. */
  publish(to: number | 'all', bytes: Uint8Array): void {
    this.bytesPublished += bytes.byteLength;
    void this.pub.publish(this.channel(to), nodeBuffer(bytes) as never).catch(() => {
      // A lost publish shows as a region missing a barrier: the peer's timeout reports it.
    });
  }

  /** Subscribes to region id's channel and the common one. */
  async subscribe(id: number, handler: (bytes: Uint8Array) => void): Promise<void> {
    const mine = new Set([this.channel(id), this.channel('all')]);
    const decoder = new TextDecoder();
    this.sub.on('messageBuffer', (channel, message) => {
      if (mine.has(decoder.decode(channel))) handler(message);
    });
    await this.sub.subscribe(...mine);
  }

  /** Closes both connections. */
  async close(): Promise<void> {
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }

  private channel(to: number | 'all'): string {
    return to === 'all' ? `${this.prefix}:all` : `${this.prefix}:region:${to}`;
  }
}

/** The bytes as a Node Buffer, without Node's types: ioredis sends a Buffer as bytes, and a plain Uint8Array as text. */
function nodeBuffer(bytes: Uint8Array): Uint8Array {
  const { Buffer } = globalThis as unknown as { Buffer: { from(buffer: ArrayBufferLike, offset: number, length: number): Uint8Array } };
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
