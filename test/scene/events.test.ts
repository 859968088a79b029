// The Scene's event streams on every backend and index, against the
// brute-force oracle: the ordered log (each pair's history in order), the
// net view, moveEvents false, the grouped drain and drainInto. Random
// sequences favour what reorders a pair's events: an entity moving several
// times in one moveMany, watcher and target both moving, removal and re-adds.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTER, init, LEAVE, MOVE, Scene, SpatialError, type AoiEvent, type SceneIndex } from '../../src/index.js';
import { AoiOracle, normalize, type Fact } from './oracle.js';

beforeAll(() => init());

type Op =
  | { kind: 'add'; id: number; x: number; y: number; range: number }
  | { kind: 'moveMany'; moves: Array<{ id: number; x: number; y: number }> }
  | { kind: 'remove'; id: number }
  | { kind: 'setRange'; id: number; range: number; round: boolean }
  | { kind: 'setLayers'; id: number; layer: number; sees: number }
  | { kind: 'drain' }
  /** Reads pendingLength: the events it takes from the core must still come out of the next drain. */
  | { kind: 'peek' };

const id = fc.integer({ min: 0, max: 7 });
const coord = fc.integer({ min: -12, max: 12 }).map((v) => v / 2);
const range = fc.constantFrom(0, 1, 2, 3.5);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), id, x: coord, y: coord, range }) },
  { weight: 6, arbitrary: fc.array(fc.record({ id, x: coord, y: coord }), { minLength: 1, maxLength: 10 }).map((moves) => ({ kind: 'moveMany' as const, moves })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setRange' as const), id, range, round: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setLayers' as const), id, layer: fc.constantFrom(1, 2, 3), sees: fc.constantFrom(-1, 1, 2) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'drain' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'peek' as const }) },
);

const CORES: Array<{ backend: 'wasm' | 'js'; index: SceneIndex }> = [
  { backend: 'wasm', index: 'lists' },
  { backend: 'js', index: 'lists' },
  { backend: 'wasm', index: 'grid' },
  { backend: 'js', index: 'grid' },
];

/** Applies one op to a scene and returns whether it was applied (the oracle decides validity first). */
function apply(scene: Scene | AoiOracle, op: Op): void {
  if (op.kind === 'peek') {
    if (scene instanceof Scene) expect(scene.pendingLength % 3).toBe(0);
    return;
  }
  if (scene instanceof AoiOracle) {
    if (op.kind === 'add') scene.add(op.id, [op.x, op.y, 0], [op.range, op.range, 0]);
    else if (op.kind === 'moveMany') for (const m of op.moves) scene.move(m.id, [m.x, m.y, 0]);
    else if (op.kind === 'remove') scene.remove(op.id);
    else if (op.kind === 'setRange') scene.setRange(op.id, [op.range, op.range, 0], op.round);
    else if (op.kind === 'setLayers') scene.setLayers(op.id, op.layer, op.sees);
    return;
  }
  if (op.kind === 'add') scene.add(op.id, op.x, op.y, op.range);
  else if (op.kind === 'moveMany') {
    scene.moveMany(
      op.moves.map((m) => m.id),
      op.moves.map((m) => m.x),
      op.moves.map((m) => m.y),
    );
  } else if (op.kind === 'remove') scene.remove(op.id);
  else if (op.kind === 'setRange') scene.setRange(op.id, op.round ? { radius: op.range } : op.range);
  else if (op.kind === 'setLayers') scene.setLayers(op.id, op.layer, op.sees);
}

/** Keeps ops valid for the entities present: adds of absent ids, the rest on present ones. */
function valid(ops: Op[]): Op[] {
  const present = new Set<number>();
  const out: Op[] = [];
  for (const op of ops) {
    if (op.kind === 'add') {
      if (present.has(op.id)) continue;
      present.add(op.id);
    } else if (op.kind === 'moveMany') {
      const moves = op.moves.filter((m) => present.has(m.id));
      if (moves.length === 0) continue;
      out.push({ kind: 'moveMany', moves });
      continue;
    } else if (op.kind === 'remove' || op.kind === 'setRange' || op.kind === 'setLayers') {
      if (!present.has(op.id)) continue;
      if (op.kind === 'remove') present.delete(op.id);
    }
    out.push(op);
  }
  return out;
}

/**
 * The same ops on ids moved up by `offset`: ids near 2^31 are numbered
 * through a hash table where small ones index an array.
 */
function shifted(ops: Op[], offset: number): Op[] {
  if (offset === 0) return ops;
  return ops.map((op) => {
    if (op.kind === 'drain' || op.kind === 'peek') return op;
    if (op.kind === 'moveMany') return { kind: 'moveMany', moves: op.moves.map((m) => ({ ...m, id: m.id + offset })) };
    return { ...op, id: op.id + offset };
  });
}

/** Ids small (0..7), across 2^16 (where a net fold of a short log stops indexing arrays by id), or near 2^31. */
const idOffset = fc.constantFrom(0, 65_532, 2_000_000_000);

const NAMES = ['enter', 'leave', 'move'] as const;

function facts(flat: Int32Array): Fact[] {
  const out: Fact[] = [];
  for (let i = 0; i < flat.length; i += 3) out.push([NAMES[flat[i]], flat[i + 1], flat[i + 2]]);
  return out;
}

/** Each (watcher, target) pair's events, in the order listed. */
function histories(events: Fact[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [type, w, t] of events) {
    const key = `${w} ${t}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key)!.push(type);
  }
  return out;
}

const asMap = (m: Map<string, string[]>): Record<string, string[]> => Object.fromEntries([...m].sort());

/** The pairs in the order of their first event. */
function firstOrder(events: Fact[]): string[] {
  return [...histories(events).keys()];
}

describe.each(CORES)('event streams ($backend backend, $index index)', ({ backend, index }) => {
  it("'log' lists each pair's history in the order it happened, as the oracle", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (raw) => {
        const scene = new Scene({ backend, index });
        const oracle = new AoiOracle(2);
        for (const op of [...valid(raw), { kind: 'drain' as const }]) {
          if (op.kind !== 'drain') {
            apply(scene, op);
            apply(oracle, op);
            continue;
          }
          const got = facts(scene.drainArray());
          const want = oracle.drain();
          expect(asMap(histories(got))).toEqual(asMap(histories(want)));
          expect(normalize(got)).toEqual(normalize(want));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("'net' reports each pair's change since the last drain, as the oracle's visible sets say, by watcher, then first-event order", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.boolean(), idOffset, (raw, moveEvents, offset) => {
        const net = new Scene({ backend, index, events: 'net', moveEvents });
        const log = new Scene({ backend, index, moveEvents });
        const oracle = new AoiOracle(2);
        for (const op of shifted([...valid(raw), { kind: 'drain' as const }], offset)) {
          if (op.kind !== 'drain') {
            for (const s of [net, log, oracle]) apply(s, op);
            continue;
          }
          const got = facts(net.drainArray());
          expect(normalize(got)).toEqual(normalize(oracle.drainNet(moveEvents)));
          const reported = new Set(got.map(([, w, t]) => `${w} ${t}`));
          const byWatcher = (a: string, b: string): number => Number(a.split(' ')[0]) - Number(b.split(' ')[0]);
          expect(got.map(([, w, t]) => `${w} ${t}`)).toEqual(firstOrder(facts(log.drainArray())).filter((k) => reported.has(k)).sort(byWatcher));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('moveEvents false produces the log without its move events, in the same order', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (raw) => {
        const quiet = new Scene({ backend, index, moveEvents: false });
        const full = new Scene({ backend, index });
        for (const op of valid(raw)) {
          if (op.kind === 'drain') {
            expect(facts(quiet.drainArray())).toEqual(facts(full.drainArray()).filter(([type]) => type !== 'move'));
          } else {
            apply(quiet, op);
            apply(full, op);
          }
        }
        expect(facts(quiet.drainArray())).toEqual(facts(full.drainArray()).filter(([type]) => type !== 'move'));
      }),
      { numRuns: 100 },
    );
  });

  it('drainGrouped is the drain sorted by watcher, stable, with each watcher at its offsets', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.constantFrom<'log' | 'net'>('log', 'net'), idOffset, (raw, events, offset) => {
        const grouped = new Scene({ backend, index, events });
        const flat = new Scene({ backend, index, events });
        for (const op of shifted([...valid(raw), { kind: 'drain' as const }], offset)) {
          if (op.kind !== 'drain') {
            apply(grouped, op);
            apply(flat, op);
            continue;
          }
          const g = grouped.drainGrouped();
          const plain = facts(flat.drainArray());
          const sorted = plain.map((f, k) => [f, k] as const).sort((a, b) => a[0][1] - b[0][1] || a[1] - b[1]).map(([f]) => f);
          expect(facts(g.events)).toEqual(sorted);
          expect([...g.watchers]).toEqual([...new Set(plain.map(([, w]) => w))].sort((a, b) => a - b));
          expect(g.offsets.length).toBe(g.watchers.length + 1);
          expect(g.offsets[g.watchers.length]).toBe(g.events.length);
          g.watchers.forEach((w, k) => {
            const slice = facts(g.events.subarray(g.offsets[k], g.offsets[k + 1]));
            expect(slice.length).toBeGreaterThan(0);
            expect(slice).toEqual(sorted.filter(([, watcher]) => watcher === w));
          });
        }
      }),
      { numRuns: 80 },
    );
  });

  it('drainInto writes the drain at an offset and returns its length; too small or not an Int32Array drains nothing', () => {
    for (const events of ['log', 'net'] as const) {
      const scene = new Scene({ backend, index, events, defaultRange: 5 });
      const twin = new Scene({ backend, index, events, defaultRange: 5 });
      for (const s of [scene, twin]) {
        s.add(1, 0, 0);
        s.add(2, 1, 1);
        s.add(3, 3, 0);
        s.move(2, 2, 2);
      }
      const want = twin.drainArray();
      const needed = scene.pendingLength;
      expect(needed).toBe(want.length);
      const small = new Int32Array(needed + 1);
      for (const bad of [() => scene.drainInto(small, 2), () => scene.drainInto(new Float64Array(64) as never), () => scene.drainInto([] as never), () => scene.drainInto(small, -1), () => scene.drainInto(small, 0.5)]) {
        const error = (() => {
          try {
            bad();
          } catch (e) {
            return e;
          }
          return null;
        })();
        expect(error).toBeInstanceOf(SpatialError);
        expect((error as SpatialError).code).toBe('INVALID_ARGUMENT');
      }
      expect(scene.pendingLength).toBe(needed);
      const buffer = new Int32Array(needed + 4).fill(-7);
      expect(scene.drainInto(buffer, 4)).toBe(needed);
      expect([...buffer.subarray(0, 4)]).toEqual([-7, -7, -7, -7]);
      expect([...buffer.subarray(4)]).toEqual([...want]);
      expect(scene.pendingLength).toBe(0);
      expect(scene.drainInto(new Int32Array(0))).toBe(0);
    }
  });

  it("'net' drainInto a buffer too small, with nothing asked before, drains nothing: events after it join the next drain", () => {
    const scene = new Scene({ backend, index, events: 'net', defaultRange: 5 });
    const twin = new Scene({ backend, index, events: 'net', defaultRange: 5 });
    for (const s of [scene, twin]) {
      s.add(1, 0, 0);
      s.add(2, 1, 1);
      s.add(3, 3, 0);
      s.drainArray();
      s.move(2, 2, 2);
      s.move(3, 9, 0);
    }
    expect(() => scene.drainInto(new Int32Array(3))).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    for (const s of [scene, twin]) s.move(3, 3, 0);
    const want = twin.drainArray();
    expect(want.length).toBeGreaterThan(3);
    expect([...scene.drainArray()]).toEqual([...want]);
  });

  it("'net' folds flip-flops, add-and-remove and moves back to nothing, and a target that ended elsewhere to a move", () => {
    const scene = new Scene({ backend, index, events: 'net', defaultRange: 2 });
    scene.add(1, 0, 0);
    scene.add(2, 1, 0);
    expect(scene.drain()).toEqual([
      { type: 'enter', watcher: 1, target: 2 },
      { type: 'enter', watcher: 2, target: 1 },
    ]);
    scene.move(2, 10, 0); // leave both ways
    scene.move(2, 1.5, 0); // enter both ways
    scene.add(3, 0, 1);
    scene.remove(3);
    expect(scene.drain()).toEqual<AoiEvent[]>([{ type: 'move', watcher: 1, target: 2 }]);
    scene.moveMany([2, 1, 2], [3, 0.5, 1.5], [0, 0, 0]); // 2 away and back, 1 steps
    expect(scene.drain()).toEqual<AoiEvent[]>([{ type: 'move', watcher: 2, target: 1 }]);
    scene.remove(2);
    scene.add(2, 1.5, 0);
    expect(scene.drain()).toEqual([]);
    scene.remove(2);
    scene.add(2, 1, 0); // back, elsewhere: 1 sees 2 move; 2 still sees 1 where it was
    expect(scene.drain()).toEqual<AoiEvent[]>([{ type: 'move', watcher: 1, target: 2 }]);
    scene.move(1, 9, 9);
    scene.move(1, 0.5, 0);
    scene.move(1, 9, 9);
    expect(scene.drain()).toEqual<AoiEvent[]>([
      { type: 'leave', watcher: 1, target: 2 },
      { type: 'leave', watcher: 2, target: 1 },
    ]);
  });

  it("'net' orders a watcher's pairs by their first event since the drain, whether or not pendingLength looked in between", () => {
    const run = (peek: boolean): AoiEvent[] => {
      const scene = new Scene({ backend, index, events: 'net', defaultRange: 1 });
      scene.add(1, 0, 0);
      scene.add(2, 0, 0); // 1 sees 2 first ...
      scene.move(2, 5, 0); // ... then stops: that pair nets to nothing so far
      scene.add(3, 0, 0); // 1 sees 3
      if (peek) expect(scene.pendingLength).toBe(6);
      scene.move(2, 0, 0); // 1 sees 2 again: its first event is still the oldest
      return scene.drain().filter((e) => e.watcher === 1);
    };
    const expected: AoiEvent[] = [
      { type: 'enter', watcher: 1, target: 2 },
      { type: 'enter', watcher: 1, target: 3 },
    ];
    expect(run(false)).toEqual(expected);
    expect(run(true)).toEqual(expected);
  });
});

describe('event options', () => {
  it('ENTER, LEAVE and MOVE are the flat type codes', () => {
    const scene = new Scene({ backend: 'js' });
    scene.add(1, 0, 0);
    scene.add(2, 1, 0);
    scene.move(2, 0, 1);
    scene.remove(2);
    const flat = scene.drainArray();
    expect([flat[0], flat[6], flat[12]]).toEqual([ENTER, MOVE, LEAVE]);
    expect([ENTER, LEAVE, MOVE]).toEqual([0, 1, 2]);
  });

  it.each(['wasm', 'js'] as const)('bad events or moveEvents values throw INVALID_ARGUMENT (%s)', (backend) => {
    for (const options of [{ events: 'all' }, { events: 1 }, { events: null }, { moveEvents: 0 }, { moveEvents: 'false' }, { moveEvents: null }]) {
      expect(() => new Scene({ backend, ...options } as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
    const scene = new Scene({ backend, events: 'net', moveEvents: false });
    expect([scene.events, scene.moveEvents]).toEqual(['net', false]);
    const plain = new Scene({ backend });
    expect([plain.events, plain.moveEvents]).toEqual(['log', true]);
  });

  it('clear forgets the net baseline: what is visible after it is new', () => {
    const scene = new Scene({ backend: 'js', events: 'net' });
    scene.add(1, 0, 0);
    scene.add(2, 1, 0);
    scene.drain();
    scene.clear();
    scene.add(1, 0, 0);
    scene.add(2, 1, 0);
    expect(normalize(scene.drain())).toEqual(['enter 1 2', 'enter 2 1']);
  });
});
