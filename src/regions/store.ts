// Where a region's holder keeps what outlives its process: a lease that says
// a live process holds the region, an epoch that counts its holders, and the
// region's last checkpoint. A process that stops renewing its lease (it died,
// or stalled past the lease) leaves the region vacant; a standby claims it,
// which starts a new epoch, and from then on every write of the old epoch is
// refused: its checkpoints and (through the bus's fence) its messages.

/** What a store holds to rebuild a region: its last checkpoint, and a journal entry for each tick since. */
export interface SavedRegion {
  /** The checkpoint, as RegionPeer saved it. */
  checkpoint: Uint8Array;
  /** The journal entries after it, in the order appended. */
  journal: Uint8Array[];
}

/** Leases, epochs and checkpoints of a world's regions; RedisRegionBus keeps them in Redis. */
export interface RegionStore {
  /**
   * Claims region while no live lease holds it: the new epoch
   * (the one before plus 1, from 1), or 0 when a live holder has the region.
   * `fresh` (a world starting) also forgets the region's last checkpoint.
   */
  claim(region: number, leaseMs: number, fresh: boolean): Promise<number>;
  /** Extends region's lease by leaseMs while epoch is its current one; false when it is not (the region was taken over). */
  renew(region: number, epoch: number, leaseMs: number): Promise<boolean>;
  /** Saves a checkpoint of region, replacing the last and its journal, and extends the lease, while epoch is current; false, saving nothing, when it is not. */
  save(region: number, epoch: number, leaseMs: number, checkpoint: Uint8Array): Promise<boolean>;
  /** Adds an entry to the journal of region's last checkpoint, and extends the lease, while epoch is current; false, adding nothing, when it is not. */
  append(region: number, epoch: number, leaseMs: number, entry: Uint8Array): Promise<boolean>;
  /** The region's last checkpoint and its journal, in the order appended; null without a checkpoint. */
  load(region: number): Promise<SavedRegion | null>;
  /** Those of regions that have had a holder and have no live lease: lost by their holder, waiting to be taken over. */
  vacant(regions: ReadonlyArray<number>): Promise<number[]>;
}

/** The options of a region that takes part in takeovers. */
export interface TakeoverOptions {
  /** Where leases, epochs and checkpoints live (default: the peer's bus, when it is a store too, as RedisRegionBus is). */
  store?: RegionStore;
  /** How long a lease lasts unless renewed (default 1,000 ms); the holder renews it every tick and every third of it. */
  leaseMs?: number;
  /**
   * Ticks from one checkpoint to the next (default 10); the ticks between
   * are journaled (their operations only). A region is rebuilt from its last
   * checkpoint and runs the journaled ticks again, so a larger value saves
   * less each tick and takes longer to rebuild. Every region of a world
   * uses the same value: each keeps what it sent for that many ticks, for a
   * region being rebuilt.
   */
  every?: number;
  /** How long, past timeoutMs, a barrier waits for a silent region to be taken over before taking it for lost (default 10,000 ms). */
  takeoverMs?: number;
  /** Bytes of the caller's own saved with each checkpoint (a room's players); restored as `RegionPeer.restoredExtra`. */
  extra?: () => Uint8Array;
}
