// Pieces that stress a pre-tokenizer's split pattern, shared by the byte-level property suites:
// every whitespace class the patterns treat apart (Unicode White_Space, the ECMAScript and
// Oniguruma \s differences, line ends, BOM, zero-width space) and the English contractions with
// the case-folding traps ("\u017f" folds to "s", "\u212a" to "k").
export const SPACE_PIECES: readonly string[] = [
  " ",
  "  ",
  "\n",
  "\r",
  "\r\n",
  "\t",
  "\u000b",
  "\u000c",
  "\u0085",
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
  "\u180e",
  "\u200b",
];

export const CONTRACTION_PIECES: readonly string[] = [
  "'",
  "'s",
  "'S",
  "'ll",
  "'LL",
  "'Re",
  "'re",
  "'ve",
  "'m",
  "'d",
  "'t",
  "\u017f",
  "'\u017f",
  "\u212a",
];
