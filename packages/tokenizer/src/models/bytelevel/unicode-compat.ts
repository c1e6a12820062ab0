// Code points that Node 20's RegExp \p{L} / \p{N} (ICU, Unicode 17) include but the Oniguruma in
// HF tokenizers 0.23.2 does not (characters assigned in Unicode 16 and 17). The translated
// pre-tokenizer regex subtracts them so both engines split text identically. Found by probing all
// 1,112,064 scalar values through the reference's Split pre-tokenizer; the exhaustive check is the
// "classifies every code point" test in test/bytelevel-property.test.ts. (White_Space: no difference.)

export const L_NOT_IN_REFERENCE =
  "\\u088f\\u0c5c\\u0cdc\\ua7ce-\\ua7cf\\ua7d2\\ua7d4\\ua7f1\\u{10940}-\\u{10959}\\u{10ec5}-\\u{10ec7}" +
  "\\u{11db0}-\\u{11ddb}\\u{16ea0}-\\u{16eb8}\\u{16ebb}-\\u{16ed3}\\u{16ff2}-\\u{16ff3}\\u{187f8}-\\u{187ff}" +
  "\\u{18d09}-\\u{18d1e}\\u{18d80}-\\u{18df2}\\u{1e6c0}-\\u{1e6de}\\u{1e6e0}-\\u{1e6e2}\\u{1e6e4}-\\u{1e6e5}" +
  "\\u{1e6e7}-\\u{1e6ed}\\u{1e6f0}-\\u{1e6f4}\\u{1e6fe}-\\u{1e6ff}\\u{2b73a}-\\u{2b73f}\\u{2cea2}-\\u{2cead}" +
  "\\u{323b0}-\\u{33479}";

export const N_NOT_IN_REFERENCE = "\\u{11de0}-\\u{11de9}\\u{16ff4}-\\u{16ff6}";

/** A v-flag class equal to the reference's \p{name}, or undefined when no adjustment is known. */
export function referenceProperty(name: string): string | undefined {
  if (name === "L") return `[\\p{L}--[${L_NOT_IN_REFERENCE}]]`;
  if (name === "N") return `[\\p{N}--[${N_NOT_IN_REFERENCE}]]`;
  return undefined;
}
