// The Scene module's exports (the entry of build/scene.wasm). A scene is an
// index kind and a handle: kind 0, the address of an ListsIndex (lists.ts), or
// GRID, of a GridIndex (grid.ts). Both indexes answer the same calls, so each
// call is exported once and picks the index with one branch; a batch branches
// once, not per item.
import { forgetEvents, IntList } from './int-list';
import { eventIdBound, foldEvents, netEvents } from './net-fold';
import { batchOffsets, batchIds, beginBatch, addAnswer } from './batch-results';
import { ListsIndex, newListsIndex, freeListsIndex, listsMoveMany, listsPositionOf, listsPositions, listsBytes } from './lists';
import {
  GridIndex, newGridIndex, freeGridIndex, gridMoveMany, gridAddMany, gridPositionOf, gridPositions,
} from './grid';

export { alloc, realloc, free } from '../memory';

/** The grid's index kind, as src/scene/wasm.ts passes it (the lists' is 0). */
const GRID: i32 = 1;

@inline function lists(handle: i32): ListsIndex {
  return changetype<ListsIndex>(<usize>handle);
}

@inline function grid(handle: i32): GridIndex {
  return changetype<GridIndex>(<usize>handle);
}

/** Marks the start of a call from outside, so that a call failing part way can be undone (see src/scene/recovery.ts). */
@inline function beginCall(index: i32, handle: i32): void {
  if (index == GRID) grid(handle).beginCall();
  else lists(handle).beginCall();
}

// ---- lifetime ---------------------------------------------------------------

/** A new empty scene of dims (2 or 3) dimensions; cellSize is the grid's finest cell width (the lists ignore it). */
export function sceneCreate(index: i32, dims: i32, cellSize: f64): i32 {
  return index == GRID ? <i32>changetype<usize>(newGridIndex(dims, cellSize)) : <i32>changetype<usize>(newListsIndex(dims));
}

export function sceneDestroy(index: i32, handle: i32): void {
  if (index == GRID) freeGridIndex(grid(handle));
  else freeListsIndex(lists(handle));
}

export function sceneClear(index: i32, handle: i32): void {
  if (index == GRID) grid(handle).clear();
  else lists(handle).clear();
}

/** Bytes of linear memory the scene holds (its arrays, lists and buffers, by capacity). */
export function sceneBytes(index: i32, handle: i32): f64 {
  return index == GRID ? grid(handle).bytes() : listsBytes(lists(handle));
}

// ---- steps: each writes its events to the scene's event buffer --------------

/** Adds slot (free) with id at (x, y, z): a watcher with half-extents r (a circle of radius rx when round) and hysteresis margin, or a marker. */
export function sceneAdd(index: i32, handle: i32, slot: i32, id: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64, watcher: i32, round: i32, layer: i32, sees: i32, margin: f64): void {
  beginCall(index, handle);
  if (index == GRID) grid(handle).add(slot, id, x, y, z, rx, ry, rz, watcher != 0, round != 0, layer, sees, margin);
  else lists(handle).add(slot, id, x, y, z, rx, ry, rz, watcher != 0, round != 0, layer, sees, margin);
}

export function sceneMove(index: i32, handle: i32, slot: i32, x: f64, y: f64, z: f64): void {
  beginCall(index, handle);
  if (index == GRID) grid(handle).move(slot, x, y, z);
  else lists(handle).move(slot, x, y, z);
}

export function sceneRemove(index: i32, handle: i32, slot: i32): void {
  beginCall(index, handle);
  if (index == GRID) grid(handle).remove(slot);
  else lists(handle).remove(slot);
}

/** New half-extents (of a circle when round) and hysteresis margin for slot, or a marker when watcher is 0. */
export function sceneSetRange(index: i32, handle: i32, slot: i32, rx: f64, ry: f64, rz: f64, watcher: i32, round: i32, margin: f64): void {
  beginCall(index, handle);
  if (index == GRID) grid(handle).setRange(slot, rx, ry, rz, watcher != 0, round != 0, margin);
  else lists(handle).setRange(slot, rx, ry, rz, watcher != 0, round != 0, margin);
}

export function sceneSetLayers(index: i32, handle: i32, slot: i32, layer: i32, sees: i32): void {
  beginCall(index, handle);
  if (index == GRID) grid(handle).setLayers(slot, layer, sees);
  else lists(handle).setLayers(slot, layer, sees);
}

/** Moves slots[k] to (xs[k], ys[k], zs[k]) in order; zs is 0 for 2-D scenes. */
export function sceneMoveMany(index: i32, handle: i32, slots: i32, xs: i32, ys: i32, zs: i32, count: i32): void {
  beginCall(index, handle);
  if (index == GRID) gridMoveMany(grid(handle), slots, xs, ys, zs, count);
  else listsMoveMany(lists(handle), slots, xs, ys, zs, count);
}

/** Adds slots[k] with ids[k] at (xs[k], ys[k], zs[k]) and square half-extent ranges[k], in order. */
export function sceneAddMany(index: i32, handle: i32, slots: i32, ids: i32, xs: i32, ys: i32, zs: i32, ranges: i32, count: i32): void {
  beginCall(index, handle);
  if (index == GRID) gridAddMany(grid(handle), slots, ids, xs, ys, zs, ranges, count);
  else lists(handle).addMany(<usize>slots, <usize>ids, <usize>xs, <usize>ys, <usize>zs, <usize>ranges, count);
}

/** Whether moves produce move events (on by default). */
export function sceneSetMoveEvents(index: i32, handle: i32, on: i32): void {
  if (index == GRID) grid(handle).noMoves = on ? 0 : 1;
  else lists(handle).noMoves = on ? 0 : 1;
}

// ---- limits and recovery ------------------------------------------------------

/** The most Int32 entries the event buffer may hold: an event past it calls eventLimitReached, which throws. */
export function sceneSetEventLimit(index: i32, handle: i32, limit: i32): void {
  if (index == GRID) grid(handle).eventLimit = limit;
  else lists(handle).eventLimit = limit;
}

/** Whether events are written (off while entities are loaded from a snapshot or a recovery). */
export function sceneSetSilent(index: i32, handle: i32, on: i32): void {
  if (index == GRID) grid(handle).silent = on;
  else lists(handle).silent = on;
}

/** Whether clear and adds ask for as little new memory as they can, while a recovery reloads the scene (the lists index; the grid never asks for more). */
export function sceneSetLean(index: i32, handle: i32, on: i32): void {
  if (index != GRID) lists(handle).lean = on;
}

/** Ints in the event buffer when the last call began. */
export function sceneCallStart(index: i32, handle: i32): i32 {
  return index == GRID ? grid(handle).callStart : lists(handle).callStart;
}

/** Ints in the held-pair journal of the last call (three per change: w, t, +1 or -1). */
export function sceneJournalLength(index: i32, handle: i32): i32 {
  return index == GRID ? grid(handle).held.journal.length : lists(handle).held.journal.length;
}

export function sceneJournalData(index: i32, handle: i32): i32 {
  return <i32>(index == GRID ? grid(handle).held.journal.data : lists(handle).held.journal.data);
}

// ---- the event buffer: 3 ints per event --------------------------------------

export function sceneEventLength(index: i32, handle: i32): i32 {
  return index == GRID ? grid(handle).events.length : lists(handle).events.length;
}

export function sceneEventData(index: i32, handle: i32): i32 {
  return <i32>(index == GRID ? grid(handle).events.data : lists(handle).events.data);
}

export function sceneEventReset(index: i32, handle: i32): void {
  forgetEvents(index == GRID ? grid(handle).events : lists(handle).events);
}

@inline function events(index: i32, handle: i32): IntList {
  return index == GRID ? grid(handle).events : lists(handle).events;
}

/** The OR of the ids in the event buffer (see net-fold.ts). */
export function sceneEventIdBound(index: i32, handle: i32): i32 {
  return eventIdBound(events(index, handle));
}

/** Folds the event buffer into its net events (net-fold.ts), keeping the buffer; returns their address, sceneNetLength ints. */
export function sceneFoldNet(index: i32, handle: i32, ids: i32, elsewhere: i32, elsewhereCount: i32, moveEvents: i32): i32 {
  foldEvents(events(index, handle), ids, <usize>elsewhere, elsewhereCount, moveEvents != 0);
  return <i32>netEvents.data;
}

export function sceneNetLength(): i32 {
  return netEvents.length;
}

// ---- queries: each writes into the scene's result buffer ---------------------

export function sceneResultData(index: i32, handle: i32): i32 {
  return <i32>(index == GRID ? grid(handle).results.data : lists(handle).results.data);
}

/** Writes the ids slot sees into the result buffer; returns their count. */
export function sceneQuery(index: i32, handle: i32, slot: i32): i32 {
  return index == GRID ? grid(handle).query(slot) : lists(handle).query(slot);
}

/** Writes the ids that see slot into the result buffer; returns their count. */
export function sceneWatchers(index: i32, handle: i32, slot: i32): i32 {
  return index == GRID ? grid(handle).watchers(slot) : lists(handle).watchers(slot);
}

/** Writes the ids positioned inside the closed box into the result buffer; returns their count. */
export function sceneQueryBox(index: i32, handle: i32, minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64): i32 {
  return index == GRID
    ? grid(handle).queryBox(minX, minY, minZ, maxX, maxY, maxZ)
    : lists(handle).queryBox(minX, minY, minZ, maxX, maxY, maxZ);
}

/** Writes the ids of the k entities nearest to (x, y, z) into the result buffer, nearest first; returns their count. */
export function sceneNearest(index: i32, handle: i32, x: f64, y: f64, z: f64, k: i32, maxDistance: f64, filtered: i32, mask: i32): i32 {
  return index == GRID
    ? grid(handle).nearest(x, y, z, k, maxDistance, filtered != 0, mask)
    : lists(handle).nearest(x, y, z, k, maxDistance, filtered != 0, mask);
}

// ---- batch queries: answers gathered in batch-results.ts ----------------------

/** Address of the last batch's offsets (count + 1 i32s). */
export function sceneBatchOffsets(): i32 {
  return <i32>batchOffsets.data;
}

/** Address of the last batch's ids. */
export function sceneBatchIds(): i32 {
  return <i32>batchIds.data;
}

/** The k nearest (see sceneNearest) of each of count points (xs, ys: f64s), in 2-D; returns the number of ids found. */
export function sceneNearestMany(index: i32, handle: i32, xs: i32, ys: i32, count: i32, k: i32, maxDistance: f64, filtered: i32, mask: i32): i32 {
  beginBatch(count);
  const results = index == GRID ? grid(handle).results : lists(handle).results;
  for (let q = 0; q < count; q++) {
    const at = <usize>q << 3;
    const n = sceneNearest(index, handle, load<f64>(<usize>xs + at), load<f64>(<usize>ys + at), 0, k, maxDistance, filtered, mask);
    addAnswer(results, n);
  }
  return batchIds.length;
}

/** The ids inside each of count boxes (f64s minX, minY, maxX, maxY each; z unbounded), unsorted; returns the number of ids found. */
export function sceneQueryBoxMany(index: i32, handle: i32, boxes: i32, count: i32): i32 {
  beginBatch(count);
  const results = index == GRID ? grid(handle).results : lists(handle).results;
  for (let q = 0; q < count; q++) {
    const box = <usize>boxes + (<usize>q << 5);
    const n = sceneQueryBox(index, handle, load<f64>(box), load<f64>(box, 8), -Infinity, load<f64>(box, 16), load<f64>(box, 24), Infinity);
    addAnswer(results, n);
  }
  return batchIds.length;
}

/** Address of three doubles holding slot's position. */
export function scenePositionOf(index: i32, handle: i32, slot: i32): i32 {
  return index == GRID ? gridPositionOf(grid(handle), slot) : listsPositionOf(lists(handle), slot);
}

/** Copies the positions of count slots (i32s at slots) into the result buffer, three doubles each; returns its address. */
export function scenePositions(index: i32, handle: i32, slots: i32, count: i32): i32 {
  return index == GRID ? gridPositions(grid(handle), slots, count) : listsPositions(lists(handle), slots, count);
}

/** Writes every pair visible only thanks to a margin into the result buffer, as slots [w0, t0, w1, t1, ...]; returns the number of ints written. */
export function sceneHeldPairs(index: i32, handle: i32): i32 {
  return index == GRID ? grid(handle).heldPairs() : lists(handle).heldPairs();
}

/** Makes pair (w, t) visible when t is inside w's range + margin, the masks meet and it is not visible yet (restoring a snapshot); otherwise nothing. */
export function sceneHold(index: i32, handle: i32, w: i32, t: i32): void {
  beginCall(index, handle);
  if (index == GRID) grid(handle).hold(w, t);
  else lists(handle).hold(w, t);
}
