// Answers computed the slow, obvious way from what the page reports it drew.
import type { ScenePanelSnapshot, QuadTreeSnapshot } from '../../../demo/hook.js';

/** Ids the entity sees: every other entity inside its square range (closed). */
export function bruteSeen(s: ScenePanelSnapshot, watcher: number): number[] {
  const r = s.ranges[watcher]!;
  return s.ids.filter(
    (id) => id !== watcher && Math.abs(s.xs[id]! - s.xs[watcher]!) <= r && Math.abs(s.ys[id]! - s.ys[watcher]!) <= r,
  );
}

/** Ids that see the entity. */
export function bruteWatchers(s: ScenePanelSnapshot, target: number): number[] {
  return s.ids.filter(
    (id) =>
      id !== target &&
      Math.abs(s.xs[id]! - s.xs[target]!) <= s.ranges[id]! &&
      Math.abs(s.ys[id]! - s.ys[target]!) <= s.ranges[id]!,
  );
}

/** Every intersecting pair of rectangles (closed), flat [a, b, ...] sorted by (a, b). */
export function brutePairs(s: QuadTreeSnapshot): number[] {
  const r = s.rects;
  const n = r.length / 4;
  const pairs: number[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      if (r[4 * a]! <= r[4 * b + 2]! && r[4 * b]! <= r[4 * a + 2]! && r[4 * a + 1]! <= r[4 * b + 3]! && r[4 * b + 1]! <= r[4 * a + 3]!) {
        pairs.push(a, b);
      }
    }
  }
  return pairs;
}

/** Ids of the rectangles intersecting the closed box, ascending. */
export function bruteQuery(s: QuadTreeSnapshot, [minX, minY, maxX, maxY]: [number, number, number, number]): number[] {
  const r = s.rects;
  const ids: number[] = [];
  for (let i = 0; i < r.length / 4; i++) {
    if (r[4 * i]! <= maxX && minX <= r[4 * i + 2]! && r[4 * i + 1]! <= maxY && minY <= r[4 * i + 3]!) ids.push(i);
  }
  return ids;
}
