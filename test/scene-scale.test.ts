// One scene holds 1,000,000 entities and answers queries about them.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene } from '../src/index.js';

beforeAll(() => init());

describe('Scene at scale', () => {
  it('adds 1,000,000 entities (wasm, addMany, scrambled order) and queries them', () => {
    const n = 1_000_000;
    // Entity j stands at x = j, y = a scramble of j: a known answer for every query.
    const yOf = (j: number): number => (j * 7919) % 10007;
    const ids = new Int32Array(n);
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const j = (i * 999_983) % n; // scrambled insertion order
      ids[i] = j;
      xs[i] = j;
      ys[i] = yOf(j);
    }
    const scene = new Scene({ defaultRange: 2 });
    scene.addMany(ids, xs, ys);
    expect(scene.size).toBe(n);
    const sees = (a: number, b: number): boolean => a !== b && Math.abs(a - b) <= 2 && Math.abs(yOf(a) - yOf(b)) <= 2;
    let pairs = 0;
    for (let j = 0; j < n; j++) for (let d = 1; d <= 2; d++) if (j + d < n && sees(j, j + d)) pairs++;
    expect(scene.drainArray().length / 3).toBe(2 * pairs);
    for (const probe of [0, 1, 5000, 123_456, 999_999]) {
      const expected = [];
      for (let k = probe - 2; k <= probe + 2; k++) if (k >= 0 && k < n && sees(probe, k)) expected.push(k);
      expect(scene.query(probe)).toEqual(expected);
      expect(scene.watchers(probe)).toEqual(expected);
    }
    expect(scene.queryBox(500_000, 0, 500_009, 10_007)).toEqual([...Array(10).keys()].map((k) => 500_000 + k));
    scene.move(7, 500_000.5, yOf(500_000));
    expect(scene.query(7)).toContain(500_000);
    expect(scene.watchers(7)).toContain(500_000);
    scene.dispose();
  });
});
