// What one StateView holds, as the adapter tracks it: entity id -> its Schema
// object, and the view changes that turn one such content into another.
import { $changes, type Schema, type StateView } from '@colyseus/schema';

export type Content = Map<number, Schema>;
export type ReadonlyContent = ReadonlyMap<number, Schema>;

export const EMPTY: ReadonlyContent = new Map();

/**
 * Turns a view that holds `from` into one that holds `to`: view.remove for
 * every entry of `from` not in `to`, then view.add for every entry of `to`
 * not in `from`. An id whose object changed (an id reused for another
 * entity) counts as both. With `markKept`, entries in both are marked
 * visible without being sent: for a fresh view standing in for one whose
 * holder already has them.
 */
export function transform(view: StateView, from: ReadonlyContent, to: ReadonlyContent, markKept = false): void {
  for (const [id, before] of from) {
    const after = to.get(id);
    if (after !== before) view.remove(before);
    else if (markKept) view.markVisible(treeOf(after));
  }
  for (const [id, after] of to) {
    if (from.get(id) !== after) view.add(after);
  }
}

/**
 * Clears a view's visibility marks on every entry of `content` and on what
 * each holds: as many view.remove calls would, without queuing the deletes
 * (for a view that is being emptied for reuse, whose changes are dropped).
 */
export function unmark(view: StateView, content: ReadonlyContent): void {
  const clear = (tree: ChangeTree): void => {
    view.unmarkVisible(tree);
    tree.forEachChild(clear);
  };
  for (const object of content.values()) clear(treeOf(object));
}

type ChangeTree = NonNullable<Parameters<StateView['markVisible']>[0]>;

function treeOf(object: Schema): ChangeTree {
  return (object as unknown as Record<symbol, ChangeTree>)[$changes] as ChangeTree;
}
