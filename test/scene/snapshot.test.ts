// Scene snapshots: toBuffer / fromBuffer restore an equal scene on either
// backend from bytes written by either backend and either index (same
// options, ids, positions, ranges, masks, margins and the pairs seen only
// thanks to a margin, so the same answers and the same events from the same
// later operations); restoring produces no events; the
// same operations give the same bytes on wasm and js; truncated, altered,
// other-version and impossible bytes are refused with INVALID_SNAPSHOT.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, type AoiRange, type Backend, type SceneIndex } from '../../src/index.js';
import { sealSnapshot } from '../../src/core/snapshot-bytes.js';
import { codeOf } from '../support/codes.js';
import { normalize } from './oracle.js';

beforeAll(() => init());

const BACKENDS: Backend[] = ['wasm', 'js'];
const INDEXES: SceneIndex[] = ['lists', 'grid'];
const MASKS = [1, 2, 3, -1, 0, 0x40000000];

const coord = fc.integer({ min: -12, max: 12 });
const half = fc.integer({ min: 0, max: 8 });
const rangeArb: fc.Arbitrary<AoiRange | undefined> = fc.oneof(
  fc.constant(undefined),
  half,
  fc.record({ x: half, y: half, z: half }),
  fc.record({ radius: half }),
  fc.constant(null),
);
const maskArb = fc.constantFrom(...MASKS);
const marginArb = fc.constantFrom(0, 0, 1, 2.5);
const idArb = fc.integer({ min: 0, max: 24 });

type Op =
  | { kind: 'add'; id: number; x: number; y: number; z: number; range: AoiRange | undefined; layer: number; sees: number; margin: number }
  | { kind: 'addMany'; ids: number[]; r: number }
  | { kind: 'move'; id: number; x: number; y: number; z: number }
  | { kind: 'setRange'; id: number; range: AoiRange; margin: number | undefined }
  | { kind: 'setLayers'; id: number; layer: number; sees: number }
  | { kind: 'remove'; id: number };

const addArb = fc.record({ kind: fc.constant('add' as const), id: idArb, x: coord, y: coord, z: coord, range: rangeArb, layer: maskArb, sees: maskArb, margin: marginArb });
const moveArb = fc.record({ kind: fc.constant('move' as const), id: idArb, x: coord, y: coord, z: coord });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: addArb },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('addMany' as const), ids: fc.uniqueArray(idArb, { maxLength: 4 }), r: half }) },
  { weight: 3, arbitrary: moveArb },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setRange' as const), id: idArb, range: rangeArb.map((r) => (r === undefined ? 1 : r)), margin: fc.option(marginArb, { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setLayers' as const), id: idArb, layer: maskArb, sees: maskArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: idArb }) },
);

/** Applies op; a rejected op (unknown or duplicate id) changes nothing, on every scene alike. */
function apply(scene: Scene, op: Op): void {
  const three = scene.dimensions === 3;
  codeOf(() => {
    switch (op.kind) {
      case 'add':
        if (three) scene.add3(op.id, op.x, op.y, op.z, op.range, { layer: op.layer, sees: op.sees, margin: op.margin });
        else scene.add(op.id, op.x, op.y, op.range, { layer: op.layer, sees: op.sees, margin: op.margin });
        return;
      case 'addMany': {
        const at = op.ids.map((id) => id % 7);
        scene.addMany(op.ids, at, at, three ? at : undefined, op.ids.map(() => op.r));
        return;
      }
      case 'move':
        scene.move(op.id, op.x, op.y, op.z);
        return;
      case 'setRange':
        scene.setRange(op.id, op.range, op.margin === undefined ? undefined : { margin: op.margin });
        return;
      case 'setLayers':
        scene.setLayers(op.id, op.layer, op.sees);
        return;
      case 'remove':
        scene.remove(op.id);
    }
  });
}

/** Every answer a user can get about a scene's contents. */
function answers(scene: Scene): unknown {
  const ids = scene.ids();
  const three = scene.dimensions === 3;
  const near = (layer?: number): number[] =>
    Array.from(three ? scene.nearest3(1, -2, 0, 5, layer === undefined ? {} : { layer }) : scene.nearest(1, -2, 5, layer === undefined ? {} : { layer }));
  return {
    options: [scene.dimensions, scene.index, scene.defaultRange, scene.events, scene.moveEvents],
    ids,
    entities: ids.map((id) => [scene.position(id), scene.query(id), scene.watchers(id)]),
    box: scene.queryBox(-4, -5, 6, 3, -3, 3),
    nearest: [near(), near(2)],
  };
}

describe('Scene snapshots (wasm and js, lists and grid)', () => {
  it('restore an equal scene on either backend, with no events, which gives the same events through the same moves', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<2 | 3>(2, 3),
        fc.constantFrom(...INDEXES),
        fc.constantFrom<'log' | 'net'>('log', 'net'),
        fc.boolean(),
        fc.array(opArb, { maxLength: 40 }),
        fc.array(fc.oneof({ weight: 4, arbitrary: moveArb }, { weight: 1, arbitrary: opArb }), { maxLength: 20 }),
        (dimensions, index, events, moveEvents, before, after) => {
          const options = { dimensions, index, events, moveEvents, defaultRange: 3, cellSize: 2.5 };
          const originals = BACKENDS.map((backend) => new Scene({ ...options, backend }));
          for (const op of before) for (const s of originals) apply(s, op);
          const bytes = originals.map((s) => s.toBuffer());
          expect(bytes[1]).toEqual(bytes[0]); // the same operations give the same bytes on wasm and js
          for (const s of originals) s.drain();
          const copies = BACKENDS.flatMap((backend) => bytes.map((b) => Scene.fromBuffer(b, { backend })));
          const expected = answers(originals[0]);
          for (const copy of copies) {
            expect(copy.drainArray().length).toBe(0); // restoring produces no events
            expect(answers(copy)).toEqual(expected);
            expect(copy.toBuffer()).toEqual(bytes[0]);
          }
          const scenes = [...originals, ...copies];
          for (const op of after) for (const s of scenes) apply(s, op);
          const drained = scenes.map((s) => normalize(s.drain()));
          for (const d of drained) expect(d).toEqual(drained[0]);
          for (const s of scenes) s.dispose();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('round-trips a scene of 3,000 entities (positions read in one batch) on every backend and index', () => {
    for (const index of INDEXES) {
      const scenes = BACKENDS.map((backend) => new Scene({ backend, index, dimensions: 3 }));
      for (const scene of scenes) {
        for (let id = 0; id < 3000; id++) scene.add3(id * 3, (id * 37) % 1000, (id * 91) % 700, id % 13, id % 5, { layer: id % 4 });
      }
      const bytes = scenes.map((s) => s.toBuffer());
      expect(bytes[1]).toEqual(bytes[0]);
      for (const backend of BACKENDS) {
        const copy = Scene.fromBuffer(bytes[0], { backend });
        expect(copy.ids()).toEqual(scenes[0].ids());
        for (const id of [0, 2997, 4500, 8997]) expect([copy.position(id), copy.query(id)]).toEqual([scenes[0].position(id), scenes[0].query(id)]);
        expect(copy.position(8997)).toEqual({ x: (2999 * 37) % 1000, y: (2999 * 91) % 700, z: 2999 % 13 });
      }
    }
  });

  it('restores a snapshot with the index it was written with, whichever backend reads it', () => {
    for (const index of INDEXES) {
      const scene = new Scene({ backend: 'js', index });
      scene.add(1, 0, 0, { radius: 2 });
      for (const backend of BACKENDS) expect(Scene.fromBuffer(scene.toBuffer(), { backend }).index).toBe(index);
    }
  });
});

/** A 2-D lists scene of two entities; the byte offsets below follow its layout (docs in src/scene/snapshot.ts). */
function sample(): Uint8Array {
  const scene = new Scene({ backend: 'js', index: 'lists' });
  scene.add(4, 1, 2, 3);
  scene.add(9, -1, 0, { x: 1, y: 2 });
  return scene.toBuffer();
}
const FIRST = 36; // the first record: i32 id, f64 x, f64 y, u8 kind, f64 rx, ry, rz, i32 layer, i32 sees
const RECORD = 53;

/** sample() with one edit, sealed again so the header's length and checksum agree. */
function edited(edit: (view: DataView, bytes: Uint8Array) => void): Uint8Array {
  const bytes = sample().slice();
  edit(new DataView(bytes.buffer), bytes);
  return sealSnapshot(bytes);
}

describe('Scene.fromBuffer rejects', () => {
  const read = (bytes: unknown, options?: unknown) => codeOf(() => Scene.fromBuffer(bytes as Uint8Array, options as { backend: Backend }));

  it('accepts the unedited sample (so the rejections below are the edits)', () => {
    expect(read(edited(() => {}))).toBe(null);
    expect(read(edited(() => {}), { backend: 'wasm' })).toBe(null);
  });

  it('truncated, altered and other-version bytes with INVALID_SNAPSHOT', () => {
    const bytes = sample();
    for (let length = 0; length < bytes.length; length += 7) expect(read(bytes.subarray(0, length))).toBe('INVALID_SNAPSHOT');
    expect(read(bytes.subarray(0, bytes.length - 1))).toBe('INVALID_SNAPSHOT');
    for (const at of [0, 5, 17, FIRST + 5, bytes.length - 1]) {
      const altered = bytes.slice();
      altered[at] ^= 0x10;
      expect(read(altered)).toBe('INVALID_SNAPSHOT');
    }
    expect(read(edited((view) => view.setUint16(4, 2, true)))).toBe('INVALID_SNAPSHOT');
    expect(read(edited((_, b) => (b[0] = 'S'.charCodeAt(0) + 1)))).toBe('INVALID_SNAPSHOT');
  });

  it('impossible scenes with INVALID_SNAPSHOT', () => {
    const impossible: Array<(view: DataView) => void> = [
      (v) => v.setInt32(FIRST + RECORD, 4, true), // a duplicate id
      (v) => v.setInt32(FIRST + RECORD, 3, true), // ids out of order
      (v) => v.setInt32(FIRST, -1, true), // an invalid id
      (v) => v.setFloat64(FIRST + 4, NaN, true), // a NaN position
      (v) => v.setFloat64(FIRST + 12, Infinity, true), // an infinite position
      (v) => v.setFloat64(FIRST + 21, -1, true), // a negative range
      (v) => v.setFloat64(FIRST + RECORD + 21 + 8, -2, true), // a negative ry
      (v) => v.setUint8(FIRST + 20, 3), // an unknown range kind
      (v) => v.setUint8(FIRST + 20, 0), // a marker with a range
      (v) => v.setUint8(FIRST + RECORD + 20, 2), // a circle with unequal half-extents
      (v) => v.setUint16(6, 32, true), // unknown flags
      (v) => v.setFloat64(16, -1, true), // a negative defaultRange
      (v) => v.setFloat64(24, 0, true), // cellSize 0
      (v) => v.setUint32(32, 3, true), // more entities than the bytes hold
    ];
    for (const edit of impossible) for (const backend of BACKENDS) expect(read(edited(edit), { backend })).toBe('INVALID_SNAPSHOT');
  });

  it('impossible margins and held pairs with INVALID_SNAPSHOT', () => {
    // Entity 4 (range 3, margin 2) keeps seeing marker 9, which walked from 2 to 4 units away: one held pair.
    const scene = new Scene({ backend: 'js' });
    scene.add(4, 0, 0, 3, { margin: 2 });
    scene.add(9, 2, 0, null);
    scene.move(9, 4, 0);
    const held = scene.toBuffer();
    const MARGINS = FIRST + 2 * RECORD;
    const PAIRS = MARGINS + 16 + 4;
    const editedHeld = (edit: (view: DataView) => void): Uint8Array => {
      const bytes = held.slice();
      edit(new DataView(bytes.buffer));
      return sealSnapshot(bytes);
    };
    expect(read(editedHeld(() => {}))).toBe(null);
    expect(Scene.fromBuffer(editedHeld(() => {})).query(4)).toEqual([9]);
    const impossible: Array<(view: DataView) => void> = [
      (v) => v.setFloat64(MARGINS, -1, true), // a negative margin
      (v) => v.setFloat64(MARGINS, NaN, true), // a NaN margin
      (v) => v.setUint32(MARGINS + 16, 2, true), // more pairs than the bytes hold
      (v) => v.setInt32(PAIRS, 5, true), // a pair of an unknown id
      (v) => v.setInt32(PAIRS + 4, 4, true), // a pair of one entity
      (v) => (v.setInt32(PAIRS, 9, true), v.setInt32(PAIRS + 4, 4, true)), // a marker as watcher
      (v) => v.setFloat64(MARGINS, 0.5, true), // the target beyond range + margin
      (v) => v.setFloat64(FIRST + RECORD + 4, 2, true), // the target inside the plain range: not held
    ];
    for (const edit of impossible) for (const backend of BACKENDS) expect(read(editedHeld(edit), { backend })).toBe('INVALID_SNAPSHOT');
  });

  it('non-bytes and unknown option keys with INVALID_ARGUMENT', () => {
    for (const bad of [null, undefined, 'SKSC', [1, 2], new Int8Array(40), sample().buffer]) expect(read(bad)).toBe('INVALID_ARGUMENT');
    expect(read(sample(), { backend: 'js', index: 'grid' })).toBe('INVALID_ARGUMENT');
    expect(read(sample(), { backend: 'gpu' })).toBe('INVALID_ARGUMENT');
  });
});
