// The index option: which index a scene keeps, what it rejects, and that both
// indexes answer a worked example alike on both backends.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, SpatialError } from '../../src/index.js';
import { normalize } from './oracle.js';

beforeAll(() => init());

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof SpatialError ? e.code : 'not a SpatialError';
  }
  return undefined;
};

describe.each(['wasm', 'js'] as const)('Scene index option (%s)', (backend) => {
  it("reads back the index in use: 'grid' by default, 'lists' when asked", () => {
    expect(new Scene({ backend }).index).toBe('grid');
    expect(new Scene({ backend, index: 'lists' }).index).toBe('lists');
    expect(new Scene({ backend, index: 'grid' }).index).toBe('grid');
  });

  it('rejects an unknown index and a cellSize that is not a finite number > 0', () => {
    expect(code(() => new Scene({ backend, index: 'quadtree' as 'grid' }))).toBe('INVALID_ARGUMENT');
    expect(code(() => new Scene({ backend, index: 'grid', cellSize: 0 }))).toBe('INVALID_ARGUMENT');
    expect(code(() => new Scene({ backend, index: 'grid', cellSize: -1 }))).toBe('INVALID_ARGUMENT');
    expect(code(() => new Scene({ backend, index: 'grid', cellSize: NaN }))).toBe('INVALID_NUMBER');
    expect(code(() => new Scene({ backend, index: 'grid', cellSize: Infinity }))).toBe('INVALID_NUMBER');
  });

  it('a wide watcher (range 40 cells) and markers: the same events and answers on both indexes', () => {
    const scenes = (['lists', 'grid'] as const).map((index) => new Scene({ backend, index, cellSize: 1, defaultRange: 1 }));
    const logs = scenes.map((scene) => {
      const log: string[][] = [];
      scene.add(1, 0, 0, 40);
      scene.add(2, 39, -39);
      scene.add(3, 41, 0, null);
      scene.add(4, 0.5, 0.5);
      log.push(normalize(scene.drain()));
      scene.move(1, 1.5, 0);
      log.push(normalize(scene.drain()));
      scene.move(4, -1e300, 1e300);
      log.push(normalize(scene.drain()));
      scene.setRange(4, 2e300);
      log.push(normalize(scene.drain()), scene.query(4).map(String), scene.watchers(2).map(String), scene.queryBox(-50, -50, 50, 50).map(String));
      scene.remove(1);
      log.push(normalize(scene.drain()));
      return log;
    });
    expect(logs[1]).toEqual(logs[0]);
    expect(logs[0][1]).toEqual(['enter 1 3', 'move 4 1']);
  });
});

describe('Scene grid: a wide watcher over a crowd of small cells', () => {
  it('its box covers over a hundred occupied finer cells: the same events in the same order on both backends, and as the lists index', () => {
    const make = (backend: 'wasm' | 'js', index: 'lists' | 'grid'): Scene => new Scene({ backend, index, cellSize: 1, defaultRange: 0.4 });
    const scenes = [make('wasm', 'grid'), make('js', 'grid'), make('wasm', 'lists')];
    const logs = scenes.map((scene) => {
      // A 30 x 30 crowd with small ranges, one to a unit square, and a watcher whose box is 24 units wide.
      for (let i = 0; i < 900; i++) scene.add(i, (i % 30) + ((i * 7) % 10) / 10, Math.floor(i / 30) + ((i * 3) % 10) / 10);
      scene.add(1000, 3, 3, 12);
      const log: number[][] = [Array.from(scene.drainArray())];
      for (let t = 1; t <= 8; t++) {
        scene.move(1000, 3 + 2.5 * t, 3 + 1.75 * t);
        scene.moveMany([t, 30 * t + 5], [t + 0.35, 6.6], [t / 2, t]);
        log.push(Array.from(scene.drainArray()));
      }
      return log;
    });
    expect(logs[1]).toEqual(logs[0]);
    const facts = (log: number[][]): string[][] => log.map((events) => Array.from({ length: events.length / 3 }, (_, k) => events.slice(3 * k, 3 * k + 3).join(' ')).sort());
    expect(facts(logs[0])).toEqual(facts(logs[2]));
    expect(logs[0][1].length / 3).toBeGreaterThan(40);
  });
});

describe.each(['wasm', 'js'] as const)('Scene grid clear and dispose (%s)', (backend) => {
  it('clear forgets every entity and event; the scene then works as new; dispose ends it', () => {
    const scene = new Scene({ backend, index: 'grid', defaultRange: 2 });
    const ids = Int32Array.from({ length: 100 }, (_, i) => i);
    scene.addMany(ids, Float64Array.from(ids, (i) => i % 10), Float64Array.from(ids, (i) => Math.floor(i / 10)));
    scene.move(5, 50, 50);
    scene.clear();
    expect(scene.size).toBe(0);
    expect(scene.drain()).toEqual([]);
    expect(scene.queryBox(-1e9, -1e9, 1e9, 1e9)).toEqual([]);
    scene.add(5, 0, 0);
    scene.add(6, 1, 1);
    expect(normalize(scene.drain())).toEqual(['enter 5 6', 'enter 6 5']);
    expect(scene.query(5)).toEqual([6]);
    expect(scene.watchers(6)).toEqual([5]);
    expect(scene.position(6)).toEqual({ x: 1, y: 1, z: 0 });
    scene.dispose();
    expect(code(() => scene.size)).toBe('DISPOSED');
  });
});

describe('Scene grid memory', () => {
  it('a wasm grid scene reports the linear memory it holds, and gives cells back when entities leave', () => {
    const scene = new Scene({ index: 'grid', defaultRange: 1 });
    const empty = scene.memoryBytes;
    const ids = Int32Array.from({ length: 1000 }, (_, i) => i);
    scene.addMany(ids, Float64Array.from(ids, (i) => i * 3), Float64Array.from(ids, (i) => i * 7));
    const full = scene.memoryBytes;
    expect(full).toBeGreaterThan(empty + 1000 * 40);
    for (const i of ids) scene.remove(i);
    expect(scene.memoryBytes).toBeLessThan(full - 1000 * 40);
    scene.dispose();
  });
});
