// Random Scene workloads under a small maxPendingEvents and a lowered entity
// limit, driven through the wasm backend, the js backend and the brute-force
// oracle. Before each operation the oracle says what it would do on a copy:
// a call that would pass either limit must be refused on both backends with
// LIMIT_EXCEEDED and leave everything as it was, pending events included;
// any other call must go through. Drains come at random, so events pile up
// towards the limit; every drain and every view is compared.
import { expect } from 'vitest';
import { Scene, SpatialError, type SceneIndex } from '../../src/index.js';
import { AoiOracle, normalize } from './oracle.js';
import { checkViews, isRound, toTriple, type Op, type Vec } from './ops.js';

/** One step of a capped run: an operation of the parity tests, or a drain. */
export type CappedOp = Op | { kind: 'drain' };

/** The code a call on every scene throws, the same on each; null when none throws. */
function refusal(scenes: Scene[], call: (s: Scene) => void): string | null {
  const codes = scenes.map((s) => {
    try {
      call(s);
      return null;
    } catch (error) {
      if (!(error instanceof SpatialError)) throw error;
      return error.code;
    }
  });
  expect(codes.every((c) => c === codes[0])).toBe(true);
  return codes[0];
}

/**
 * Runs ops on a wasm scene and a js scene holding at most `maxPending`
 * events and `maxEntities` entities (the caller lowers the limit through the
 * test hook), against the oracle. Returns how many calls were refused.
 */
export function runCapped(dimensions: 2 | 3, ops: CappedOp[], index: SceneIndex, maxPending: number, maxEntities: number): number {
  const scenes = [new Scene({ backend: 'wasm', dimensions, index, maxPendingEvents: maxPending }), new Scene({ backend: 'js', dimensions, index, maxPendingEvents: maxPending })];
  let oracle = new AoiOracle(dimensions);
  let refused = 0;
  const target = (m: { id: number; p: Vec; relative: boolean }): Vec => {
    if (!m.relative) return m.p;
    const at = oracle.entities.get(m.id)!.p;
    return [at[0] + m.p[0], at[1] + m.p[1], at[2] + m.p[2]];
  };
  for (const op of ops) {
    if (op.kind === 'drain') {
      const expected = normalize(oracle.drain());
      for (const s of scenes) expect(normalize(s.drain())).toEqual(expected);
      continue;
    }
    const next = oracle.clone();
    let call: ((s: Scene) => void) | null = null;
    switch (op.kind) {
      case 'add':
        if (next.entities.has(op.id)) continue;
        next.add(op.id, op.p, toTriple(op.range, dimensions), isRound(op.range), op.options?.layer ?? 1, op.options?.sees ?? -1, op.options?.margin ?? 0);
        call = (s) => (dimensions === 3 ? s.add3(op.id, op.p[0], op.p[1], op.p[2], op.range, op.options) : s.add(op.id, op.p[0], op.p[1], op.range, op.options));
        break;
      case 'setLayers':
        if (!next.entities.has(op.id)) continue;
        next.setLayers(op.id, op.layer, op.sees);
        call = (s) => s.setLayers(op.id, op.layer, op.sees);
        break;
      case 'move': {
        if (!next.entities.has(op.id)) continue;
        const p = target(op);
        next.move(op.id, p);
        call = (s) => s.move(op.id, p[0], p[1], p[2]);
        break;
      }
      case 'moveMany': {
        const moves = op.moves.filter((m) => next.entities.has(m.id));
        const ps = moves.map((m) => {
          const p = target(m);
          next.move(m.id, p);
          return p;
        });
        const ids = moves.map((m) => m.id);
        call = (s) => s.moveMany(ids, ps.map((p) => p[0]), ps.map((p) => p[1]), dimensions === 3 ? ps.map((p) => p[2]) : undefined);
        break;
      }
      case 'addMany': {
        const fresh = new Set<number>();
        const adds = op.adds.filter((a) => !next.entities.has(a.id) && !fresh.has(a.id) && fresh.add(a.id));
        for (const a of adds) next.add(a.id, a.p, toTriple(a.range, dimensions));
        const column = (k: number): number[] => adds.map((a) => a.p[k]);
        call = (s) => s.addMany(adds.map((a) => a.id), column(0), column(1), dimensions === 3 ? column(2) : undefined, adds.map((a) => a.range));
        break;
      }
      case 'remove':
        if (!next.entities.has(op.id)) continue;
        next.remove(op.id);
        call = (s) => s.remove(op.id);
        break;
      case 'setRange':
        if (!next.entities.has(op.id)) continue;
        next.setRange(op.id, toTriple(op.range, dimensions), isRound(op.range), op.options?.margin);
        call = (s) => s.setRange(op.id, op.range, op.options);
        break;
      case 'clear':
        next.clear();
        call = (s) => s.clear();
        break;
      case 'box':
        continue;
    }
    const pending = scenes.map((s) => s.pendingLength);
    const tooMany = next.entities.size > maxEntities || next.events.length > maxPending;
    const code = refusal(scenes, call);
    expect(code).toBe(tooMany ? 'LIMIT_EXCEEDED' : null);
    if (code !== null) {
      refused++;
      // Refused whole: what was pending still is, and every view is as before.
      expect(scenes.map((s) => s.pendingLength)).toEqual(pending);
      expect(scenes.map((s) => s.size)).toEqual([oracle.entities.size, oracle.entities.size]);
    } else {
      oracle = next;
    }
    for (const s of scenes) expect(s.pendingLength).toBe(3 * oracle.events.length);
    if (oracle.entities.size <= 16) checkViews(scenes, oracle);
  }
  checkViews(scenes, oracle);
  const expected = normalize(oracle.drain());
  for (const s of scenes) {
    expect(normalize(s.drain())).toEqual(expected);
    s.dispose();
  }
  return refused;
}
