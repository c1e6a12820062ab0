// Where a byte-level encoder call may be cut after a line feed: the split patterns for which
// encode(P + C) = encode(P) ++ encode(C) is PROVEN for every P ending in "\n" and every C whose
// first character is not white space (the pattern's own \s class, WHITE_SPACE of
// regex-translate.ts). The chat builder then encodes a constant header ("user\n", "assistant\n")
// once per model and hands the caller's own string to the encoder, instead of concatenating the
// two (a copy of every message, and a fresh string the regex and ICU then work on).
//
// The proof, for the Split patterns below (Isolated, the only pre-token step, then ByteLevel
// without its own regex; an NFC normalizer or none). Write Q = P + C, C[0] not in \s.
// 1. NFC: "\n" is a starter that is the first of no canonical composition (nfc-boundary.ts,
//    endsAtNfcStop), so NFC(Q) = NFC(P) + NFC(C), and NFC(P) still ends in "\n". NFC(C) still
//    starts outside \s: NFD(NFC(C)) = NFD(C); a \s character has combining class 0 and its NFD
//    starts with a \s character, while NFD(C) starts with NFD(C[0])'s first character (C[0] a
//    starter) or with a non-starter (reordering moves only non-starters), and NFD of a non-\s
//    character never starts with a \s one. Both facts are checked for every code point by
//    test/prefix-cut.test.ts.
// 2. The scan (bytelevel-model.ts): a sticky match at each position, leftmost alternative
//    first. The patterns have no lookbehind, no anchor and no \b, so a match at position i
//    depends only on the text from i on, and a look-ahead only on what follows the match.
// 3. No match starting in P goes past |P|: the only alternatives that can consume the final
//    "\n" are `[\r\n]*` (after punctuation), `\s*[\r\n]+`, `\s+(?!\S)` and `\s+`, and past that
//    "\n" each of them can consume only \s characters, which C[0] is not.
// 4. Every match starting in P is the same in P alone and in Q. The text after |P| can only be
//    seen through `(?!\S)` at |P| (end of text: true; before C[0]: false). That alternative is
//    tried at a position i only when the earlier ones fail, and at any i in P's final
//    white-space run (the run that holds the final "\n") `\s*[\r\n]+` already matches: the
//    contraction, letter, digit and punctuation alternatives cannot start on white space
//    followed by white space, and `\s*[\r\n]+` takes the run up to its last line feed, which is
//    the final "\n" of P. Positions before that run see only characters inside P. So the last
//    match of P ends exactly at |P| in both, and no gap (a character no match starts at) is open.
// 5. The scan then continues at |P| with nothing carried over, on a text whose rest is C: the
//    matches from there are those of C alone (2). Each pre-token is BPE-encoded on its own, so
//    the IDs are encode(P) followed by encode(C).
// Patterns or pipeline shapes not listed here keep the concatenating path (always exact).

import { WHITE_SPACE } from "./regex-translate.ts";

/**
 * Oniguruma sources (as in tokenizer.json) for which the argument above was checked, alternative
 * by alternative. Only a core byte-level model (one Split, Isolated, NFC or no normalizer) uses it.
 */
export const NEWLINE_CUT_PATTERNS: ReadonlySet<string> = new Set([
  // Qwen2 / Qwen2.5 / Qwen3 (one digit per pre-token).
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  // Llama 3 / 3.1 (digits in threes: `\p{N}{1,3}` cannot reach a line feed either).
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
]);

/** The translated patterns' \s class at one position (sticky: tested at index 0 only). */
const SPACE_AT_START = new RegExp(`[${WHITE_SPACE}]`, "vy");

/**
 * True when `text` is non-empty and its first character is outside the \s class (every \s
 * character is one UTF-16 unit, so the first unit decides). Printable ASCII other than " " is
 * answered without the RegExp (test/prefix-cut.test.ts checks that shortcut against it).
 */
export function startsOutsideSpace(text: string): boolean {
  if (text.length === 0) return false;
  const c = text.charCodeAt(0);
  if (c > 0x20 && c < 0x7f) return true;
  SPACE_AT_START.lastIndex = 0;
  return !SPACE_AT_START.test(text);
}
