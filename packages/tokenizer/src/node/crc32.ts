// CRC-32 (ISO-HDLC, the zlib / zip / PNG one) of a byte array: the integrity check of stored
// table files (table-cache.ts). Native zlib.crc32 (Node >= 20.15; ~0.2 ms per MB here, a third
// of SHA-256's cost) with a table-driven fallback for older Node 20 releases. A CRC detects
// every burst of up to 32 damaged bits and other damage with probability 1 - 2^-32: what a
// cache file needs (truncation, bit flips, a foreign file); it is no defence against someone who
// writes the cache directory on purpose, and neither would an unkeyed digest stored beside it be.
import { nodeZlib } from "./builtins.ts";

let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (table !== undefined) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** The table-driven CRC-32 (exported for the test that compares it with zlib's). */
export function crc32Fallback(bytes: Uint8Array): number {
  const t = crcTable();
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** CRC-32 of `bytes`, an unsigned 32-bit integer. */
export function crc32(bytes: Uint8Array): number {
  const native = (nodeZlib() as { crc32?: (data: Uint8Array) => number }).crc32;
  return native !== undefined ? native(bytes) : crc32Fallback(bytes);
}
