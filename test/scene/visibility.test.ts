// Visibility rules beyond the box: circle (sphere) ranges and layer masks, on every backend and index.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene } from '../../src/index.js';
import { normalize } from './oracle.js';

beforeAll(() => init());

const facts = (...lines: string[]): string[] => [...lines].sort();
const drained = (scene: Scene): string[] => normalize(scene.drain());

const cores = [
  ['wasm', 'lists'],
  ['js', 'lists'],
  ['wasm', 'grid'],
  ['js', 'grid'],
] as const;

describe.each(cores)('Scene (%s, %s): circle ranges', (backend, index) => {
  it('a circle is closed: (3, 4) is on the rim of radius 5, (3.5, 4) is in the bounding box but outside', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, { radius: 5 });
    scene.add(2, 3, 4, null);
    scene.add(3, 3.5, 4, null);
    expect(drained(scene)).toEqual(facts('enter 1 2'));
    expect(scene.query(1)).toEqual([2]);
    expect(scene.watchers(3)).toEqual([]);
    // A step inside the bounding box, across the rim: out, then in again.
    scene.move(2, 3.5, 4);
    scene.move(3, 3, 4);
    expect(scene.drain().map((e) => `${e.type} ${e.watcher} ${e.target}`)).toEqual(['leave 1 2', 'enter 1 3']);
    expect(scene.query(1)).toEqual([3]);
  });

  it('a watcher with a circle walking: what it sees follows its rim', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, null);
    scene.add(2, -4, -4, { radius: 5 });
    expect(drained(scene)).toEqual([]);
    scene.move(2, -3, -4); // (1 - 2) = (3, 4): on the rim
    expect(drained(scene)).toEqual(facts('enter 2 1'));
    expect(scene.watchers(1)).toEqual([2]);
  });

  it('setRange switches between a box and a circle, with the events of the change', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 4);
    scene.add(2, 4, 4, null); // a corner of the box, outside the circle of radius 4
    scene.add(3, 0, 4, null);
    scene.drain();
    scene.setRange(1, { radius: 4 });
    expect(drained(scene)).toEqual(facts('leave 1 2'));
    scene.setRange(1, { radius: 6 });
    expect(drained(scene)).toEqual(facts('enter 1 2'));
    scene.setRange(1, { x: 1, y: 4 });
    expect(drained(scene)).toEqual(facts('leave 1 2'));
    expect(scene.query(1)).toEqual([3]);
  });

  it('the only circle leaving the scene, or turning into a box, is judged by its old circle', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, { radius: 5 });
    scene.add(2, 4, 4, null); // in the bounding box, outside the circle
    scene.add(3, 3, 4, null);
    scene.drain();
    scene.setRange(1, 5);
    expect(drained(scene)).toEqual(facts('enter 1 2'));
    scene.setRange(1, { radius: 5 });
    expect(drained(scene)).toEqual(facts('leave 1 2'));
    scene.remove(1);
    expect(drained(scene)).toEqual(facts('leave 1 3'));
  });

  it('in 3-D a radius is a sphere: dz counts', () => {
    const scene = new Scene({ backend, index, dimensions: 3 });
    scene.add3(1, 0, 0, 0, { radius: 3 });
    scene.add3(2, 2, 2, 0, null); // 8 <= 9
    scene.add3(3, 2, 2, 1, null); // 9 <= 9: on the sphere
    scene.add3(4, 2, 2, 1.5, null); // 10.25 > 9
    expect(scene.query(1)).toEqual([2, 3]);
    scene.move(4, 2, 2, -1);
    expect(drained(scene)).toEqual(facts('enter 1 2', 'enter 1 3', 'enter 1 4'));
  });
});

describe.each(cores)('Scene (%s, %s): layers', (backend, index) => {
  it('W sees T only when W.sees & T.layer != 0; defaults are layer 1 and every bit seen', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 5); // layer 1, sees all
    scene.add(2, 1, 0, 5, { layer: 2, sees: 2 }); // a ghost: sees only ghosts
    scene.add(3, 2, 0, 5, { layer: 2 | 4, sees: 0 }); // sees nothing
    scene.add(4, 3, 0, 5, { layer: 0 }); // on no layer: seen by nobody
    expect(scene.query(1)).toEqual([2, 3]);
    expect(scene.query(2)).toEqual([3]);
    expect(scene.query(3)).toEqual([]);
    expect(scene.watchers(4)).toEqual([]);
    expect(scene.query(4)).toEqual([1, 2, 3]);
  });

  it('the only entity with masks going back to the defaults, or leaving, is judged by its old masks', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 5);
    scene.add(2, 1, 0, 5, { layer: 4, sees: 4 });
    expect(drained(scene)).toEqual(facts('enter 1 2'));
    scene.setLayers(2, 1, -1);
    expect(drained(scene)).toEqual(facts('enter 2 1'));
    scene.setLayers(2, 0, 0);
    expect(drained(scene)).toEqual(facts('leave 1 2', 'leave 2 1'));
    scene.remove(2);
    expect(drained(scene)).toEqual([]);
  });

  it('setLayers gives the enter and leave events it implies, as watcher and as target; masks use all 32 bits', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 5);
    scene.add(2, 1, 0, 5);
    scene.drain();
    scene.setLayers(2, 0x80000000, 0x80000000); // the sign bit: seen by 1 (sees all), sees only that layer
    expect(drained(scene)).toEqual(facts('leave 2 1'));
    scene.setLayers(1, 1, 1);
    expect(drained(scene)).toEqual(facts('leave 1 2'));
    scene.setLayers(1, -1, -1);
    expect(drained(scene)).toEqual(facts('enter 1 2', 'enter 2 1'));
    scene.setLayers(1, -1, -1); // no change: no event
    expect(drained(scene)).toEqual([]);
    scene.move(2, 2, 0);
    expect(drained(scene)).toEqual(facts('move 1 2'));
  });
});
