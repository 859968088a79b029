// The region tick, written once: the order of the phases of region.ts and
// what the regions exchange between them. A driver holds some of a world's
// regions (RegionWorld all of them, in one process; RegionPeer one) and runs
// `regionTick` as a generator: each value it yields is an exchange with the
// other regions, which the driver completes before it resumes the tick:
// RegionWorld at once, RegionPeer over a bus, awaiting a barrier.
//
//   late      free-running only: the ghost batches of the tick before,
//             applied before anything of this tick (Region.applyLate)
//   handoffs  phase 1 out: these regions' hand-offs; in: every region's.
//             Then phase 2 (receive), and the router's owners follow them
//   ghosts    phase 3 out: these regions' ghost batches; in: the batches
//             addressed to them (none when free-running: they come late).
//             Then phase 4 (step), whose events the generator returns
import type { GhostBatch, Handoff } from './messages.js';
import type { Region } from './region.js';
import type { RegionRouter } from './router.js';

/** The ghost batches of the tick before, which the driver fills in. */
export interface LateExchange {
  readonly phase: 'late';
  arrived: ReadonlyArray<GhostBatch>;
}

/** The hand-offs: each held region's, in the order the regions were given; and every live region's, which the driver fills in. */
export interface HandoffExchange {
  readonly phase: 'handoffs';
  readonly sent: ReadonlyArray<Handoff[]>;
  arrived: ReadonlyArray<Handoff>;
}

/** The ghost batches the held regions send, and those addressed to them, which the driver fills in. */
export interface GhostExchange {
  readonly phase: 'ghosts';
  readonly sent: ReadonlyArray<GhostBatch>;
  arrived: ReadonlyArray<GhostBatch>;
}

/** What a region tick asks its driver to carry between regions. */
export type TickExchange = LateExchange | HandoffExchange | GhostExchange;

/**
 * One tick of `regions`, whose entities `router` routes, yielding its
 * exchanges in order (see the file comment); returns the tick's events,
 * region after region in the order given, each region's late ones first.
 * `late`: free-running, the ghosts of the tick before applied first.
 */
export function* regionTick(regions: ReadonlyArray<Region>, router: RegionRouter, late: boolean): Generator<TickExchange, Int32Array, void> {
  let lateEvents: Int32Array[] = [];
  if (late) {
    const before: LateExchange = { phase: 'late', arrived: [] };
    yield before;
    lateEvents = regions.map((r) => r.applyLate(before.arrived));
  }
  const handoffs: HandoffExchange = { phase: 'handoffs', sent: regions.map((r) => r.handOff()), arrived: [] };
  yield handoffs;
  for (const r of regions) r.receive(handoffs.arrived);
  router.endTick(handoffs.arrived);
  const ghosts: GhostExchange = { phase: 'ghosts', sent: regions.flatMap((r) => r.ghostBatches()), arrived: [] };
  yield ghosts;
  const parts = regions.flatMap((r, k) => (late ? [lateEvents[k], r.step(ghosts.arrived)] : [r.step(ghosts.arrived)]));
  return joined(parts);
}

/** The parts one after another (the one part itself, when alone). */
function joined(parts: Int32Array[]): Int32Array {
  if (parts.length === 1) return parts[0];
  const out = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
