// The walkers of the multi-process cases of bench `regions`: where a seeded
// draw (the same in every process) puts them, and their steps, each region
// moving those it owns by up to STEP per axis a tick.
import type { RegionPeer } from '../src/regions/index.js';
import { mulberry32 } from './random.js';

export const WORLD_PER_20K = 2_000;
export const RANGE = 20;
export const MARGIN = 2;
export const STEP = 2;

/** The side of the square world of n walkers (2,000 for 20,000: the same density at every size). */
export function worldSize(walkers: number): number {
  return WORLD_PER_20K * Math.sqrt(walkers / 20_000);
}

/** Adds the n walkers, ids 0 .. n-1 (each peer applies those in its region). */
export function placeWalkers(peer: RegionPeer, walkers: number, size: number): void {
  const draw = mulberry32(7);
  for (let id = 0; id < walkers; id++) peer.add(id, draw() * size, draw() * size, RANGE, { margin: MARGIN });
}

/** Moves every walker the peer owns (ids below `walkers`) by up to STEP per axis, turned back at the world's edges, in one moveMany. */
export function stepWalkers(peer: RegionPeer, random: () => number, size: number, walkers: number): void {
  const bounce = (v: number): number => (v < 0 ? -v : v > size ? 2 * size - v : v);
  const ids = Int32Array.from(peer.region.ownedIds().filter((id) => id < walkers));
  const xs = new Float64Array(ids.length);
  const ys = new Float64Array(ids.length);
  for (let k = 0; k < ids.length; k++) {
    const { x, y } = peer.region.position(ids[k]);
    xs[k] = bounce(x + (random() * 2 - 1) * STEP);
    ys[k] = bounce(y + (random() * 2 - 1) * STEP);
  }
  peer.moveMany(ids, xs, ys);
}
