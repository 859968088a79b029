// The byte layer of snapshots: a 16-byte header (4-byte magic, u16 format
// version, u16 flags, u32 total length, u32 checksum of every other byte),
// then a little-endian body written and read field by field. Reading
// checks every bound, so truncated or corrupt bytes end in INVALID_SNAPSHOT,
// never in a wrong structure or a RangeError.
import { SpatialError } from './errors.js';
import type { Backend } from './wasm.js';

/** Options of `fromBuffer` (Graph, QuadTree, Scene). */
export interface FromBufferOptions {
  /** The backend of the restored object: 'wasm' (default, needs init()) or 'js'. */
  backend?: Backend;
}

const HEADER_BYTES = 16;
const LENGTH_AT = 8;
const CHECKSUM_AT = 12;

/** FNV-1a (32-bit) of every byte but the checksum's own four: cheap, and any flipped byte changes it. */
function checksum(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < CHECKSUM_AT; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  for (let i = HEADER_BYTES; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash >>> 0;
}

function invalid(message: string): SpatialError {
  return new SpatialError('INVALID_SNAPSHOT', message);
}

/**
 * Fills in a snapshot's length and checksum from its bytes as they stand;
 * returns them. (Tests use it to build bytes that pass the checks but hold
 * values no structure accepts.)
 */
export function sealSnapshot(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint32(LENGTH_AT, bytes.length, true);
  view.setUint32(CHECKSUM_AT, checksum(bytes), true);
  return bytes;
}

/** Writes a snapshot: the header first, fields after, `finish` seals length and checksum. */
export class SnapshotWriter {
  private bytes: Uint8Array;
  private view: DataView;
  private at = 0;

  constructor(magic: string, version: number, flags: number, sizeHint = 64) {
    this.bytes = new Uint8Array(Math.max(sizeHint, HEADER_BYTES));
    this.view = new DataView(this.bytes.buffer);
    for (let i = 0; i < 4; i++) this.u8(magic.charCodeAt(i));
    this.u16(version);
    this.u16(flags);
    this.u32(0); // length, set by finish
    this.u32(0); // checksum, set by finish
  }

  u8(value: number): void {
    this.room(1);
    this.view.setUint8(this.at, value);
    this.at += 1;
  }

  u16(value: number): void {
    this.room(2);
    this.view.setUint16(this.at, value, true);
    this.at += 2;
  }

  u32(value: number): void {
    this.room(4);
    this.view.setUint32(this.at, value, true);
    this.at += 4;
  }

  i32(value: number): void {
    this.room(4);
    this.view.setInt32(this.at, value, true);
    this.at += 4;
  }

  f64(value: number): void {
    this.room(8);
    this.view.setFloat64(this.at, value, true);
    this.at += 8;
  }

  /** Writes a length (u32) and the bytes. */
  blob(bytes: Uint8Array): void {
    this.u32(bytes.length);
    this.room(bytes.length);
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** The finished snapshot: exactly the bytes written, length and checksum filled in. */
  finish(): Uint8Array {
    return sealSnapshot(this.bytes.slice(0, this.at));
  }

  private room(count: number): void {
    if (this.at + count <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < this.at + count) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.bytes);
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }
}

/** Reads a snapshot's body after checking its header; every read is bounds-checked. */
export class SnapshotReader {
  /** The header's flags word. */
  readonly flags: number;
  private readonly view: DataView;
  private at = HEADER_BYTES;

  /**
   * Checks magic, version, length and checksum. Throws INVALID_ARGUMENT when
   * bytes is not a Uint8Array, INVALID_SNAPSHOT for anything else wrong.
   */
  constructor(bytes: unknown, magic: string, version: number, what: string) {
    if (!(bytes instanceof Uint8Array)) throw new SpatialError('INVALID_ARGUMENT', `a ${what} snapshot must be a Uint8Array`);
    if (bytes.length < HEADER_BYTES) throw invalid(`${bytes.length} bytes is too short for a ${what} snapshot`);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < 4; i++) {
      if (bytes[i] !== magic.charCodeAt(i)) throw invalid(`not a ${what} snapshot (wrong magic)`);
    }
    const found = this.view.getUint16(4, true);
    if (found !== version) throw invalid(`${what} snapshot format version ${found} is not supported (expected ${version})`);
    this.flags = this.view.getUint16(6, true);
    const length = this.view.getUint32(LENGTH_AT, true);
    if (length !== bytes.length) throw invalid(`${what} snapshot is ${bytes.length} bytes, its header says ${length}`);
    if (this.view.getUint32(CHECKSUM_AT, true) !== checksum(bytes)) {
      throw invalid(`${what} snapshot checksum does not match its contents`);
    }
  }

  u8(): number {
    return this.view.getUint8(this.take(1));
  }

  u16(): number {
    return this.view.getUint16(this.take(2), true);
  }

  u32(): number {
    return this.view.getUint32(this.take(4), true);
  }

  i32(): number {
    return this.view.getInt32(this.take(4), true);
  }

  f64(): number {
    return this.view.getFloat64(this.take(8), true);
  }

  /** Reads what {@link SnapshotWriter.blob} wrote: a copy of the bytes. */
  blob(): Uint8Array {
    const length = this.u32();
    const at = this.take(length);
    return new Uint8Array(this.view.buffer.slice(this.view.byteOffset + at, this.view.byteOffset + at + length));
  }

  /** Bytes not yet read. */
  get remaining(): number {
    return this.view.byteLength - this.at;
  }

  /** Throws unless every byte has been read. */
  end(): void {
    if (this.remaining !== 0) throw invalid(`${this.remaining} unexpected bytes after the snapshot's contents`);
  }

  private take(count: number): number {
    if (count > this.remaining) throw invalid('snapshot is truncated');
    const at = this.at;
    this.at += count;
    return at;
  }
}

/** INVALID_SNAPSHOT with a message, for structural checks made by a decoder. */
export function snapshotError(message: string): SpatialError {
  return invalid(message);
}
