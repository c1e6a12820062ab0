// GPT-2's byte-level alphabet (bytes_to_unicode in openai/gpt-2 encoder.py), re-implemented from
// that rule for the tools that read byte-level vocabularies without chatwire: the golden
// generators and the bench's peer rank files. Printable Latin-1 bytes stand for themselves, the
// other 68 bytes for U+0100.. in byte order.

/** Alphabet character -> byte. */
export function unicodeToByte() {
  const bs = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n);
      n++;
    }
  }
  return new Map(bs.map((b, i) => [String.fromCodePoint(cs[i]), b]));
}
