// Bad input is rejected with its code, and the scene is exactly as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, SpatialError } from '../../src/index.js';
import { ARRAY_KINDS } from '../support/array-kinds.js';

beforeAll(() => init());

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SpatialError);
    return (error as SpatialError).code;
  }
  return undefined;
}

/** Everything observable about a scene, after draining its events. */
function snapshot(scene: Scene, ids: number[]): unknown {
  return {
    size: scene.size,
    events: scene.drain().map((e) => `${e.type} ${e.watcher} ${e.target}`).sort(),
    entities: ids.filter((id) => scene.has(id)).map((id) => [id, scene.position(id), scene.query(id), scene.watchers(id)]),
    box: scene.queryBox(-1e9, -1e9, 1e9, 1e9),
  };
}

describe.each(['wasm', 'js'] as const)('Scene (%s): bad input changes nothing', (backend) => {
  const ids = [1, 2, 3, 4, 5];
  const setup = (): Scene => {
    const scene = new Scene({ backend, defaultRange: 3, dimensions: 2 });
    scene.add(1, 0, 0);
    scene.add(2, 1, 1);
    scene.add(3, 2, -1, { x: 5, y: 1 });
    scene.add(4, 10, 10, null);
    return scene;
  };

  const cases: Array<[string, string, (s: Scene) => unknown]> = [
    ['NaN x on add', 'INVALID_NUMBER', (s) => s.add(5, NaN, 0)],
    ['Infinity y on add', 'INVALID_NUMBER', (s) => s.add(5, 0, Infinity)],
    ['duplicate id on add', 'DUPLICATE_ID', (s) => s.add(2, 0, 0)],
    ['negative id', 'INVALID_ID', (s) => s.add(-1, 0, 0)],
    ['fractional id', 'INVALID_ID', (s) => s.add(1.5, 0, 0)],
    ['negative range', 'NEGATIVE_RANGE', (s) => s.add(5, 0, 0, -1)],
    ['negative per-axis range', 'NEGATIVE_RANGE', (s) => s.add(5, 0, 0, { x: 1, y: -2 })],
    ['NaN range', 'INVALID_NUMBER', (s) => s.add(5, 0, 0, NaN)],
    ['negative radius', 'NEGATIVE_RANGE', (s) => s.add(5, 0, 0, { radius: -1 })],
    ['NaN radius on setRange', 'INVALID_NUMBER', (s) => s.setRange(1, { radius: NaN })],
    ['a radius with half-extents', 'INVALID_ARGUMENT', (s) => s.setRange(1, { radius: 1, x: 2 } as unknown as { radius: number })],
    ['a fractional layer on add', 'INVALID_ARGUMENT', (s) => s.add(5, 0, 0, 1, { layer: 1.5 })],
    ['a layer above 32 bits on add', 'INVALID_ARGUMENT', (s) => s.add(5, 0, 0, 1, { layer: 2 ** 32 })],
    ['a NaN sees mask on add', 'INVALID_ARGUMENT', (s) => s.add(5, 0, 0, 1, { sees: NaN })],
    ['an unknown option key on add', 'INVALID_ARGUMENT', (s) => s.add(5, 0, 0, 1, { layers: 2 } as never)],
    ['a mask below -2^31 on setLayers', 'INVALID_ARGUMENT', (s) => s.setLayers(1, -(2 ** 31) - 1, 1)],
    ['a string mask on setLayers', 'INVALID_ARGUMENT', (s) => s.setLayers(1, 1, '3' as never)],
    ['unknown id on setLayers', 'UNKNOWN_ID', (s) => s.setLayers(9, 1, 1)],
    ['add3 in a 2-D scene', 'INVALID_ARGUMENT', (s) => s.add3(5, 0, 0, 0)],
    ['unknown id on move', 'UNKNOWN_ID', (s) => s.move(9, 0, 0)],
    ['NaN on move', 'INVALID_NUMBER', (s) => s.move(1, NaN, 0)],
    ['-Infinity on move', 'INVALID_NUMBER', (s) => s.move(1, 0, -Infinity)],
    ['invalid id on remove', 'INVALID_ID', (s) => s.remove(-1)],
    ['unknown id on setRange', 'UNKNOWN_ID', (s) => s.setRange(9, 1)],
    ['negative range on setRange', 'NEGATIVE_RANGE', (s) => s.setRange(1, -0.1)],
    ['unknown id on query', 'UNKNOWN_ID', (s) => s.query(9)],
    ['unknown id on watchers', 'UNKNOWN_ID', (s) => s.watchers(9)],
    ['unknown id on position', 'UNKNOWN_ID', (s) => s.position(9)],
    ['inverted box', 'INVALID_RECT', (s) => s.queryBox(1, 0, 0, 1)],
    ['NaN box', 'INVALID_NUMBER', (s) => s.queryBox(0, NaN, 1, 1)],
    ['an object for minZ', 'INVALID_NUMBER', (s) => s.queryBox(0, 0, 1, 1, {} as never)],
    ['a numeric string for maxZ', 'INVALID_NUMBER', (s) => s.queryBox(0, 0, 1, 1, -1, '5' as never)],
    ['BigInt z bounds', 'INVALID_NUMBER', (s) => s.queryBox(0, 0, 1, 1, 1n as never, 2n as never)],
    ['NaN maxZ', 'INVALID_NUMBER', (s) => s.queryBox(0, 0, 1, 1, 0, NaN)],
    ['minZ Infinity', 'INVALID_NUMBER', (s) => s.queryBox(0, 0, 1, 1, Infinity, Infinity)],
    ['inverted z bounds', 'INVALID_RECT', (s) => s.queryBox(0, 0, 1, 1, 1, 0)],
    ['a box range with an unknown key', 'INVALID_ARGUMENT', (s) => s.add(5, 0, 0, { x: 1, y: 1, w: 9 } as never)],
    ['a width and height for a box range on setRange', 'INVALID_ARGUMENT', (s) => s.setRange(1, { width: 2, height: 2 } as never)],
    ['moveMany arrays of unequal length', 'INVALID_ARGUMENT', (s) => s.moveMany(Int32Array.of(1, 2), Float64Array.of(5, 5), Float64Array.of(5))],
    ['moveMany with an unknown id last', 'UNKNOWN_ID', (s) => s.moveMany(Int32Array.of(1, 2, 9), Float64Array.of(5, 6, 7), Float64Array.of(5, 6, 7))],
    ['moveMany with a negative id', 'INVALID_ID', (s) => s.moveMany(Int32Array.of(1, -5), Float64Array.of(5, 6), Float64Array.of(5, 6))],
    ['moveMany with NaN in the middle', 'INVALID_NUMBER', (s) => s.moveMany(Int32Array.of(1, 2, 3), Float64Array.of(5, NaN, 7), Float64Array.of(5, 6, 7))],
    ['addMany with a duplicate inside the batch', 'DUPLICATE_ID', (s) => s.addMany(Int32Array.of(5, 5), Float64Array.of(0, 1), Float64Array.of(0, 1))],
    ['addMany with an existing id', 'DUPLICATE_ID', (s) => s.addMany(Int32Array.of(5, 1), Float64Array.of(0, 1), Float64Array.of(0, 1))],
    ['addMany with a negative range', 'NEGATIVE_RANGE', (s) => s.addMany(Int32Array.of(5), Float64Array.of(0), Float64Array.of(0), undefined, Float64Array.of(-1))],
    ['addMany with Infinity', 'INVALID_NUMBER', (s) => s.addMany(Int32Array.of(5), Float64Array.of(Infinity), Float64Array.of(0))],
    // Plain arrays and typed arrays of any kind are accepted; what is not an
    // array of finite numbers is rejected whole, in any position.
    ['addMany of plain arrays with NaN last', 'INVALID_NUMBER', (s) => s.addMany([5, 6], [0, 1], [0, NaN])],
    ['addMany with a string coordinate', 'INVALID_NUMBER', (s) => s.addMany([5], ['1' as unknown as number], [0])],
    ['addMany with a hole', 'INVALID_NUMBER', (s) => s.addMany([5, 6, 7], [0, 1, 2], [0, , 1] as number[])],
    ['addMany with null ranges entry', 'INVALID_NUMBER', (s) => s.addMany([5], [0], [0], undefined, [null as unknown as number])],
    ['addMany with a negative range last', 'NEGATIVE_RANGE', (s) => s.addMany([5, 6], [0, 1], [0, 1], undefined, [1, -1])],
    ['addMany with a BigInt64Array', 'INVALID_NUMBER', (s) => s.addMany([5], new BigInt64Array(1) as unknown as number[], [0])],
    ['addMany with a fractional id in a Float64Array', 'INVALID_ID', (s) => s.addMany(Float64Array.of(5, 6.5), [0, 1], [0, 1])],
    ['addMany with a hole among the ids', 'INVALID_ID', (s) => s.addMany([5, , 7] as number[], [0, 1, 2], [0, 1, 2])],
    ['addMany with ids that are not an array', 'INVALID_ARGUMENT', (s) => s.addMany(5 as unknown as number[], [0], [0])],
    ['addMany with a string for ids', 'INVALID_ARGUMENT', (s) => s.addMany('5' as unknown as number[], [0], [0])],
    ['addMany with an object without length', 'INVALID_ARGUMENT', (s) => s.addMany([5], { 0: 1 } as unknown as number[], [0])],
    ['addMany of plain arrays of unequal length', 'INVALID_ARGUMENT', (s) => s.addMany([5, 6], [0, 1], [0])],
    ['addMany with too few ranges', 'INVALID_ARGUMENT', (s) => s.addMany([5, 6], [0, 1], [0, 1], undefined, [1])],
    ['addMany with zs of another length', 'INVALID_ARGUMENT', (s) => s.addMany([5], [0], [0], [0, 0])],
    ['moveMany of plain arrays with an unknown id last', 'UNKNOWN_ID', (s) => s.moveMany([1, 2, 9], [5, 6, 7], [5, 6, 7])],
    ['moveMany with undefined in ys', 'INVALID_NUMBER', (s) => s.moveMany([1, 2], [5, 6], [5, undefined as unknown as number])],
    ['moveMany with a symbol id', 'INVALID_ID', (s) => s.moveMany([Symbol('x') as unknown as number], [5], [5])],
    ['moveMany with a string id', 'INVALID_ID', (s) => s.moveMany(['1' as unknown as number], [5], [5])],
    ['moveMany with null for xs', 'INVALID_ARGUMENT', (s) => s.moveMany([1], null as unknown as number[], [5])],
    ['moveMany with a negative length', 'INVALID_ARGUMENT', (s) => s.moveMany({ length: -1 } as ArrayLike<number>, [], [])],
  ];

  it.each(cases)('%s: %s', (_name, code, call) => {
    const scene = setup();
    scene.move(2, 1.5, 1); // leave an undrained event in the buffer too
    const reference = setup();
    reference.move(2, 1.5, 1);
    expect(codeOf(() => call(scene))).toBe(code);
    expect(snapshot(scene, ids)).toEqual(snapshot(reference, ids));
  });

  it('z bounds of queryBox may be unbounded or finite, and an unknown range key is named with the range forms', () => {
    const scene = new Scene({ backend, dimensions: 3, defaultRange: 1 });
    scene.add3(1, 0, 0, -5);
    scene.add3(2, 0, 0, 5);
    expect(scene.queryBox(-1, -1, 1, 1, -Infinity, 0)).toEqual([1]);
    expect(scene.queryBox(-1, -1, 1, 1, 0, Infinity)).toEqual([2]);
    expect(scene.queryBox(-1, -1, 1, 1, -5, 5)).toEqual([1, 2]);
    expect(() => scene.add3(3, 0, 0, 0, { x: 1, y: 1, z: 1, w: 9 } as never)).toThrow(/unknown key 'w'.*\{ x, y \}.*\{ radius \}/);
  });

  it('remove of an absent id returns false and changes nothing; of a present one, true', () => {
    const scene = setup();
    scene.move(2, 1.5, 1);
    const reference = setup();
    reference.move(2, 1.5, 1);
    expect(scene.remove(9)).toBe(false);
    expect(snapshot(scene, ids)).toEqual(snapshot(reference, ids));
    expect(scene.remove(2)).toBe(true);
    expect(scene.remove(2)).toBe(false);
    expect(scene.has(2)).toBe(false);
  });

  it('takes plain arrays, typed arrays of any kind and array-likes as the same batch', () => {
    const ids = [1, 2, 3, 4, 5];
    const xs = [0, 1, 2, 3, 40];
    const ys = [0, 1, -1, 2, 40];
    const ranges = [3, 2, 5, 0, 1];
    const moveIds = [3, 1, 5];
    const moveXs = [10, 2, 41];
    const moveYs = [1, 2, 39];
    const typed = new Scene({ backend });
    typed.addMany(Int32Array.from(ids), Float64Array.from(xs), Float64Array.from(ys), undefined, Float64Array.from(ranges));
    const added = Array.from(typed.drainArray());
    typed.moveMany(Int32Array.from(moveIds), Float64Array.from(moveXs), Float64Array.from(moveYs));
    const moved = Array.from(typed.drainArray());
    const expected = snapshot(typed, ids);
    expect(added.length).toBeGreaterThan(0);
    expect(moved.length).toBeGreaterThan(0);
    for (const [kind, idsOf, numbersOf] of ARRAY_KINDS) {
      const scene = new Scene({ backend });
      scene.addMany(idsOf(ids), numbersOf(xs), numbersOf(ys), undefined, numbersOf(ranges));
      expect(Array.from(scene.drainArray()), kind).toEqual(added);
      scene.moveMany(idsOf(moveIds), numbersOf(moveXs), numbersOf(moveYs));
      expect(Array.from(scene.drainArray()), kind).toEqual(moved);
      expect(snapshot(scene, ids), kind).toEqual(expected);
    }
  });

  it('adds a one-entry plain-array batch as add would, on the wasm core too', () => {
    const batch = setup();
    const single = setup();
    batch.addMany([5], [1], [1]);
    single.add(5, 1, 1);
    expect(snapshot(batch, ids)).toEqual(snapshot(single, ids));
    expect(batch.position(5)).toEqual({ x: 1, y: 1, z: 0 });
    expect(batch.query(5).length).toBeGreaterThan(0);
  });

  it('rejects bad options and 3-D calls without z', () => {
    expect(codeOf(() => new Scene({ backend, dimensions: 4 as 2 }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => new Scene({ backend, defaultRange: -1 }))).toBe('NEGATIVE_RANGE');
    const scene = new Scene({ backend, dimensions: 3 });
    scene.add3(1, 0, 0, 0);
    expect(codeOf(() => scene.move(1, 1, 1))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => scene.add3(2, 0, 0, NaN))).toBe('INVALID_NUMBER');
    expect(codeOf(() => scene.add3(2, 0, 0, 0, { x: 1, y: 1 }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => scene.moveMany(Int32Array.of(1), Float64Array.of(1), Float64Array.of(1)))).toBe('INVALID_ARGUMENT');
    expect(scene.position(1)).toEqual({ x: 0, y: 0, z: 0 });
    expect(scene.size).toBe(1);
  });

  it('throws DISPOSED on every call after dispose', () => {
    const scene = setup();
    scene.dispose();
    scene.dispose(); // a second dispose is harmless
    const calls: Array<() => unknown> = [
      () => scene.add(9, 0, 0),
      () => scene.move(1, 0, 0),
      () => scene.remove(1),
      () => scene.setRange(1, 2),
      () => scene.has(1),
      () => scene.size,
      () => scene.position(1),
      () => scene.query(1),
      () => scene.watchers(1),
      () => scene.queryBox(0, 0, 1, 1),
      () => scene.drain(),
      () => scene.drainArray(),
      () => scene.moveMany(Int32Array.of(1), Float64Array.of(0), Float64Array.of(0)),
      () => scene.addMany(Int32Array.of(9), Float64Array.of(0), Float64Array.of(0)),
      () => scene.clear(),
    ];
    for (const call of calls) expect(codeOf(call)).toBe('DISPOSED');
  });
});
