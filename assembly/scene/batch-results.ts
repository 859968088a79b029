// The answers of a batch of queries (Scene's nearestMany and queryBoxMany),
// gathered in one call: query q's ids are ids[offsets[q] .. offsets[q + 1]).
// The lists are the module's, reused by every batch; the caller copies the
// answers out before the next one.
import { IntList, newIntList } from './int-list';

export const batchOffsets: IntList = newIntList();
export const batchIds: IntList = newIntList();

/** Starts a batch of count queries: no answer yet, offsets[0] = 0. */
export function beginBatch(count: i32): void {
  batchOffsets.reserve(count + 1);
  batchOffsets.length = 0;
  batchOffsets.push(0);
  batchIds.length = 0;
}

/** Appends the next query's answer: the first n ids of results. */
export function addAnswer(results: IntList, n: i32): void {
  const at = batchIds.length;
  batchIds.reserve(at + n);
  memory.copy(batchIds.data + (<usize>at << 2), results.data, <usize>n << 2);
  batchIds.length = at + n;
  batchOffsets.push(at + n);
}
