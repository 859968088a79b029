// Answers of batch queries: the ids of every query one after another in one
// i32 buffer, and count + 1 offsets (query q's ids are ids[offsets[q],
// offsets[q + 1])). Both grow by doubling and are shared by the static tree
// and by the batch forms of the dynamic one; the TypeScript side copies them
// out after each call.

let ids: usize = 0;
let idCount: i32 = 0;
let idCap: i32 = 0;
let offsets: usize = 0;
let offsetCap: i32 = 0;

function grow(ptr: usize, bytes: usize): usize {
  return ptr == 0 ? heap.alloc(bytes) : heap.realloc(ptr, bytes);
}

/** Forgets the ids written so far and makes room for count + 1 offsets. */
export function startResults(count: i32): void {
  idCount = 0;
  if (count + 1 > offsetCap) {
    offsetCap = max(64, count + 1);
    offsets = grow(offsets, <usize>offsetCap << 2);
  }
}

/** Records that query q's ids start here. */
@inline export function markQuery(q: i32): void {
  store<i32>(offsets + (<usize>q << 2), idCount);
}

/** Appends one id. */
@inline export function pushResult(id: i32): void {
  if (idCount == idCap) reserveResults(1);
  store<i32>(ids + (<usize>idCount << 2), id);
  idCount++;
}

/** Writes id past those written and counts it only if keep: no branch to mispredict. Room must have been made (reserveResults). */
@inline export function pushResultIf(id: i32, keep: bool): void {
  store<i32>(ids + (<usize>idCount << 2), id);
  idCount += <i32>keep;
}

/** Makes room for `more` ids past those written. */
export function reserveResults(more: i32): void {
  if (idCount + more <= idCap) return;
  while (idCount + more > idCap) idCap = max(64, idCap << 1);
  ids = grow(ids, <usize>idCap << 2);
}

/** Appends `count` ids from src. */
export function pushResults(src: usize, count: i32): void {
  reserveResults(count);
  memory.copy(ids + (<usize>idCount << 2), src, <usize>count << 2);
  idCount += count;
}

/** Makes room for count ids past those written and counts them as written; returns where they go. */
export function claimResults(count: i32): usize {
  reserveResults(count);
  const at = ids + (<usize>idCount << 2);
  idCount += count;
  return at;
}

/** The ids written since startResults. */
export function resultCount(): i32 {
  return idCount;
}

/** Start of the id buffer (valid until the next call that writes results). */
export function qbIds(): usize {
  return ids;
}

/** Start of the offsets buffer (valid until the next startResults). */
export function qbOffsets(): usize {
  return offsets;
}
