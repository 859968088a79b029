// Scene.hold: a pair held only by a margin carries over from elsewhere. The
// watcher starts seeing a target inside its grown range (with an enter), and
// from then on the pair behaves as one seen all along.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, type Backend, type SceneIndex } from '../../src/index.js';
import { codeOf } from '../support/codes.js';

beforeAll(() => init());

describe.each<[Backend, SceneIndex]>([
  ['wasm', 'lists'],
  ['wasm', 'grid'],
  ['js', 'lists'],
  ['js', 'grid'],
])('Scene.hold (%s, %s index)', (backend, index) => {
  it('makes a target inside range + margin seen, and it stays seen until it leaves the grown range', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, 5, { margin: 2 });
    scene.add(2, 6, 0, null);
    scene.add(3, 8, 0, null);
    scene.drain();
    scene.hold(1, 2);
    scene.hold(1, 3); // beyond range + margin: nothing
    scene.hold(1, 2); // seen already: nothing
    expect(scene.drain()).toEqual([{ type: 'enter', watcher: 1, target: 2 }]);
    expect(scene.query(1)).toEqual([2]);
    scene.move(2, 7, 0);
    expect(scene.drain()).toEqual([{ type: 'move', watcher: 1, target: 2 }]);
    scene.move(2, 7.5, 0);
    expect(scene.drain()).toEqual([{ type: 'leave', watcher: 1, target: 2 }]);
    expect(codeOf(() => scene.hold(1, 9))).toBe('UNKNOWN_ID');
    scene.dispose();
  });

  it('does nothing for a marker, a watcher without margin, or masks that do not meet', () => {
    const scene = new Scene({ backend, index });
    scene.add(1, 0, 0, null);
    scene.add(2, 0, 6, 5);
    scene.add(3, 0, 0, 5, { margin: 2, sees: 2 });
    scene.drain();
    scene.hold(1, 2);
    scene.hold(2, 1);
    scene.hold(3, 2);
    expect(scene.drain()).toEqual([]);
    scene.dispose();
  });
});
