// A Scene at its limits: a call that would leave more pending events than
// maxPendingEvents, or more entities than its index holds, is refused whole
// on both backends and changes nothing, pending events included; in 'net'
// mode what is pending is folded before anything is refused.
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, SpatialError } from '../../src/index.js';
import { DEFAULT_LIMITS, LIMITS } from '../../src/core/internals.js';
import { codeOf } from '../support/codes.js';
import { runCapped, type CappedOp } from './capped.js';
import { opArb } from './ops.js';

beforeAll(() => init());
afterEach(() => {
  Object.assign(LIMITS, DEFAULT_LIMITS);
});

const cappedOps = (dimensions: 2 | 3): fc.Arbitrary<CappedOp[]> =>
  fc.array(fc.oneof({ weight: 12, arbitrary: opArb(dimensions, false) as fc.Arbitrary<CappedOp> }, { weight: 1, arbitrary: fc.constant({ kind: 'drain' as const }) }), { minLength: 1, maxLength: 60 });

describe.each(['lists', 'grid'] as const)('Scene limits (%s index): wasm, js and the oracle agree on what is refused', (index) => {
  for (const dimensions of [2, 3] as const) {
    it(`${dimensions}-D: random calls against a small maxPendingEvents and a lowered entity limit`, () => {
      let refused = 0;
      fc.assert(
        fc.property(cappedOps(dimensions), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 10 }), (ops, maxPending, maxEntities) => {
          LIMITS[index === 'grid' ? 'sceneGridEntities' : 'sceneListsEntities'] = maxEntities;
          refused += runCapped(dimensions, ops, index, maxPending, maxEntities);
        }),
        { numRuns: 120 },
      );
      // The limits were within reach: many calls were refused.
      expect(refused).toBeGreaterThan(10);
    });
  }
});

describe.each(['wasm', 'js'] as const)('Scene limits (%s)', (backend) => {
  it('refuses an addMany whose enter events would pass maxPendingEvents, keeping what was pending', () => {
    for (const index of ['lists', 'grid'] as const) {
      const scene = new Scene({ backend, index, defaultRange: 1, maxPendingEvents: 100 });
      scene.add(1000, 0, 0);
      scene.add(1001, 0.5, 0);
      const crowd = Array.from({ length: 40 }, (_, k) => k);
      const zeros = crowd.map(() => 0);
      // 40 newcomers at one point with the two already there: 41 * 42 enter events.
      expect(codeOf(() => scene.addMany(crowd, zeros, zeros))).toBe('LIMIT_EXCEEDED');
      expect(scene.size).toBe(2);
      expect(scene.query(1000)).toEqual([1001]);
      expect(scene.drain()).toEqual([
        { type: 'enter', watcher: 1000, target: 1001 },
        { type: 'enter', watcher: 1001, target: 1000 },
      ]);
      // A batch that fits goes through: 7 newcomers make 8 * 9 - 2 enter events.
      scene.addMany(crowd.slice(0, 7), zeros.slice(0, 7), zeros.slice(0, 7));
      expect(scene.drain().length).toBe(70);
      scene.dispose();
    }
  });

  it('refuses a move, a setRange, a setLayers and a remove that would pass it', () => {
    const scene = new Scene({ backend, index: 'grid', defaultRange: 5, maxPendingEvents: 9 });
    for (let k = 0; k < 5; k++) {
      scene.add(k, k, 0);
      scene.drain();
    }
    scene.add(9, 100, 0);
    // Entity 9 walking into the group: 5 enters each way.
    expect(codeOf(() => scene.move(9, 2, 0))).toBe('LIMIT_EXCEEDED');
    expect(scene.position(9)).toEqual({ x: 100, y: 0, z: 0 });
    expect(scene.pendingLength).toBe(0);
    // Entity 0 seeing nothing: 4 leaves. Twice makes 8, three times passes 9.
    scene.setRange(0, 0);
    scene.setRange(0, 5);
    expect(scene.pendingLength).toBe(24);
    expect(codeOf(() => scene.setRange(0, 0))).toBe('LIMIT_EXCEEDED');
    expect(codeOf(() => scene.setLayers(1, 1, 0))).toBe('LIMIT_EXCEEDED');
    expect(codeOf(() => scene.remove(2))).toBe('LIMIT_EXCEEDED');
    expect(scene.query(0)).toEqual([1, 2, 3, 4]);
    expect(scene.watchers(2)).toEqual([0, 1, 3, 4]);
    expect(scene.drain().length).toBe(8);
    expect(scene.remove(2)).toBe(true);
    scene.dispose();
  });

  it("in 'net' mode folds what is pending instead of refusing, as long as the folded events fit", () => {
    // Four entities who all see each other: 12 pairs, at most two events each once folded.
    const limited = new Scene({ backend, events: 'net', defaultRange: 10, maxPendingEvents: 30 });
    const free = new Scene({ backend, events: 'net', defaultRange: 10 });
    for (const scene of [limited, free]) for (let k = 0; k < 4; k++) scene.add(k, k, 0);
    // 200 rounds of four moves: 2,400 move events logged.
    for (let round = 0; round < 200; round++) {
      for (let k = 0; k < 4; k++) for (const scene of [limited, free]) scene.move(k, k + (round % 3), round % 2);
    }
    expect(limited.drain()).toEqual(free.drain());
    // Six who all see each other make 30 pairs: more than 30 events even folded, once each has moved twice.
    for (const scene of [limited, free]) {
      scene.add(4, 4, 0);
      scene.add(5, 5, 0);
    }
    limited.drain();
    for (let k = 0; k < 6; k++) limited.move(k, k, 1);
    expect(codeOf(() => limited.move(0, 0, 2))).toBe('LIMIT_EXCEEDED');
    expect(limited.position(0)).toEqual({ x: 0, y: 1, z: 0 });
    expect(limited.drain().length).toBe(30);
    limited.dispose();
    free.dispose();
  });

  it('refuses entities past the index limit, one by one and in a batch', () => {
    LIMITS.sceneListsEntities = 10;
    LIMITS.sceneGridEntities = 12;
    for (const [index, most] of [['lists', 10], ['grid', 12]] as const) {
      const scene = new Scene({ backend, index });
      scene.addMany(Array.from({ length: most - 2 }, (_, k) => k), new Array(most - 2).fill(0), new Array(most - 2).fill(0));
      expect(codeOf(() => scene.addMany([100, 101, 102], [0, 0, 0], [0, 0, 0]))).toBe('LIMIT_EXCEEDED');
      expect(scene.size).toBe(most - 2);
      scene.add(100, 0, 0);
      scene.add(101, 0, 0);
      expect(codeOf(() => scene.add(102, 0, 0))).toBe('LIMIT_EXCEEDED');
      expect(scene.has(102)).toBe(false);
      scene.remove(0);
      scene.add(102, 0, 0);
      expect(scene.size).toBe(most);
      scene.dispose();
    }
  });

  it('checks maxPendingEvents', () => {
    for (const bad of [0, -1, 1.5, NaN, DEFAULT_LIMITS.pendingEvents + 1, '10' as unknown as number]) {
      expect(codeOf(() => new Scene({ backend, maxPendingEvents: bad }))).toBe('INVALID_ARGUMENT');
    }
    expect(new Scene({ backend }).maxPendingEvents).toBe(DEFAULT_LIMITS.pendingEvents);
  });

  it('drainInto a detached buffer is INVALID_ARGUMENT whether or not events are pending', () => {
    const scene = new Scene({ backend });
    const detached = new Int32Array(8);
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    expect(codeOf(() => scene.drainInto(detached))).toBe('INVALID_ARGUMENT');
    scene.add(1, 0, 0);
    scene.add(2, 0, 0);
    expect(codeOf(() => scene.drainInto(detached))).toBe('INVALID_ARGUMENT');
    expect(scene.pendingLength).toBe(6);
    expect(scene.drainInto(new Int32Array(6))).toBe(6);
    expect(scene.drainInto(new Int32Array(0))).toBe(0);
  });
});

it('LIMIT_EXCEEDED is a SpatialError that says what to do', () => {
  const scene = new Scene({ backend: 'js', maxPendingEvents: 1 });
  scene.add(1, 0, 0);
  try {
    scene.add(2, 0, 0);
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(SpatialError);
    expect((error as SpatialError).message).toMatch(/drain more often/);
  }
});
