// The bytes of a StaticQuadTree: one block that is at once the index both
// backends search and its snapshot, in one of two layouts: RECTS (drawn in
// assembly/quadtree/static.ts) or POINTS (assembly/quadtree/static-points.ts).
// This file names the layouts for the TypeScript side and checks bytes
// handed to StaticQuadTree.fromBuffer before they are searched: a block that
// passes holds exactly the structure a build of its item count makes, so no
// search can leave it, and only values a build could have written (finite
// coordinates, ordered boxes, tight node boxes, points in k-d order), so
// both backends answer it as they answer a build.
import { SpatialError } from '../core/errors.js';

export const MAGIC = 0x53514b53; // 'SKQS', little-endian
/** Version 2 added the POINTS layout; version 1 blocks (rects only, the same bytes otherwise) are still read. */
export const VERSION = 2;
export const HEADER_BYTES = 32;
export const CHECKSUM_AT = 12;
export const NODE_SIZE = 16;
/** Most points a k-d range holds without being split (as KD_LEAF in assembly/quadtree/static-points.ts). */
export const KD_LEAF = 8;
/** The header's flags (the high half of word 1) of a block in the POINTS layout; the RECTS layout has none. */
export const POINTS = 1;
const LENGTH_AT = 8;
const COUNT_AT = 16;
const NODES_AT = 20;
const NODE_SIZE_AT = 24;

/** Where the parts of a RECTS block of n items and m nodes start, in bytes. */
export interface BlockParts {
  layout: 'rects';
  n: number;
  m: number;
  /** n + m boxes of 4 f64: items in tree order, then nodes, root last. */
  boxes: number;
  /** n i32: item ids in tree order. */
  ids: number;
  /** m i32 each: node j's children are the boxes [firsts[j], ends[j]). */
  firsts: number;
  ends: number;
  /** The block's length. */
  bytes: number;
}

/** Nodes above n items: ceil(n / NODE_SIZE) leaves, then each level grouped again, up to one root. */
export function nodeCount(n: number): number {
  if (n === 0) return 0;
  let m = 0, level = n;
  do {
    level = Math.ceil(level / NODE_SIZE);
    m += level;
  } while (level > 1);
  return m;
}

export function blockParts(n: number, m: number): BlockParts {
  const boxes = HEADER_BYTES;
  const ids = boxes + (n + m) * 32;
  const firsts = ids + n * 4;
  const ends = firsts + m * 4;
  return { layout: 'rects', n, m, boxes, ids, firsts, ends, bytes: (ends + m * 4 + 7) & ~7 };
}

/** Where the parts of a POINTS block of n points start, in bytes. */
export interface PointParts {
  layout: 'points';
  n: number;
  /** n pairs of f64 (x, y) in tree order. */
  coords: number;
  /** n i32: the ids in tree order. */
  ids: number;
  bytes: number;
}

export function pointParts(n: number): PointParts {
  const coords = HEADER_BYTES, ids = coords + n * 16;
  return { layout: 'points', n, coords, ids, bytes: (ids + n * 4 + 7) & ~7 };
}

/** Writes the header of a block (the checksum comes last). */
export function writeHeader(words: Uint32Array, parts: BlockParts | PointParts): void {
  const points = parts.layout === 'points';
  words[0] = MAGIC;
  words[1] = VERSION | (points ? POINTS << 16 : 0);
  words[LENGTH_AT / 4] = parts.bytes;
  words[COUNT_AT / 4] = parts.n;
  words[NODES_AT / 4] = points ? 0 : parts.m;
  words[NODE_SIZE_AT / 4] = points ? KD_LEAF : NODE_SIZE;
}

const FNV_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const lanes = new Int32Array(16);

/**
 * The checksum of a block: FNV-1a over its u32 words from word 4 on in
 * sixteen interleaved lanes (word 4 + i in lane i % 16 while sixteen words
 * remain, then in lane i % 4 while four remain, the last ones in lane 0),
 * which the wasm core runs as four vectors side by side; then FNV-1a of the
 * header words before the checksum's own and the sixteen lanes.
 */
export function blockChecksum(words: Uint32Array): number {
  const length = words.length;
  lanes.fill(FNV_BASIS);
  let i = 4;
  for (; i + 16 <= length; i += 16) for (let l = 0; l < 16; l++) lanes[l] = Math.imul(lanes[l] ^ words[i + l], FNV_PRIME);
  for (; i + 4 <= length; i += 4) for (let l = 0; l < 4; l++) lanes[l] = Math.imul(lanes[l] ^ words[i + l], FNV_PRIME);
  for (; i < length; i++) lanes[0] = Math.imul(lanes[0] ^ words[i], FNV_PRIME);
  return (mix(mix(FNV_BASIS, [words[0], words[1], words[2]]), lanes) >>> 0);
}

/** The checksum of a version 1 block: as blockChecksum, with four lanes. */
function checksumV1(words: Uint32Array): number {
  const length = words.length;
  let h0 = FNV_BASIS, h1 = h0, h2 = h0, h3 = h0;
  let i = 4;
  for (; i + 4 <= length; i += 4) {
    h0 = Math.imul(h0 ^ words[i], FNV_PRIME);
    h1 = Math.imul(h1 ^ words[i + 1], FNV_PRIME);
    h2 = Math.imul(h2 ^ words[i + 2], FNV_PRIME);
    h3 = Math.imul(h3 ^ words[i + 3], FNV_PRIME);
  }
  for (; i < length; i++) h0 = Math.imul(h0 ^ words[i], FNV_PRIME);
  return mix(mix(FNV_BASIS, [words[0], words[1], words[2]]), [h0, h1, h2, h3]) >>> 0;
}

function mix(hash: number, values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) hash = Math.imul(hash ^ values[i], FNV_PRIME);
  return hash;
}

/** The parts a block's header names (a block from a build or one checkBlock passed). */
export function partsOf(block: Uint8Array): BlockParts | PointParts {
  const w = new Uint32Array(block.buffer, block.byteOffset, HEADER_BYTES / 4);
  return w[1] >>> 16 === POINTS ? pointParts(w[COUNT_AT / 4]) : blockParts(w[COUNT_AT / 4], w[NODES_AT / 4]);
}

function invalid(message: string): SpatialError {
  return new SpatialError('INVALID_SNAPSHOT', `StaticQuadTree snapshot ${message}`);
}

/** What sqtVerify (assembly/quadtree/static.ts) and verifyBody report of a block's body, by fault number (0: intact). */
const FAULTS = [
  '',
  'checksum does not match its contents',
  'holds a negative id',
  'has a node whose children no build gives it',
  'holds a coordinate that is not finite or a box with min > max',
  'holds a node box or a point order no build gives it',
  'holds an id twice',
];

/** A check of a block's body (header already checked): 0 if intact, else the number of its fault in FAULTS. */
export type BodyCheck = (words: Uint32Array, parts: BlockParts | PointParts) => number;

/**
 * The parts of a block, after checking that bytes are one: INVALID_ARGUMENT
 * for something other than a Uint8Array; INVALID_SNAPSHOT for another magic,
 * version or layout, a length other than the header says or the counts
 * need, a checksum mismatch, a node structure other than a build's, a
 * negative id, a coordinate that is not finite, a box with min > max, a
 * node box other than the union of its children's, points out of k-d
 * order, or an id given twice (a POINTS block stores no nodes: every range a search reads follows
 * from its count). `words` gives the block's bytes as
 * aligned u32 words; `body` checks all but the header (the wasm core runs
 * it where the block already lies).
 */
export function checkBlock(bytes: unknown, words: (bytes: Uint8Array) => Uint32Array, body: BodyCheck = verifyBody): BlockParts | PointParts {
  if (!(bytes instanceof Uint8Array)) throw new SpatialError('INVALID_ARGUMENT', 'a StaticQuadTree snapshot must be a Uint8Array');
  if (bytes.length < HEADER_BYTES || bytes.length % 8 !== 0) throw invalid(`of ${bytes.length} bytes is not whole`);
  const w = words(bytes);
  if (w[0] !== MAGIC) throw invalid('has the wrong magic');
  const version = w[1] & 0xffff, flags = w[1] >>> 16;
  if (version !== VERSION && version !== 1) throw invalid(`format version ${version} is not supported (expected ${VERSION} or 1)`);
  if (flags !== 0 && (flags !== POINTS || version === 1)) throw invalid(`has layout flags ${flags}, which no build writes`);
  if (w[LENGTH_AT / 4] !== bytes.length) throw invalid(`is ${bytes.length} bytes, its header says ${w[LENGTH_AT / 4]}`);
  const n = w[COUNT_AT / 4], m = w[NODES_AT / 4];
  const points = flags === POINTS;
  const expected = points ? { m: 0, nodeSize: KD_LEAF } : { m: nodeCount(n), nodeSize: NODE_SIZE };
  if (w[NODE_SIZE_AT / 4] !== expected.nodeSize || w[7] !== 0 || n > 0x7fffffff || m !== expected.m) throw invalid('has a header no build writes');
  const parts = points ? pointParts(n) : blockParts(n, m);
  if (parts.bytes !== bytes.length) throw invalid(`of ${n} items needs ${parts.bytes} bytes, has ${bytes.length}`);
  const fault = version === 1 ? verifyBody(w, parts, checksumV1) : body(w, parts);
  if (fault !== 0) throw invalid(FAULTS[fault]);
  return parts;
}

/**
 * The TypeScript check of a block's body, as sqtVerify in the wasm core:
 * checksum (by `checksum`), ids (>= 0, none twice), a RECTS block's nodes, then every value a
 * search reads (finite coordinates, boxes with min <= max, node boxes the
 * union of their children's, points in k-d order).
 */
export function verifyBody(w: Uint32Array, parts: BlockParts | PointParts, checksum = blockChecksum): number {
  if (w[CHECKSUM_AT / 4] !== checksum(w)) return 1;
  const ids = new Int32Array(w.buffer, w.byteOffset + parts.ids, parts.n);
  let signs = 0;
  for (let i = 0; i < parts.n; i++) signs |= ids[i];
  if (signs < 0) return 2;
  if (!idsUnique(ids)) return 6;
  if (parts.layout === 'points') return pointsFault(new Float64Array(w.buffer, w.byteOffset + parts.coords, parts.n * 2));
  if (!nodesAsBuilt(w, parts)) return 3;
  const boxes = new Float64Array(w.buffer, w.byteOffset + parts.boxes, (parts.n + parts.m) * 4);
  if (!itemBoxesValid(boxes, parts.n)) return 4;
  return nodeBoxesTight(boxes, parts.n) ? 0 : 5;
}

/**
 * Whether no id (each >= 0) appears twice, in one pass: a bitmap of the
 * ids when the largest is below 32n (four bytes an id at most; a build's
 * ids are usually dense), else an open-addressing set of at least twice
 * their count (as idsUnique in assembly/quadtree/static.ts).
 */
function idsUnique(ids: Int32Array): boolean {
  let largest = 0;
  for (let i = 0; i < ids.length; i++) largest = Math.max(largest, ids[i]);
  if (largest < ids.length * 32) {
    const seen = new Uint32Array((largest >>> 5) + 1);
    for (let i = 0; i < ids.length; i++) {
      const word = ids[i] >>> 5, bit = 1 << (ids[i] & 31);
      if ((seen[word] & bit) !== 0) return false;
      seen[word] |= bit;
    }
    return true;
  }
  let bits = 1;
  while (1 << bits < ids.length * 2) bits++;
  const mask = (1 << bits) - 1;
  const table = new Int32Array(mask + 1).fill(-1);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    let at = Math.imul(id, 0x9e3779b1) >>> (32 - bits);
    while (table[at] !== -1) {
      if (table[at] === id) return false;
      at = (at + 1) & mask;
    }
    table[at] = id;
  }
  return true;
}

/** Whether each of the first n boxes is finite with min <= max on both axes (x - x is 0 only for a finite x; a comparison with NaN is false). */
function itemBoxesValid(boxes: Float64Array, n: number): boolean {
  for (let i = 0; i < n * 4; i += 4) {
    const x0 = boxes[i], y0 = boxes[i + 1], x1 = boxes[i + 2], y1 = boxes[i + 3];
    if (!(x0 <= x1 && y0 <= y1 && x0 - x0 + (y0 - y0) + (x1 - x1) + (y1 - y1) === 0)) return false;
  }
  return true;
}

/** Whether every node's box (after the n items') is the union of its children's, as a build makes it. */
function nodeBoxesTight(boxes: Float64Array, n: number): boolean {
  let node = n, tight = true;
  forEachNode(n, (first, end) => {
    const [x0, y0, x1, y1] = childrenUnion(boxes, first, end);
    tight &&= boxes[node * 4] === x0 && boxes[node * 4 + 1] === y0 && boxes[node * 4 + 2] === x1 && boxes[node * 4 + 3] === y1;
    node++;
  });
  return tight;
}

const union = new Float64Array(4);

/** The union of boxes [first, end) of boxes (4 f64 each), as [minX, minY, maxX, maxY]: a node's box (valid until the next call). */
export function childrenUnion(boxes: Float64Array, first: number, end: number): Float64Array {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let c = first; c < end; c++) {
    x0 = Math.min(x0, boxes[c * 4]);
    y0 = Math.min(y0, boxes[c * 4 + 1]);
    x1 = Math.max(x1, boxes[c * 4 + 2]);
    y1 = Math.max(y1, boxes[c * 4 + 3]);
  }
  union[0] = x0;
  union[1] = y0;
  union[2] = x1;
  union[3] = y1;
  return union;
}

/** 0 when every coordinate (x, y pairs) is finite and every point lies in its k-d cell, 4 for a coordinate that is not, 5 for a point out of order. */
function pointsFault(coords: Float64Array): number {
  let zero = 0;
  for (let i = 0; i < coords.length; i++) zero += coords[i] * 0;
  if (zero !== 0) return 4;
  return coords.length === 0 || inCells(coords, 0, coords.length / 2 - 1, 0, -Infinity, -Infinity, Infinity, Infinity) ? 0 : 5;
}

/**
 * Whether every point of [left, right] lies in the closed cell [cx0, cx1] x
 * [cy0, cy1] and, below each median, in the cell its split leaves it: the
 * order a build's k-d sort leaves (as inCells in
 * assembly/quadtree/static-points.ts). Each point is checked once.
 */
function inCells(coords: Float64Array, left: number, right: number, axis: number, cx0: number, cy0: number, cx1: number, cy1: number): boolean {
  const inside = (i: number): boolean => coords[2 * i] >= cx0 && coords[2 * i] <= cx1 && coords[2 * i + 1] >= cy0 && coords[2 * i + 1] <= cy1;
  while (right - left > KD_LEAF) {
    const m = (left + right) >> 1;
    if (!inside(m)) return false;
    const split = coords[2 * m + axis];
    if (!inCells(coords, left, m - 1, 1 - axis, cx0, cy0, axis === 0 ? split : cx1, axis === 0 ? cy1 : split)) return false;
    left = m + 1;
    if (axis === 0) cx0 = split;
    else cy0 = split;
    axis = 1 - axis;
  }
  for (let i = left; i <= right; i++) if (!inside(i)) return false;
  return true;
}

/** Whether every node of a RECTS block has the children a build gives it. */
function nodesAsBuilt(w: Uint32Array, parts: BlockParts): boolean {
  const firsts = new Int32Array(w.buffer, w.byteOffset + parts.firsts, parts.m);
  const ends = new Int32Array(w.buffer, w.byteOffset + parts.ends, parts.m);
  let j = 0, built = true;
  forEachNode(parts.n, (first, end) => {
    built &&= firsts[j] === first && ends[j] === end;
    j++;
  });
  return built;
}

/** Calls fn(first, end) for each node of a tree of n items, in block order: the children each node has. */
export function forEachNode(n: number, fn: (first: number, end: number) => void): void {
  if (n === 0) return;
  let from = 0, count = n, node = n;
  do {
    const above = node;
    for (let first = from; first < from + count; first += NODE_SIZE) {
      fn(first, Math.min(first + NODE_SIZE, from + count));
      node++;
    }
    from = above;
    count = node - above;
  } while (count > 1);
}
