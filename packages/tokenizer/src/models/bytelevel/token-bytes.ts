// What one token contributes to a decode: HF tokenizers' ByteLevel decoder maps each character of
// a token through the byte alphabet; a token with any character outside the alphabet contributes
// its own UTF-8 bytes instead (decode_chain's `unwrap_or_else(|| t.as_bytes())`).

import { CHAR_TO_BYTE } from "./byte-alphabet.ts";

const utf8 = new TextEncoder();

export function byteLevelTokenBytes(piece: string): Uint8Array {
  const out = new Uint8Array(piece.length);
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    const b = c < CHAR_TO_BYTE.length ? (CHAR_TO_BYTE[c] as number) : -1;
    if (b < 0) return utf8.encode(piece);
    out[i] = b;
  }
  return out;
}

/** True when `bytes` is complete, valid UTF-8 (no overlongs, surrogates or values > U+10FFFF). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return false;
    if (i + need >= bytes.length) return false; // truncated sequence
    const second = bytes[i + 1] as number;
    if (second < lo || second > hi) return false;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k] as number;
      if (c < 0x80 || c > 0xbf) return false;
    }
    i += need + 1;
  }
  return true;
}
