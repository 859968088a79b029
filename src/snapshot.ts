// What every snapshot format shares: a four-byte magic, a format version and
// a CRC-32 of the body, so a buffer of another kind, a newer format, a
// truncated copy or flipped bits are rejected before anything is built.
import { SpatialError } from './errors.js';

/** Bytes of the common header: magic (4), version (u32), CRC-32 of everything after the header (u32). */
export const SNAPSHOT_HEADER_BYTES = 12;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, the zlib / PNG polynomial) of the bytes. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Throws INVALID_SNAPSHOT with the reason. */
export function snapshotError(reason: string): never {
  throw new SpatialError('INVALID_SNAPSHOT', reason);
}

/** Writes the header into a buffer whose body (after SNAPSHOT_HEADER_BYTES) is already written. */
export function sealSnapshot(bytes: Uint8Array, magic: string, version: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < 4; i++) bytes[i] = magic.charCodeAt(i);
  view.setUint32(4, version, true);
  view.setUint32(8, crc32(bytes.subarray(SNAPSHOT_HEADER_BYTES)), true);
}

/**
 * Checks the header of a snapshot of the given kind and version; returns a
 * little-endian view over the bytes. Throws INVALID_SNAPSHOT when the input
 * is not a Uint8Array, is shorter than `minBytes`, or has another magic or
 * version. The checksum is checked by {@link verifySnapshot}, once the
 * caller has checked the length its body announces.
 */
export function openSnapshot(bytes: Uint8Array, magic: string, version: number, minBytes: number, what: string): DataView {
  if (!(bytes instanceof Uint8Array)) snapshotError(`a ${what} snapshot is a Uint8Array`);
  if (bytes.length < 4) snapshotError(`${bytes.length} bytes is too short for a ${what} snapshot`);
  for (let i = 0; i < 4; i++) {
    if (bytes[i] !== magic.charCodeAt(i)) snapshotError(`not a ${what} snapshot (magic bytes differ)`);
  }
  if (bytes.length < Math.max(minBytes, SNAPSHOT_HEADER_BYTES)) snapshotError(`${what} snapshot truncated: ${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = view.getUint32(4, true);
  if (found !== version) snapshotError(`${what} snapshot format version ${found}; this version of spatialkit reads ${version}`);
  return view;
}

/** Throws INVALID_SNAPSHOT unless the body's CRC-32 matches the header's. */
export function verifySnapshot(bytes: Uint8Array, what: string): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8, true) !== crc32(bytes.subarray(SNAPSHOT_HEADER_BYTES))) snapshotError(`${what} snapshot is corrupt (checksum mismatch)`);
}
