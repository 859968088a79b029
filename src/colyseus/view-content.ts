// What one StateView holds, as the adapter tracks it: entity ids ascending,
// each with its Schema object. A Content is never changed in place; every
// change makes a new one, so a view's content at its last encode can be kept
// by reference.
import { $changes, type Schema, type StateView } from '@colyseus/schema';

export interface Content {
  readonly ids: readonly number[];
  readonly objects: readonly Schema[];
}

export const EMPTY: Content = { ids: [], objects: [] };

/** Position of id in content, or -1. */
export function indexOf(content: Content, id: number): number {
  const { ids } = content;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] < id) lo = mid + 1;
    else if (ids[mid] > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** content with (id, object) in its place (content must not hold id). */
export function withEntity(content: Content, id: number, object: Schema): Content {
  let at = 0;
  while (at < content.ids.length && content.ids[at] < id) at++;
  const ids = content.ids.slice();
  const objects = content.objects.slice();
  ids.splice(at, 0, id);
  objects.splice(at, 0, object);
  return { ids, objects };
}

/** content without the entry at index. */
export function withoutIndex(content: Content, index: number): Content {
  const ids = content.ids.slice();
  const objects = content.objects.slice();
  ids.splice(index, 1);
  objects.splice(index, 1);
  return { ids, objects };
}

/**
 * Turns a view that holds `from` into one that holds `to`: view.add for
 * every entry of `to` not in `from`, view.remove for every entry of `from`
 * not in `to`. An id whose object changed (an id reused for another entity)
 * counts as both. With `markKept`, entries in both are marked visible without
 * being sent: for a fresh view standing in for one whose holder already has
 * them.
 */
export function transform(view: StateView, from: Content, to: Content, markKept = false): void {
  const a = from.ids;
  const b = to.ids;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j === b.length || (i < a.length && a[i] < b[j])) {
      view.remove(from.objects[i++]);
    } else if (i === a.length || b[j] < a[i]) {
      view.add(to.objects[j++]);
    } else {
      const before = from.objects[i++];
      const after = to.objects[j++];
      if (before !== after) {
        view.remove(before);
        view.add(after);
      } else if (markKept) {
        view.markVisible(treeOf(after));
      }
    }
  }
}

/**
 * Clears a view's visibility marks on every entry of `content` and on what
 * each holds: as many view.remove calls would, without queuing the deletes
 * (for a view that is being emptied for reuse, whose changes are dropped).
 */
export function unmark(view: StateView, content: Content): void {
  const clear = (tree: ChangeTree): void => {
    view.unmarkVisible(tree);
    tree.forEachChild(clear);
  };
  for (const object of content.objects) clear(treeOf(object));
}

type ChangeTree = NonNullable<Parameters<StateView['markVisible']>[0]>;

function treeOf(object: Schema): ChangeTree {
  return (object as unknown as Record<symbol, ChangeTree>)[$changes] as ChangeTree;
}
