// Hysteresis margins: a watcher starts seeing a target inside its range and
// stops only when the target is outside range + margin. Visibility then
// depends on each pair's history, which the oracle keeps per pair; wasm, js
// and the oracle must agree on every event and every query / watchers answer.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, type AoiRange, type Backend, type SceneIndex } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { addOptions, id, margin, run, setRangeOptions, vec, type Op } from './ops.js';

beforeAll(() => init());

const BACKENDS: Backend[] = ['wasm', 'js'];
const INDEXES: SceneIndex[] = ['lists', 'grid'];

/** Ids seen by and seeing `who`, after draining, as [query, watchers]. */
const views = (scene: Scene, who: number): [number[], number[]] => [scene.query(who), scene.watchers(who)];

describe.each(INDEXES)('Scene margins (%s index)', (index) => {
  it.each(BACKENDS)('a box with margin 5 enters at its range and leaves only beyond range + margin (%s)', (backend) => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 10, { margin: 5 });
    scene.add(2, 12, 0, null);
    expect(scene.drain()).toEqual([]);
    scene.move(2, 10, 0); // on the edge of the range: the box is closed
    expect(scene.drain()).toEqual([{ type: 'enter', watcher: 1, target: 2 }]);
    for (const x of [14, 15, -15, 3]) {
      scene.move(2, x, 0); // inside range + margin (closed): still seen
      expect(scene.drain()).toEqual([{ type: 'move', watcher: 1, target: 2 }]);
      expect(views(scene, 1)).toEqual([[2], []]);
      expect(scene.watchers(2)).toEqual([1]);
    }
    scene.move(2, 3, 15.5); // beyond the margin on one axis
    expect(scene.drain()).toEqual([{ type: 'leave', watcher: 1, target: 2 }]);
    scene.move(2, 12, 0); // back in the margin band, but unseen: stays unseen
    expect(scene.drain()).toEqual([]);
    expect(scene.query(1)).toEqual([]);
    scene.dispose();
  });

  it.each(BACKENDS)('a circle with margin 2 keeps a target out to radius + margin (%s)', (backend) => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, { radius: 10 }, { margin: 2 });
    scene.add(2, 8, 8, null); // 11.3 away
    expect(scene.query(1)).toEqual([]);
    scene.move(2, 6, 8); // 10 away: on the circle
    expect(scene.drain()).toEqual([{ type: 'enter', watcher: 1, target: 2 }]);
    scene.move(2, 8, 8.5); // 11.7 away, inside the grown circle's box and the circle
    expect(scene.query(1)).toEqual([2]);
    scene.move(2, 8.5, 9); // 12.4 away: beyond radius + margin, inside its bounding box
    expect(scene.drain()).toEqual([
      { type: 'move', watcher: 1, target: 2 },
      { type: 'leave', watcher: 1, target: 2 },
    ]);
    scene.dispose();
  });

  it.each(BACKENDS)('the watcher moving drags its margin along, and a moveMany applies each step in order (%s)', (backend) => {
    const scene = new Scene({ backend, index, dimensions: 3 });
    scene.add3(1, 0, 0, 0, { x: 4, y: 4, z: 1 }, { margin: 1 });
    scene.add3(2, 0, 0, 1, null);
    expect(scene.query(1)).toEqual([2]);
    expect(scene.drain()).toEqual([{ type: 'enter', watcher: 1, target: 2 }]);
    scene.moveMany([1, 1, 1], [0, 0, 0], [0, 0, 0], [-0.5, -1, 0.5]);
    // z gap 1.5 (held), 2 (held, on the grown edge), 0.5 (inside): seen throughout, no leave.
    expect(scene.drain().filter((e) => e.type !== 'move')).toEqual([]);
    scene.move(1, 0, 0, -1.5); // z gap 2.5: leaves
    expect(scene.drain()).toEqual([{ type: 'leave', watcher: 1, target: 2 }]);
    scene.dispose();
  });

  it.each(BACKENDS)('setRange keeps the margin unless given one; a marker keeps it for its next range (%s)', (backend) => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 10, { margin: 5 });
    scene.add(2, 9, 0, null);
    scene.move(2, 13, 0);
    scene.setRange(1, 11); // margin 5 kept: 13 is within 16
    expect(scene.query(1)).toEqual([2]);
    scene.setRange(1, 9); // still within 9 + 5
    expect(scene.query(1)).toEqual([2]);
    scene.drain();
    scene.setRange(1, 9, { margin: 0 }); // no margin: 13 is beyond 9
    expect(scene.drain()).toEqual([{ type: 'leave', watcher: 1, target: 2 }]);
    scene.setRange(1, 10, { margin: 5 });
    scene.move(2, 10, 0);
    scene.move(2, 14, 0);
    expect(scene.query(1)).toEqual([2]);
    scene.setRange(1, null); // a marker sees nothing
    expect(scene.drain().at(-1)).toEqual({ type: 'leave', watcher: 1, target: 2 });
    scene.move(2, 10, 0);
    scene.setRange(1, 10); // margin 5 again
    scene.move(2, 14, 0);
    expect(scene.query(1)).toEqual([2]);
    scene.dispose();
  });

  it.each(BACKENDS)('layers: a pair held by the margin leaves when the masks stop meeting and needs the range to come back (%s)', (backend) => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 10, { margin: 5, sees: 1 });
    scene.add(2, 5, 0, null);
    scene.move(2, 12, 0);
    expect(scene.query(1)).toEqual([2]);
    scene.setLayers(2, 2, -1);
    expect(scene.query(1)).toEqual([]);
    scene.setLayers(2, 1, -1); // the masks meet again, but 12 is outside the range
    expect(scene.query(1)).toEqual([]);
    scene.dispose();
  });

  it('random crowds of watchers with margins: walkers across the plain and grown edges, margins changed by setRange, crowds cleared', () => {
    // Half-unit lattice and steps: walkers often cross an edge of the range or of range + margin, or stop on one.
    const lattice = fc.integer({ min: -8, max: 8 }).map((v) => v / 2);
    const small = fc.integer({ min: -3, max: 3 }).map((v) => v / 2);
    const shape = fc.constantFrom<AoiRange>(1, 2.5, { x: 1, y: 3, z: 2 }, { radius: 2 }, { radius: 3.5 }, null);
    const marginOption = fc.record({ margin });
    const arb = (dimensions: 2 | 3): fc.Arbitrary<Op[]> =>
      fc.array(
        fc.oneof(
          { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), id, p: vec(lattice), range: shape.map((r) => (dimensions === 2 && r !== null && typeof r === 'object' && 'z' in r ? { x: r.x, y: r.y } : r)), options: marginOption }) },
          { weight: 8, arbitrary: fc.record({ kind: fc.constant('move' as const), id, p: vec(small), relative: fc.constant(true) }) },
          { weight: 2, arbitrary: fc.array(fc.record({ id, p: vec(small), relative: fc.constant(true) }), { maxLength: 6 }).map((moves) => ({ kind: 'moveMany' as const, moves })) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('setRange' as const), id, range: fc.constantFrom<AoiRange>(1, 2, { radius: 2.5 }, null), options: setRangeOptions }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('setLayers' as const), id, layer: fc.constantFrom(1, 2, 3), sees: fc.constantFrom(1, 2, -1) }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('add' as const), id, p: vec(lattice), range: fc.constant(2), options: addOptions }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
          // A cleared scene starts again without margins: its next margin comes to a scene that has none.
          { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
        ),
        { minLength: 10, maxLength: 90 },
      );
    for (const dimensions of [2, 3] as const) fc.assert(fc.property(arb(dimensions), (ops) => run(dimensions, ops, 'abs', index)), { numRuns: 120 });
  });
});

describe('Scene margins: bad input', () => {
  it.each(BACKENDS)('a negative, NaN, infinite or non-number margin, or an unknown key, throws and changes nothing (%s)', (backend) => {
    for (const index of INDEXES) {
      const scene = new Scene({ backend, index });
      scene.add(1, 0, 0, 10, { margin: 5 });
      scene.add(2, 12, 0, 1);
      scene.drain();
      const before = scene.toBuffer();
      const bad: Array<[() => unknown, string]> = [
        [() => scene.add(3, 0, 0, 1, { margin: -1 }), 'NEGATIVE_RANGE'],
        [() => scene.add(3, 0, 0, 1, { margin: NaN }), 'INVALID_NUMBER'],
        [() => scene.add(3, 0, 0, 1, { margin: Infinity }), 'INVALID_NUMBER'],
        [() => scene.add(3, 0, 0, 1, { margin: '1' as unknown as number }), 'INVALID_NUMBER'],
        [() => scene.setRange(1, 3, { margin: -0.5 }), 'NEGATIVE_RANGE'],
        [() => scene.setRange(1, 3, { margin: NaN }), 'INVALID_NUMBER'],
        [() => scene.setRange(1, 3, { hysteresis: 1 } as never), 'INVALID_ARGUMENT'],
        [() => scene.setRange(9, 3, { margin: 1 }), 'UNKNOWN_ID'],
      ];
      for (const [call, code] of bad) expect(codeOf(call)).toBe(code);
      expect(scene.has(3)).toBe(false);
      expect(scene.drain()).toEqual([]);
      expect(scene.toBuffer()).toEqual(before);
      scene.dispose();
    }
  });
});
