// GPT-2's byte-to-unicode alphabet (bytes_to_unicode in openai/gpt-2 encoder.py, CHAR_BYTES in
// HF tokenizers byte_level.rs): printable Latin-1 bytes map to themselves, the other 68 bytes
// map to U+0100.. in byte order, so every byte is one visible code point.

/** BYTE_TO_CHAR[b] = the alphabet character (one UTF-16 unit) for byte b. */
export const BYTE_TO_CHAR: readonly string[] = buildByteToChar();

/** CHAR_TO_BYTE[code unit] = byte, or -1 when the code unit is not in the alphabet (size 324). */
export const CHAR_TO_BYTE: Int16Array = buildCharToByte();

function isPrintable(b: number): boolean {
  return (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
}

function buildByteToChar(): string[] {
  const out: string[] = [];
  let next = 256;
  for (let b = 0; b < 256; b++) {
    out.push(String.fromCharCode(isPrintable(b) ? b : next++));
  }
  return out;
}

function buildCharToByte(): Int16Array {
  const table = new Int16Array(324).fill(-1);
  BYTE_TO_CHAR.forEach((ch, b) => {
    table[ch.charCodeAt(0)] = b;
  });
  return table;
}
