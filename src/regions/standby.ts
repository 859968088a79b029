// A process that stands by to take over regions whose holders died: it
// watches the store for a region with a checkpoint and no live lease, and
// takes it over (RegionPeer.takeOver). Whichever standby claims the lease
// first holds the region; the others find it held and look on.
import { checkMilliseconds, checkOptions } from '../core/validate.js';
import { SpatialError } from '../scene/index.js';
import type { RegionLayout } from './layout.js';
import type { RegionPeer } from './peer.js';
import type { RegionStore } from './store.js';

/** Options of a {@link RegionStandby}. */
export interface RegionStandbyOptions {
  /** The regions this standby may take over (default: every region of the layout). */
  regions?: number[];
  /** How often it looks for a vacant region (default 100 ms). */
  pollMs?: number;
  /** Told when a region it claimed cannot be rebuilt (its checkpoint is missing or refused): the region stays down, and this standby leaves it. */
  onError?: (error: SpatialError, region: number) => void;
}

/**
 * Takes over regions whose holders died. `peerFor(region)` makes the peer
 * that will hold a region (with its own bus, and the takeover option on the
 * same store); {@link next} resolves with one that has taken its region
 * over. A process may stand by with no region of its own, or beside the
 * regions it holds.
 */
export class RegionStandby {
  private readonly regions: number[];
  private readonly pollMs: number;
  private readonly onError: (error: SpatialError, region: number) => void;
  /** Regions this standby could not rebuild: it leaves them to the others' timeouts. */
  private readonly refused = new Set<number>();
  private closed = false;

  constructor(
    /** The layout every region shares. */
    readonly layout: RegionLayout,
    private readonly store: RegionStore,
    private readonly peerFor: (region: number) => RegionPeer,
    options: RegionStandbyOptions = {},
  ) {
    checkOptions('RegionStandby', options, ['regions', 'pollMs', 'onError']);
    const { regions = layout.regions.map((r) => r.id), pollMs = 100, onError = () => {} } = options;
    for (const r of regions) layout.rect(r);
    checkMilliseconds('pollMs', pollMs, { positive: true });
    if (typeof onError !== 'function') throw new SpatialError('INVALID_ARGUMENT', 'onError must be a function');
    this.regions = [...regions];
    this.pollMs = pollMs;
    this.onError = onError;
  }

  /** Resolves with the peer of the next region this standby takes over, ready to tick; DISPOSED once closed. */
  async next(): Promise<RegionPeer> {
    for (;;) {
      if (this.closed) throw new SpatialError('DISPOSED', 'the standby is closed');
      const vacant = (await this.store.vacant(this.regions)).filter((r) => !this.refused.has(r));
      for (const region of vacant) {
        const peer = this.peerFor(region);
        try {
          if (await peer.takeOver()) return peer;
        } catch (error) {
          this.refused.add(region);
          this.onError(error instanceof SpatialError ? error : new SpatialError('INVALID_SNAPSHOT', String(error)), region);
        }
        await peer.close();
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  /** Stops looking: a pending {@link next} rejects with DISPOSED. */
  close(): void {
    this.closed = true;
  }
}
