// One scene holds 1,000,000 entities and answers queries about them.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene } from '../../src/index.js';

beforeAll(() => init());

describe.each(['grid', 'lists'] as const)('Scene at scale (%s index)', (index) => {
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
    const scene = new Scene({ index, defaultRange: 2 });
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

  it('keeps a 100,000-entity 2-D scene (range 50 in 10,000 x 10,000) under 64 MiB of wasm memory', () => {
    const n = 100_000;
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const xs = Float64Array.from({ length: n }, () => random() * 10_000);
    const ys = Float64Array.from({ length: n }, () => random() * 10_000);
    const scene = new Scene({ index, defaultRange: 50 });
    scene.addMany(ids, xs, ys);
    scene.drainArray();
    expect(scene.memoryBytes).toBeGreaterThan(0);
    expect(scene.memoryBytes).toBeLessThan(64 * 2 ** 20);
    scene.dispose();
  });

  it('runs several wasm scenes side by side in one module, each matching its js twin', () => {
    const pairs = [1, 2, 3].map(() => [new Scene({ index, defaultRange: 3 }), new Scene({ backend: 'js', index, defaultRange: 3 })]);
    let seed = 99;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    for (let step = 0; step < 3000; step++) {
      const [wasm, js] = pairs[step % 3];
      const id = Math.floor(random() * 200);
      const x = Math.round(random() * 80);
      const y = Math.round(random() * 80);
      for (const s of [wasm, js]) {
        if (!s.has(id)) s.add(id, x, y);
        else if (step % 7 === 0) s.remove(id);
        else s.move(id, x, y);
      }
      const key = (e: { type: string; watcher: number; target: number }): string => `${e.type} ${e.watcher} ${e.target}`;
      expect(wasm.drain().map(key).sort()).toEqual(js.drain().map(key).sort());
    }
    for (const [wasm, js] of pairs) {
      expect(wasm.queryBox(0, 0, 80, 80)).toEqual(js.queryBox(0, 0, 80, 80));
      wasm.dispose();
    }
  });
});
