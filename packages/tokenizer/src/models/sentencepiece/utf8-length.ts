// UTF-8 byte length of a piece's text without encoding it (decode tables and the chat builder's
// span offsets, per ID).

/**
 * UTF-8 length of a piece as decoded in the middle of a text (with markIsSpace, "▁" -> " ": 1 byte); a lone
 * surrogate counts 3 bytes (U+FFFD). decode-table.ts uses it (markIsSpace false) on the decoded text, sentencepiece-model.ts on the raw piece.
 */
export function utf8Length(s: string, markIsSpace: boolean): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 || (markIsSpace && c === 0x2581)) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
