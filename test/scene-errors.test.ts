// Bad input is rejected with its code, and the scene is exactly as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, SpatialError } from '../src/index.js';

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
    ['add3 in a 2-D scene', 'INVALID_ARGUMENT', (s) => s.add3(5, 0, 0, 0)],
    ['unknown id on move', 'UNKNOWN_ID', (s) => s.move(9, 0, 0)],
    ['NaN on move', 'INVALID_NUMBER', (s) => s.move(1, NaN, 0)],
    ['-Infinity on move', 'INVALID_NUMBER', (s) => s.move(1, 0, -Infinity)],
    ['unknown id on remove', 'UNKNOWN_ID', (s) => s.remove(9)],
    ['unknown id on setRange', 'UNKNOWN_ID', (s) => s.setRange(9, 1)],
    ['negative range on setRange', 'NEGATIVE_RANGE', (s) => s.setRange(1, -0.1)],
    ['unknown id on query', 'UNKNOWN_ID', (s) => s.query(9)],
    ['unknown id on watchers', 'UNKNOWN_ID', (s) => s.watchers(9)],
    ['unknown id on position', 'UNKNOWN_ID', (s) => s.position(9)],
    ['inverted box', 'INVALID_RECT', (s) => s.queryBox(1, 0, 0, 1)],
    ['NaN box', 'INVALID_NUMBER', (s) => s.queryBox(0, NaN, 1, 1)],
    ['moveMany arrays of unequal length', 'INVALID_ARGUMENT', (s) => s.moveMany(Int32Array.of(1, 2), Float64Array.of(5, 5), Float64Array.of(5))],
    ['moveMany with an unknown id last', 'UNKNOWN_ID', (s) => s.moveMany(Int32Array.of(1, 2, 9), Float64Array.of(5, 6, 7), Float64Array.of(5, 6, 7))],
    ['moveMany with a negative id', 'INVALID_ID', (s) => s.moveMany(Int32Array.of(1, -5), Float64Array.of(5, 6), Float64Array.of(5, 6))],
    ['moveMany with NaN in the middle', 'INVALID_NUMBER', (s) => s.moveMany(Int32Array.of(1, 2, 3), Float64Array.of(5, NaN, 7), Float64Array.of(5, 6, 7))],
    ['addMany with a duplicate inside the batch', 'DUPLICATE_ID', (s) => s.addMany(Int32Array.of(5, 5), Float64Array.of(0, 1), Float64Array.of(0, 1))],
    ['addMany with an existing id', 'DUPLICATE_ID', (s) => s.addMany(Int32Array.of(5, 1), Float64Array.of(0, 1), Float64Array.of(0, 1))],
    ['addMany with a negative range', 'NEGATIVE_RANGE', (s) => s.addMany(Int32Array.of(5), Float64Array.of(0), Float64Array.of(0), undefined, Float64Array.of(-1))],
    ['addMany with Infinity', 'INVALID_NUMBER', (s) => s.addMany(Int32Array.of(5), Float64Array.of(Infinity), Float64Array.of(0))],
  ];

  it.each(cases)('%s: %s', (_name, code, call) => {
    const scene = setup();
    scene.move(2, 1.5, 1); // leave an undrained event in the buffer too
    const reference = setup();
    reference.move(2, 1.5, 1);
    expect(codeOf(() => call(scene))).toBe(code);
    expect(snapshot(scene, ids)).toEqual(snapshot(reference, ids));
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
