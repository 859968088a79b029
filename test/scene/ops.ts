// The random Scene workloads of the parity tests: operation sequences,
// their generators, and a runner that drives the wasm backend, the js
// backend and the brute-force oracle with them, comparing every drained
// event multiset and every query / watchers / queryBox answer.
import fc from 'fast-check';
import { expect } from 'vitest';
import { Scene, type AddOptions, type AoiRange, type SceneIndex, type SetRangeOptions } from '../../src/index.js';
import { AoiOracle, normalize } from './oracle.js';
export type Vec = [number, number, number];
export type Op =
  | { kind: 'add'; id: number; p: Vec; range: AoiRange; options?: AddOptions }
  | { kind: 'setLayers'; id: number; layer: number; sees: number }
  | { kind: 'move'; id: number; p: Vec; relative: boolean }
  | { kind: 'moveMany'; moves: Array<{ id: number; p: Vec; relative: boolean }> }
  | { kind: 'addMany'; adds: Array<{ id: number; p: Vec; range: number }> }
  | { kind: 'remove'; id: number }
  | { kind: 'setRange'; id: number; range: AoiRange; options?: SetRangeOptions }
  | { kind: 'box'; min: Vec; max: Vec }
  | { kind: 'clear' };

// Halves keep every sum exact, so the contract's |t - w| <= r and the core's
// w - r <= t <= w + r agree bit for bit.
export const coord = fc.integer({ min: -24, max: 24 }).map((v) => v / 2);
export const far = fc.integer({ min: -400, max: 400 }).map((v) => v / 2);
export const step = fc.integer({ min: -3, max: 3 }).map((v) => v / 2);
export const vec = (c: fc.Arbitrary<number>): fc.Arbitrary<Vec> => fc.tuple(c, c, c);
export const id = fc.integer({ min: 0, max: 11 });
export const extent = fc.constantFrom(0, 0.5, 1, 2, 3, 4.5);
// Masks over three layers, plus none, the sign bit and every bit (as -1 and as 2^32 - 1).
export const mask = fc.constantFrom(0, 1, 2, 3, 4, 6, -1, 0xffffffff, -0x80000000);
// Margins on the half lattice, so range + margin stays exact.
export const margin = fc.constantFrom(0, 0.5, 1, 2.5);
export const addOptions: fc.Arbitrary<AddOptions | undefined> = fc.option(fc.record({ layer: mask, sees: mask, margin }, { requiredKeys: [] }), { nil: undefined, freq: 3 });
export const setRangeOptions: fc.Arbitrary<SetRangeOptions | undefined> = fc.option(fc.record({ margin }), { nil: undefined, freq: 2 });

export function rangeArb(dimensions: 2 | 3, equal: boolean): fc.Arbitrary<AoiRange> {
  if (equal) return fc.constant(2);
  return fc.oneof(
    { weight: 4, arbitrary: extent },
    { weight: 2, arbitrary: fc.record({ x: extent, y: extent, z: extent }).map((r) => (dimensions === 3 ? r : { x: r.x, y: r.y })) },
    { weight: 2, arbitrary: extent.map((radius) => ({ radius })) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

export function opArb(dimensions: 2 | 3, equal: boolean): fc.Arbitrary<Op> {
  const range = rangeArb(dimensions, equal);
  const move = fc.oneof(
    fc.record({ id, p: vec(step), relative: fc.constant(true) }),
    fc.record({ id, p: vec(coord), relative: fc.constant(false) }),
    fc.record({ id, p: vec(far), relative: fc.constant(false) }),
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), id, p: vec(coord), range, options: addOptions }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('setLayers' as const), id, layer: mask, sees: mask }) },
    { weight: 6, arbitrary: move.map((m) => ({ kind: 'move' as const, ...m })) },
    { weight: 2, arbitrary: fc.array(move, { maxLength: 8 }).map((moves) => ({ kind: 'moveMany' as const, moves })) },
    { weight: 1, arbitrary: fc.array(fc.record({ id: fc.integer({ min: 0, max: 60 }), p: vec(coord), range: equal ? fc.constant(2) : extent }), { maxLength: 50 }).map((adds) => ({ kind: 'addMany' as const, adds })) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('setRange' as const), id, range, options: setRangeOptions }) },
    { weight: 1, arbitrary: fc.tuple(vec(coord), vec(coord)).map(([a, b]) => ({ kind: 'box' as const, min: a.map((v, k) => Math.min(v, b[k])) as Vec, max: a.map((v, k) => Math.max(v, b[k])) as Vec })) },
  );
}

export function toTriple(range: AoiRange, dimensions: 2 | 3): Vec | null {
  if (range === null) return null;
  if (typeof range === 'number') return [range, range, dimensions === 3 ? range : 0];
  if ('radius' in range) return [range.radius, range.radius, dimensions === 3 ? range.radius : 0];
  return [range.x, range.y, range.z ?? 0];
}

export function isRound(range: AoiRange): boolean {
  return range !== null && typeof range === 'object' && 'radius' in range;
}

/** Every entity's query and watchers, on both backends, against the oracle. */
export function checkViews(scenes: Scene[], oracle: AoiOracle): void {
  for (const entity of oracle.entities.keys()) {
    for (const s of scenes) {
      expect(s.query(entity)).toEqual(oracle.query(entity));
      expect(s.watchers(entity)).toEqual(oracle.watchers(entity));
      expect(s.position(entity)).toEqual({ x: oracle.entities.get(entity)!.p[0], y: oracle.entities.get(entity)!.p[1], z: oracle.entities.get(entity)!.p[2] });
    }
  }
}

/** Runs ops on a wasm scene, a js scene and the oracle, comparing after every op. */
export function run(dimensions: 2 | 3, ops: Op[], form: 'abs' | 'bounds' = 'abs', index: SceneIndex = 'lists', cellSize?: number): void {
  const scenes = [new Scene({ backend: 'wasm', dimensions, index, cellSize }), new Scene({ backend: 'js', dimensions, index, cellSize })];
  const oracle = new AoiOracle(dimensions, form);
  const target = (m: { id: number; p: Vec; relative: boolean }): Vec => {
    if (!m.relative) return m.p;
    const at = oracle.entities.get(m.id)!.p;
    return [at[0] + m.p[0], at[1] + m.p[1], at[2] + m.p[2]];
  };
  // Every other batch goes in as plain arrays, which must act as typed ones.
  let batches = 0;
  const given = (values: Int32Array | Float64Array): ArrayLike<number> => (batches % 2 === 1 ? Array.from(values) : values);
  for (const op of ops) {
    switch (op.kind) {
      case 'add':
        if (oracle.entities.has(op.id)) continue;
        for (const s of scenes) {
          if (dimensions === 3) s.add3(op.id, op.p[0], op.p[1], op.p[2], op.range, op.options);
          else s.add(op.id, op.p[0], op.p[1], op.range, op.options);
        }
        oracle.add(op.id, op.p, toTriple(op.range, dimensions), isRound(op.range), op.options?.layer ?? 1, op.options?.sees ?? -1, op.options?.margin ?? 0);
        break;
      case 'setLayers':
        if (!oracle.entities.has(op.id)) continue;
        for (const s of scenes) s.setLayers(op.id, op.layer, op.sees);
        oracle.setLayers(op.id, op.layer, op.sees);
        break;
      case 'move': {
        if (!oracle.entities.has(op.id)) continue;
        const p = target(op);
        for (const s of scenes) s.move(op.id, p[0], p[1], p[2]);
        oracle.move(op.id, p);
        break;
      }
      case 'moveMany': {
        const moves = op.moves.filter((m) => oracle.entities.has(m.id));
        const ids = new Int32Array(moves.length);
        const xs = new Float64Array(moves.length);
        const ys = new Float64Array(moves.length);
        const zs = new Float64Array(moves.length);
        moves.forEach((m, k) => {
          const p = target(m);
          ids[k] = m.id;
          [xs[k], ys[k], zs[k]] = p;
          oracle.move(m.id, p);
        });
        batches++;
        for (const s of scenes) s.moveMany(given(ids), given(xs), given(ys), dimensions === 3 ? given(zs) : undefined);
        break;
      }
      case 'addMany': {
        const fresh = new Set<number>();
        const adds = op.adds.filter((a) => !oracle.entities.has(a.id) && !fresh.has(a.id) && fresh.add(a.id));
        const column = (f: (a: (typeof adds)[number]) => number): Float64Array => Float64Array.from(adds, f);
        const ids = Int32Array.from(adds, (a) => a.id);
        batches++;
        const zs = dimensions === 3 ? given(column((a) => a.p[2])) : undefined;
        for (const s of scenes) s.addMany(given(ids), given(column((a) => a.p[0])), given(column((a) => a.p[1])), zs, given(column((a) => a.range)));
        for (const a of adds) oracle.add(a.id, a.p, toTriple(a.range, dimensions));
        break;
      }
      case 'remove': {
        // An absent id is no error: remove says false and changes nothing.
        const present = oracle.entities.has(op.id);
        for (const s of scenes) expect(s.remove(op.id)).toBe(present);
        if (present) oracle.remove(op.id);
        break;
      }
      case 'setRange':
        if (!oracle.entities.has(op.id)) continue;
        for (const s of scenes) s.setRange(op.id, op.range, op.options);
        oracle.setRange(op.id, toTriple(op.range, dimensions), isRound(op.range), op.options?.margin);
        break;
      case 'clear':
        for (const s of scenes) s.clear();
        oracle.clear();
        break;
      case 'box': {
        const expected = oracle.queryBox(op.min, op.max);
        for (const s of scenes) {
          const got = dimensions === 3 ? s.queryBox(op.min[0], op.min[1], op.max[0], op.max[1], op.min[2], op.max[2]) : s.queryBox(op.min[0], op.min[1], op.max[0], op.max[1]);
          expect(got).toEqual(expected);
        }
        break;
      }
    }
    const expected = normalize(oracle.drain());
    const drained = scenes.map((s) => s.drain());
    for (const events of drained) expect(normalize(events)).toEqual(expected);
    // The grid's two cores run one algorithm over the same cells: the same events in the same order.
    if (index === 'grid') expect(drained[0]).toEqual(drained[1]);
    if (oracle.entities.size <= 16) checkViews(scenes, oracle);
  }
  checkViews(scenes, oracle);
  for (const s of scenes) {
    expect(s.size).toBe(oracle.entities.size);
    s.dispose();
  }
}

