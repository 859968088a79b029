import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, type AoiEvent } from '../../src/index.js';
import { normalize } from './oracle.js';

beforeAll(() => init());

const backends = ['wasm', 'js'] as const;
/** Every backend with every index: the facts below hold for each. */
const cores = backends.flatMap((backend) => (['grid', 'lists'] as const).map((index) => [backend, index] as const));

/** Shorthand for an expected event multiset: 'enter 1 2' means 1 starts seeing 2. */
const facts = (...lines: string[]): string[] => [...lines].sort();
const drained = (scene: Scene): string[] => normalize(scene.drain());

describe.each(cores)('Scene (%s, %s index): the seed worked examples', (backend, index) => {
  it('d(3,3) with range 2 sees a, b, c, e and not f; after moving to (4,4) it sees b, e, f; removed, nobody sees it', () => {
    const [a, b, c, d, e, f] = [1, 2, 3, 4, 5, 6];
    const scene = new Scene({ backend, index, defaultRange: 2 });
    scene.add(a, 1, 5);
    scene.add(f, 6, 6);
    scene.add(c, 3, 1);
    scene.add(b, 2, 2);
    scene.add(e, 5, 3);
    scene.add(d, 3, 3);
    expect(scene.query(d)).toEqual([a, b, c, e]);
    expect(scene.watchers(d)).toEqual([a, b, c, e]);
    scene.move(d, 4, 4);
    expect(scene.query(d)).toEqual([b, e, f]);
    expect(scene.watchers(d)).toEqual([b, e, f]);
    scene.remove(d);
    expect(scene.has(d)).toBe(false);
    for (const other of [a, b, c, e, f]) {
      expect(scene.query(other)).not.toContain(d);
      expect(scene.watchers(other)).not.toContain(d);
    }
    expect(scene.queryBox(-100, -100, 100, 100)).toEqual([a, b, c, e, f]);
    expect(scene.size).toBe(5);
    scene.dispose();
  });

  it('the seed event script: exact events after each step', () => {
    const scene = new Scene({ backend, index, defaultRange: 2 });
    scene.add(1, 1, 5);
    expect(drained(scene)).toEqual([]);
    scene.add(2, 2, 2);
    expect(drained(scene)).toEqual([]);
    scene.add(3, 3, 1);
    expect(drained(scene)).toEqual(facts('enter 2 3', 'enter 3 2'));
    scene.add(4, 5, 3);
    expect(drained(scene)).toEqual(facts('enter 3 4', 'enter 4 3'));
    scene.add(5, 6, 6);
    expect(drained(scene)).toEqual([]);
    scene.add(6, 3, 3);
    expect(drained(scene)).toEqual(
      facts('enter 1 6', 'enter 6 1', 'enter 2 6', 'enter 6 2', 'enter 3 6', 'enter 6 3', 'enter 4 6', 'enter 6 4'),
    );
    scene.move(6, 4, 4);
    expect(drained(scene)).toEqual(
      facts('leave 1 6', 'leave 6 1', 'move 2 6', 'leave 3 6', 'leave 6 3', 'move 4 6', 'enter 5 6', 'enter 6 5'),
    );
    scene.remove(1);
    expect(drained(scene)).toEqual([]);
    scene.remove(2);
    expect(drained(scene)).toEqual(facts('leave 3 2', 'leave 2 3', 'leave 6 2', 'leave 2 6'));
    scene.remove(3);
    expect(drained(scene)).toEqual(facts('leave 4 3', 'leave 3 4'));
    scene.remove(4);
    expect(drained(scene)).toEqual(facts('leave 6 4', 'leave 4 6'));
    scene.remove(5);
    expect(drained(scene)).toEqual(facts('leave 5 6', 'leave 6 5'));
    scene.remove(6);
    expect(drained(scene)).toEqual([]);
    expect(scene.size).toBe(0);
    scene.dispose();
  });
});

describe.each(cores)('Scene (%s, %s index): semantics', (backend, index) => {
  it('keeps order when an entity moves below the smallest x and y (the seed backward walk never checked the head)', () => {
    const scene = new Scene({ backend, index, defaultRange: 2 });
    scene.add(1, 5, 5);
    scene.add(2, 6, 5);
    scene.add(3, 7, 5);
    scene.drain();
    scene.move(3, 0, 0); // smaller than every x and y in the lists
    expect(drained(scene)).toEqual(facts('leave 1 3', 'leave 3 1', 'leave 2 3', 'leave 3 2'));
    scene.add(4, 1, 1);
    expect(drained(scene)).toEqual(facts('enter 3 4', 'enter 4 3'));
    scene.move(1, -1, -1);
    expect(drained(scene)).toEqual(
      facts('leave 2 1', 'leave 1 2', 'enter 3 1', 'enter 1 3', 'enter 4 1', 'enter 1 4'),
    );
    scene.move(2, -0.5, 0.5);
    expect(drained(scene)).toEqual(
      facts('enter 1 2', 'enter 2 1', 'enter 3 2', 'enter 2 3', 'enter 4 2', 'enter 2 4'),
    );
    expect(scene.queryBox(-10, -10, 10, 10)).toEqual([1, 2, 3, 4]);
    expect(scene.query(3)).toEqual([1, 2, 4]);
  });

  it('sees asymmetrically when ranges differ', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 10);
    scene.add(2, 5, 0, 1);
    expect(drained(scene)).toEqual(facts('enter 1 2'));
    expect(scene.query(1)).toEqual([2]);
    expect(scene.query(2)).toEqual([]);
    expect(scene.watchers(2)).toEqual([1]);
    scene.move(2, 1, 0);
    expect(drained(scene)).toEqual(facts('move 1 2', 'enter 2 1'));
    scene.move(1, 20, 0); // 1 sees 2 no more; 2 no longer sees 1
    expect(drained(scene)).toEqual(facts('leave 1 2', 'leave 2 1'));
  });

  it('uses per-axis half-extents', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, { x: 10, y: 1 });
    scene.add(2, 9, 0, null);
    scene.add(3, 0, 2, null);
    expect(scene.query(1)).toEqual([2]);
    scene.setRange(1, { x: 1, y: 10 });
    expect(drained(scene)).toEqual(facts('enter 1 2', 'leave 1 2', 'enter 1 3'));
    expect(scene.query(1)).toEqual([3]);
  });

  it('treats null ranges as markers: seen, watching nothing', () => {
    const scene = new Scene({ backend, index, defaultRange: 5 });
    scene.add(1, 0, 0, null);
    scene.add(2, 1, 1);
    expect(drained(scene)).toEqual(facts('enter 2 1'));
    expect(scene.query(1)).toEqual([]);
    expect(scene.watchers(1)).toEqual([2]);
    scene.move(1, 2, 2);
    expect(drained(scene)).toEqual(facts('move 2 1'));
    scene.setRange(1, 3);
    expect(drained(scene)).toEqual(facts('enter 1 2'));
    scene.setRange(1, null);
    expect(drained(scene)).toEqual(facts('leave 1 2'));
    scene.remove(1);
    expect(drained(scene)).toEqual(facts('leave 2 1'));
  });

  it('counts an entity exactly on the box edge as inside, whatever the arrival order', () => {
    for (const order of [[1, 2, 3], [3, 2, 1], [2, 3, 1]]) {
      const scene = new Scene({ backend, index, defaultRange: 2 });
      const at: Record<number, [number, number]> = { 1: [0, 0], 2: [2, -2], 3: [-2, 2] };
      for (const id of order) scene.add(id, ...at[id]);
      expect(scene.query(1)).toEqual([2, 3]);
      scene.move(1, 0.5, 0); // 3 is now 2.5 away on x
      expect(scene.query(1)).toEqual([2]);
      scene.move(1, 0, 0); // back onto the edge
      expect(scene.query(1)).toEqual([2, 3]);
    }
  });

  it('coincident entities see each other; range 0 sees exactly its own point', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 3, 3, 0);
    scene.add(2, 3, 3, 0);
    scene.add(3, 3, 3.5, 0);
    expect(drained(scene)).toEqual(facts('enter 1 2', 'enter 2 1'));
    expect(scene.query(1)).toEqual([2]);
  });

  it('gives one enter or leave per pair on a diagonal move across a box corner', () => {
    const scene = new Scene({ backend, index, defaultRange: 2 });
    scene.add(1, 0, 0);
    scene.add(2, 3, 3);
    scene.drain();
    scene.move(2, 1, 1);
    expect(drained(scene)).toEqual(facts('enter 1 2', 'enter 2 1'));
    scene.move(2, -3, -3);
    expect(drained(scene)).toEqual(facts('leave 1 2', 'leave 2 1'));
    scene.move(2, -3, 2); // crosses the y band only, stays out on x
    expect(drained(scene)).toEqual([]);
  });

  it('reports no event for a move to the current position, and teleports like walks', () => {
    const scene = new Scene({ backend, index, defaultRange: 2 });
    scene.add(1, 0, 0);
    scene.add(2, 1, 0);
    scene.add(3, 1000, 1000);
    scene.drain();
    scene.move(2, 1, 0);
    expect(drained(scene)).toEqual([]);
    scene.move(2, 1, -0); // equal to where it stands: no event, but the position is the one given
    expect(drained(scene)).toEqual([]);
    expect(Object.is(scene.position(2).y, -0)).toBe(true);
    scene.moveMany([2], [1], [0]);
    expect(drained(scene)).toEqual([]);
    expect(Object.is(scene.position(2).y, 0)).toBe(true);
    scene.move(2, 1000, 999);
    expect(drained(scene)).toEqual(facts('leave 1 2', 'leave 2 1', 'enter 3 2', 'enter 2 3'));
    scene.move(2, -1, -1);
    expect(drained(scene)).toEqual(facts('enter 1 2', 'enter 2 1', 'leave 3 2', 'leave 2 3'));
  });

  it('works in 3-D, with z in view boxes and in queryBox', () => {
    const scene = new Scene({ backend, index, dimensions: 3, defaultRange: 2 });
    scene.add3(1, 0, 0, 0);
    scene.add3(2, 1, 1, 5);
    scene.add3(3, 1, 1, 2, { x: 1, y: 1, z: 3 });
    expect(drained(scene)).toEqual(facts('enter 1 3', 'enter 3 1', 'enter 3 2'));
    scene.move(2, 1, 1, 1);
    expect(drained(scene)).toEqual(facts('enter 1 2', 'enter 2 1', 'move 3 2', 'enter 2 3'));
    expect(scene.position(2)).toEqual({ x: 1, y: 1, z: 1 });
    expect(scene.queryBox(0, 0, 1, 1, 0.5, 1.5)).toEqual([2]);
    expect(scene.queryBox(-5, -5, 5, 5)).toEqual([1, 2, 3]);
  });

  it('reports positions, size, has; drainArray gives the flat form; clear empties', () => {
    const scene = new Scene({ backend, index, defaultRange: 2 });
    scene.add(7, -3.25, 4);
    scene.add(8, -2, 4);
    expect(scene.position(7)).toEqual({ x: -3.25, y: 4, z: 0 });
    expect(scene.size).toBe(2);
    expect(scene.has(7)).toBe(true);
    expect(scene.has(9)).toBe(false);
    const flat = scene.drainArray();
    expect(flat).toBeInstanceOf(Int32Array);
    const pairs = [];
    for (let i = 0; i < flat.length; i += 3) pairs.push(`${flat[i]} ${flat[i + 1]} ${flat[i + 2]}`);
    expect(pairs.sort()).toEqual(['0 7 8', '0 8 7']);
    expect(scene.drainArray().length).toBe(0);
    scene.move(8, -2, 5);
    const events: AoiEvent[] = scene.drain();
    expect(events).toContainEqual({ type: 'move', watcher: 7, target: 8 });
    scene.clear();
    expect(scene.size).toBe(0);
    expect(scene.drain()).toEqual([]);
    scene.add(7, 0, 0);
    scene.add(8, 1, 1);
    expect(drained(scene)).toEqual(facts('enter 7 8', 'enter 8 7'));
  });

  it('moveMany and addMany give the events of as many single calls', () => {
    const batch = new Scene({ backend, index, defaultRange: 2 });
    const single = new Scene({ backend, index, defaultRange: 2 });
    const ids = Int32Array.from([1, 2, 3, 4]);
    const xs = Float64Array.from([0, 1, 5, 6]);
    const ys = Float64Array.from([0, 1, 5, 9]);
    batch.addMany(ids, xs, ys, undefined, Float64Array.from([2, 2, 3, 1]));
    single.add(1, 0, 0, 2);
    single.add(2, 1, 1, 2);
    single.add(3, 5, 5, 3);
    single.add(4, 6, 9, 1);
    expect(drained(batch)).toEqual(drained(single));
    const mIds = Int32Array.from([1, 3, 1]);
    const mx = Float64Array.from([3, 2, 4]);
    const my = Float64Array.from([3, 2, 9]);
    batch.moveMany(mIds, mx, my);
    for (let k = 0; k < 3; k++) single.move(mIds[k], mx[k], my[k]);
    expect(drained(batch)).toEqual(drained(single));
    expect(batch.position(1)).toEqual({ x: 4, y: 9, z: 0 });
  });
});

describe.each(backends)('Scene (%s): ids far apart and dense ids together', (backend) => {
  it('the largest id, an id added before the smaller ones around it, and those are all found, moved and removed', () => {
    const scene = new Scene({ backend, index: 'grid', defaultRange: 2 });
    const top = 2 ** 31 - 1;
    const early = 1500;
    scene.add(top, 0, 0);
    scene.add(early, 1, 0);
    const small = Int32Array.from({ length: 3000 }, (_, i) => i).filter((i) => i !== early);
    scene.addMany(small, Float64Array.from(small, (i) => 100 + (i % 40) * 10), Float64Array.from(small, (i) => Math.floor(i / 40) * 10));
    scene.drainArray();
    expect(scene.size).toBe(3001);
    expect(scene.ids()).toEqual([...Array.from({ length: 3000 }, (_, i) => i), top]);
    expect(scene.has(early) && scene.has(top) && scene.has(2999)).toBe(true);
    expect(scene.has(3000) || scene.has(early + 0.5) || scene.has(String(early) as unknown as number) || scene.has(-1)).toBe(false);
    scene.moveMany([top, early, 7], [0.5, 1.5, 170], [0, 0, 0.5]);
    expect(normalize(scene.drain())).toEqual(facts(`move ${early} ${top}`, `move ${top} ${early}`));
    expect(scene.query(early)).toEqual([top]);
    expect(scene.remove(early)).toBe(true);
    expect(scene.remove(early)).toBe(false);
    expect(scene.has(early)).toBe(false);
    expect(() => scene.moveMany([top, early], [1, 2], [1, 2])).toThrow(expect.objectContaining({ code: 'UNKNOWN_ID' }));
    expect(scene.position(top)).toEqual({ x: 0.5, y: 0, z: 0 });
    expect(scene.ids().length).toBe(3000);
  });
});
