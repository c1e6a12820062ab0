// Whether NFC cannot reach back across the start of a string: a string starting with one of these
// characters satisfies NFC(p + s) = NFC(p) + NFC(s) for every p (UAX #15: an NFC "boundary before":
// canonical combining class 0 and NFC_Quick_Check = Yes, so it never reorders with, nor composes
// with, anything before it). The set is a few whole blocks that chat text starts with (CJK,
// kana, Hangul syllables, fullwidth ASCII, emoji); anything else answers false, which only sends
// the caller to its slower, always exact path. test/nfc-boundary.test.ts checks every BMP code
// point of the set against ICU (each after every character below U+0300, and composes-with tests).

/** BMP ranges [lo, hi] (inclusive) of starters with NFC_Quick_Check = Yes that are never a composition's second. */
const BMP_RANGES: readonly (readonly [number, number])[] = [
  [0x3000, 0x3029], // CJK symbols and punctuation (U+302A..U+302F are combining marks)
  [0x3030, 0x303f],
  [0x3041, 0x3096], // hiragana letters (U+3099/U+309A, the combining voicing marks, are excluded)
  [0x30a1, 0x30fa], // katakana letters
  [0x3400, 0x4dbf], // CJK unified ideographs extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xac00, 0xd7a3], // Hangul syllables (a composition's first, never its second)
  [0xff01, 0xff5e], // fullwidth ASCII variants
];

/** Emoji planes U+1F000..U+1FAFF: high surrogates U+D83C..U+D83E followed by a low surrogate. */
function isEmojiPair(s: string): boolean {
  const hi = s.charCodeAt(0);
  if (hi < 0xd83c || hi > 0xd83e) return false;
  const lo = s.charCodeAt(1);
  return lo >= 0xdc00 && lo <= 0xdfff && (hi < 0xd83e || lo <= 0xdeff);
}

/** True when `s` is non-empty and starts with a character NFC can never combine or reorder with what precedes it. */
export function startsAtNfcBoundary(s: string): boolean {
  if (s.length === 0) return false;
  const c = s.charCodeAt(0);
  if (c < 0x300) return true;
  for (const [lo, hi] of BMP_RANGES) if (c >= lo && c <= hi) return true;
  return isEmojiPair(s);
}

/**
 * True when `s` ends with a line feed: U+000A is a starter (combining class 0, NFC_Quick_Check
 * = Yes) that no canonical composition has as its first character, so nothing after it can
 * compose with it or reorder before it: NFC(s + t) = NFC(s) + NFC(t) for every t.
 * test/nfc-boundary.test.ts checks "\n" + c against ICU for every code point c.
 */
export function endsAtNfcStop(s: string): boolean {
  return s.length > 0 && s.charCodeAt(s.length - 1) === 0x0a;
}
