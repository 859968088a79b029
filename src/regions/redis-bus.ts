// A RegionBus over Redis pub/sub: one channel per region and one every
// region listens to, binary messages both ways; and a RegionStore in plain
// Redis keys beside it (leases, epochs, checkpoints), each change a Lua
// script so that checking the epoch and writing are one step. The
// connections are the caller's (ioredis, or anything with the same
// methods), so this package imports no Redis client of its own.
import { SpatialError } from '../scene/index.js';
import type { RegionBus } from './peer.js';
import type { RegionStore, SavedRegion } from './store.js';

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
  /** EVAL (needed for takeovers: the store and a fenced bus). */
  eval?(script: string, keys: number, ...args: Array<string | number | never>): Promise<unknown>;
  /** GET, answering bytes (needed for takeovers). */
  getBuffer?(key: string): Promise<Uint8Array | null>;
  /** LRANGE, answering bytes (needed for takeovers). */
  lrangeBuffer?(key: string, start: number, stop: number): Promise<Uint8Array[]>;
}

// Each script checks the region's epoch and acts in one step, so nothing of an epoch taken over lands after the claim.
const CLAIM = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[3] == '1' then redis.call('DEL', KEYS[3], KEYS[4]) end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], epoch, 'PX', ARGV[2])
return epoch`;
const RENEW = `if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
const SAVE = `if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[3], ARGV[3])
redis.call('DEL', KEYS[4])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
const APPEND = `if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('RPUSH', KEYS[3], ARGV[3])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
const VACANT = `local out = {}
for i = 1, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i]) == 0 and redis.call('EXISTS', KEYS[i + 1]) == 1 then out[#out + 1] = (i + 1) / 2 end
end
return out`;
const FENCED_PUBLISH = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
return redis.call('PUBLISH', ARGV[2], ARGV[3])`;

/**
 * Region messages over Redis: `prefix:region:<id>` for one region,
 * `prefix:all` for every region. A connection in subscriber mode cannot
 * publish, so the bus takes two: one to publish on, one to subscribe with.
 */
export class RedisRegionBus implements RegionBus, RegionStore {
  /** Bytes published so far, Redis channel names and framing excluded. */
  bytesPublished = 0;
  /** Once fenced: the region and epoch every publish must still be current for, and who hears that it is not. */
  private fenced: { region: number; epoch: string; superseded: () => void } | null = null;

  /** A bus publishing on pub and listening on sub, under the channel prefix (default 'spatialkit:regions'). */
  constructor(
    private readonly pub: RedisConnection,
    private readonly sub: RedisConnection,
    private readonly prefix = 'spatialkit:regions',
  ) {}

  /** Publishes bytes to region `to`'s channel, or to the channel every region listens to. */
  publish(to: number | 'all', bytes: Uint8Array): void {
    this.bytesPublished += bytes.byteLength;
    const fence = this.fenced;
    // A lost publish shows as a region missing a barrier: the peer's timeout reports it.
    if (fence === null) {
      void this.pub.publish(this.channel(to), nodeBuffer(bytes) as never).catch(() => {});
      return;
    }
    void this.script(FENCED_PUBLISH, [this.key('epoch', fence.region)], fence.epoch, this.channel(to), nodeBuffer(bytes) as never)
      .then((n) => {
        if (n === -1) fence.superseded();
      })
      .catch(() => {});
  }

  /** From now on, publishes only while epoch is region's current epoch; calls superseded (once a publish is refused) when it is not. */
  fence(region: number, epoch: number, superseded: () => void): void {
    this.fenced = { region, epoch: String(epoch), superseded };
  }

  /** See {@link RegionStore.claim}. */
  async claim(region: number, leaseMs: number, fresh: boolean): Promise<number> {
    const keys = [this.key('lease', region), this.key('epoch', region), this.key('checkpoint', region), this.key('journal', region)];
    return Number(await this.script(CLAIM, keys, 0, Math.ceil(leaseMs), fresh ? '1' : '0'));
  }

  /** See {@link RegionStore.renew}. */
  async renew(region: number, epoch: number, leaseMs: number): Promise<boolean> {
    return Number(await this.script(RENEW, [this.key('lease', region), this.key('epoch', region)], String(epoch), Math.ceil(leaseMs))) === 1;
  }

  /** See {@link RegionStore.save}. */
  async save(region: number, epoch: number, leaseMs: number, checkpoint: Uint8Array): Promise<boolean> {
    const keys = [this.key('lease', region), this.key('epoch', region), this.key('checkpoint', region), this.key('journal', region)];
    return Number(await this.script(SAVE, keys, String(epoch), Math.ceil(leaseMs), nodeBuffer(checkpoint) as never)) === 1;
  }

  /** See {@link RegionStore.append}. */
  async append(region: number, epoch: number, leaseMs: number, entry: Uint8Array): Promise<boolean> {
    const keys = [this.key('lease', region), this.key('epoch', region), this.key('journal', region)];
    return Number(await this.script(APPEND, keys, String(epoch), Math.ceil(leaseMs), nodeBuffer(entry) as never)) === 1;
  }

  /** See {@link RegionStore.load}: read after a claim, when no older holder can write any more. */
  async load(region: number): Promise<SavedRegion | null> {
    if (typeof this.pub.getBuffer !== 'function') throw needs('getBuffer');
    if (typeof this.pub.lrangeBuffer !== 'function') throw needs('lrangeBuffer');
    const [checkpoint, journal] = await Promise.all([this.pub.getBuffer(this.key('checkpoint', region)), this.pub.lrangeBuffer(this.key('journal', region), 0, -1)]);
    return checkpoint === null ? null : { checkpoint, journal };
  }

  /** See {@link RegionStore.vacant}. */
  async vacant(regions: ReadonlyArray<number>): Promise<number[]> {
    if (regions.length === 0) return [];
    const keys = regions.flatMap((r) => [this.key('lease', r), this.key('epoch', r)]);
    const found = (await this.script(VACANT, keys)) as number[];
    return found.map((i) => regions[i - 1]);
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

  private script(source: string, keys: string[], ...args: Array<string | number | never>): Promise<unknown> {
    if (typeof this.pub.eval !== 'function') return Promise.reject(needs('eval'));
    return this.pub.eval(source, keys.length, ...keys, ...args);
  }

  private key(what: 'lease' | 'epoch' | 'checkpoint' | 'journal', region: number): string {
    return `${this.prefix}:${what}:${region}`;
  }

  private channel(to: number | 'all'): string {
    return to === 'all' ? `${this.prefix}:all` : `${this.prefix}:region:${to}`;
  }
}

function needs(method: string): SpatialError {
  return new SpatialError('INVALID_ARGUMENT', `takeovers need a Redis connection with ${method}() (an ioredis Redis has it)`);
}

/** The bytes as a Node Buffer, without Node's types: ioredis sends a Buffer as bytes, and a plain Uint8Array as text. */
function nodeBuffer(bytes: Uint8Array): Uint8Array {
  const { Buffer } = globalThis as unknown as { Buffer: { from(buffer: ArrayBufferLike, offset: number, length: number): Uint8Array } };
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
