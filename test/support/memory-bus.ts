// An in-process RegionBus for regions run apart in one process: each message
// reaches its subscribers on a later turn, in the order sent. Each end is
// also a RegionStore over the bus's shared leases, epochs and checkpoints,
// so that regions can be taken over, and can be killed: a killed end sends,
// hears and stores nothing any more, as a process that died.
import type { RegionBus, RegionStore } from '../../src/regions/index.js';

/** One region's end of a {@link MemoryBus}. */
export interface MemoryEnd extends RegionBus, RegionStore {
  /** Ends this end as its process's death would: nothing sent, heard or stored from now on. */
  kill(): void;
}

/** The bus every region of one world shares; for() gives one region's end of it. */
export class MemoryBus {
  private readonly handlers = new Map<number, (bytes: Uint8Array) => void>();
  private readonly epochs = new Map<number, number>();
  private readonly leases = new Map<number, number>();
  private readonly checkpoints = new Map<number, Uint8Array>();
  private readonly journals = new Map<number, Uint8Array[]>();
  /** Checkpoints saved, all regions together (journal entries apart). */
  saves = 0;

  /** The last checkpoint saved for region, or null. */
  checkpointOf(region: number): Uint8Array | null {
    return this.checkpoints.get(region) ?? null;
  }

  /** Puts bytes (or nothing) in place of region's checkpoint, as a damaged store would. */
  replaceCheckpoint(region: number, bytes: Uint8Array | null): void {
    if (bytes === null) this.checkpoints.delete(region);
    else this.checkpoints.set(region, bytes);
  }

  /** Drops the journal entry at index k of region's checkpoint, as a damaged store would. */
  dropJournalEntry(region: number, k: number): void {
    this.journals.get(region)?.splice(k, 1);
  }

  /** Ends region's lease now, as though its holder had stalled past it. */
  expireLease(region: number): void {
    this.leases.delete(region);
  }

  /** The bus one region uses. */
  for(): MemoryEnd {
    let dead = false;
    let fence: { region: number; epoch: number; superseded: () => void } | null = null;
    let subscribed = -1;
    const never = new Promise<never>(() => {});
    const live = <T>(f: () => T): Promise<T> => (dead ? never : Promise.resolve().then(f));
    const current = (region: number, epoch: number): boolean => this.epochs.get(region) === epoch;
    const leased = (region: number): boolean => (this.leases.get(region) ?? 0) > Date.now();
    return {
      publish: (to, bytes) => {
        if (dead) return;
        if (fence !== null && !current(fence.region, fence.epoch)) return fence.superseded();
        const copy = bytes.slice();
        setImmediate(() => {
          for (const [id, handler] of this.handlers) if (to === 'all' || to === id) handler(copy);
        });
      },
      subscribe: async (id, handler) => {
        subscribed = id;
        this.handlers.set(id, (bytes) => dead || handler(bytes));
      },
      close: async () => {
        if (subscribed >= 0 && !dead) this.handlers.delete(subscribed);
      },
      fence: (region, epoch, superseded) => {
        fence = { region, epoch, superseded };
      },
      claim: (region, leaseMs, fresh) =>
        live(() => {
          if (leased(region)) return 0;
          if (fresh) this.checkpoints.delete(region);
          if (fresh) this.journals.delete(region);
          const epoch = (this.epochs.get(region) ?? 0) + 1;
          this.epochs.set(region, epoch);
          this.leases.set(region, Date.now() + leaseMs);
          return epoch;
        }),
      renew: (region, epoch, leaseMs) =>
        live(() => {
          if (!current(region, epoch)) return false;
          this.leases.set(region, Date.now() + leaseMs);
          return true;
        }),
      save: (region, epoch, leaseMs, checkpoint) =>
        live(() => {
          if (!current(region, epoch)) return false;
          this.checkpoints.set(region, checkpoint.slice());
          this.journals.set(region, []);
          this.leases.set(region, Date.now() + leaseMs);
          this.saves++;
          return true;
        }),
      append: (region, epoch, leaseMs, entry) =>
        live(() => {
          if (!current(region, epoch)) return false;
          this.journals.get(region)?.push(entry.slice());
          this.leases.set(region, Date.now() + leaseMs);
          return true;
        }),
      load: (region) =>
        live(() => {
          const checkpoint = this.checkpoints.get(region);
          return checkpoint === undefined ? null : { checkpoint, journal: [...(this.journals.get(region) ?? [])] };
        }),
      vacant: (regions) => live(() => regions.filter((r) => !leased(r) && this.epochs.has(r))),
      kill: () => {
        dead = true;
      },
    };
  }
}
