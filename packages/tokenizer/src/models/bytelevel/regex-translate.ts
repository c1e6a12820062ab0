// Translate a tokenizer.json Split regex (Oniguruma syntax, as compiled by HF tokenizers) into an
// equivalent JavaScript RegExp with the `u` flag. Only the constructs byte-level BPE files use are
// accepted; anything else throws, so a pattern is never silently reinterpreted.
//
// Differences handled here:
// - `\s` / `\S`: Oniguruma's Unicode \s is U+0009..U+000D, U+0085 and the Zs/Zl/Zp categories
//   (= Unicode White_Space). JS \s lacks U+0085 and adds U+FEFF. Both are replaced by an explicit
//   class, WHITE_SPACE below (checked against the Rust reference by the differential test).
// - `(?i:...)`: Node 20 has no inline modifiers. A group made only of literals and `|` is expanded
//   letter by letter into classes of every character that case-folds to that letter, which for
//   ASCII letters adds U+017F (long s, folds to s) and U+212A (Kelvin sign, folds to k). Multi-char
//   folds (e.g. U+FB06 "st" ligature) would need more; groups whose literals contain such a
//   sequence are rejected.
// - `.` becomes `[^\n]` (Oniguruma's dot excludes only \n; JS's also excludes \r, U+2028/9).
// - \p{L}, \p{N}: Node 20's ICU knows Unicode 17, the reference's Oniguruma does not; the letters
//   and digits it lacks are subtracted (unicode-compat.ts), which needs the `v` (unicodeSets) flag:
//   the output is a source for `new RegExp(src, "v")`, and literal class characters are escaped
//   for v-mode. Other \p{...} properties pass through with the engine's own Unicode version.

/** Unicode White_Space, as a class body. */
export const WHITE_SPACE =
  "\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/** The pattern of GPT-2's ByteLevel pre-tokenizer (use_regex: true). */
export const GPT2_PATTERN =
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/** Sequences some single character case-folds to (CaseFolding.txt status F); unsupported in (?i:). */
const MULTI_FOLD_TARGETS = ["ss", "st", "ff", "fi", "fl"];

import { backtrackingGroup } from "../regex-guard.ts";
import { referenceProperty } from "./unicode-compat.ts";

export class RegexTranslateError extends Error {}

/** Translate an Oniguruma pattern to a JS source for `new RegExp(source, "v")` (+ "g"/"y"). */
export function translateOnigPattern(pattern: string): string {
  const slow = backtrackingGroup(pattern);
  if (slow !== undefined) throw new RegexTranslateError(slow);
  let out = "";
  let i = 0;
  /** Depth of character classes: Oniguruma (Ruby syntax) nests them as a union, as v-mode JS does. */
  let depth = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === "\\") {
      const [text, next] = translateEscape(pattern, i, depth > 0);
      out += text;
      i = next;
      continue;
    }
    if (depth > 0 && c !== "[") {
      if (c === "]") depth--;
      if (c === "&" && pattern[i + 1] === "&") throw new RegexTranslateError(`class intersection at ${i}`);
      // v-mode classes reserve more punctuation; escaping keeps the literal meaning ("-" stays a range).
      out += c !== "]" && /[&!#%,:;<=>@`~()[\]{}/|^$.*+?]/.test(c) ? `\\${c}` : c;
      i++;
      continue;
    }
    if (c === "[") {
      depth++;
      out += c;
      i++;
      if (pattern[i] === "^") {
        out += "^";
        i++;
      }
      if (pattern[i] === "]") throw new RegexTranslateError(`"]" first in a class at ${i}`);
      continue;
    }
    if (c === "(" && pattern[i + 1] === "?") {
      const kind = pattern[i + 2];
      if (kind === ":" || kind === "=" || kind === "!") {
        out += pattern.slice(i, i + 3);
        i += 3;
        continue;
      }
      if (pattern.startsWith("(?i:", i)) {
        const [text, next] = expandCaseInsensitiveGroup(pattern, i + 4);
        out += text;
        i = next;
        continue;
      }
      throw new RegexTranslateError(`unsupported group "${pattern.slice(i, i + 4)}" at ${i}`);
    }
    // Oniguruma's Ruby syntax: "$" is the end of a LINE (before any "\n", or at the end).
    if (c === "$") {
      out += "(?=\\n|(?![\\s\\S]))";
      i++;
      continue;
    }
    if (c === "^") throw new RegexTranslateError(`unsupported anchor "${c}" at ${i}`);
    if (c === ".") {
      out += "[^\\n]";
      i++;
      continue;
    }
    out += c;
    i++;
  }
  if (depth > 0) throw new RegexTranslateError("unterminated character class");
  return out;
}

function translateEscape(pattern: string, at: number, inClass: boolean): [string, number] {
  const e = pattern[at + 1];
  if (e === undefined) throw new RegexTranslateError("pattern ends with a backslash");
  if (e === "s") return [inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`, at + 2];
  if (e === "S") {
    if (inClass) throw new RegexTranslateError(`"\\S" inside a character class at ${at}`);
    return [`[^${WHITE_SPACE}]`, at + 2];
  }
  if (e === "p" || e === "P") {
    const close = pattern.indexOf("}", at);
    if (pattern[at + 2] !== "{" || close < 0) throw new RegexTranslateError(`bad "\\${e}" at ${at}`);
    const name = pattern.slice(at + 3, close);
    if (!/^[A-Za-z_]+$/.test(name)) throw new RegexTranslateError(`unsupported property "${name}" at ${at}`);
    const adjusted = e === "p" ? referenceProperty(name) : undefined;
    if (adjusted !== undefined) return [adjusted, close + 1];
    return [pattern.slice(at, close + 1), close + 1];
  }
  if (e === "r" || e === "n" || e === "t" || e === "f" || e === "v") return [`\\${e}`, at + 2];
  // Escaped punctuation means the character itself in both engines.
  // (u-mode JS accepts only syntax characters escaped; `\-` only inside a class.)
  if (/^[\\^$.|?*+()[\]{}/]$/.test(e)) return [`\\${e}`, at + 2];
  if (e === "-") return [inClass ? "\\-" : "-", at + 2];
  if (/^[' !"#%&,:;<=>@_`~]$/.test(e)) return [inClass && /[&!#%,:;<=>@`~]/.test(e) ? `\\${e}` : e, at + 2];
  throw new RegexTranslateError(`unsupported escape "\\${e}" at ${at}`);
}

/** Caseless variants of one literal character (the characters whose simple case folding equals its own). */
function caseVariants(ch: string): string {
  const lower = ch.toLowerCase();
  let set = lower === ch.toUpperCase() ? ch : `${lower}${ch.toUpperCase()}`;
  if (lower === "s") set += "\u017f";
  if (lower === "k") set += "\u212a";
  return set.length === 1 ? escapeLiteral(set) : `[${set}]`;
}

function escapeLiteral(ch: string): string {
  return /[\\^$.|?*+()[\]{}\-/]/.test(ch) ? `\\${ch}` : ch;
}

function expandCaseInsensitiveGroup(pattern: string, start: number): [string, number] {
  let out = "(?:";
  let literal = "";
  let i = start;
  const flush = (): void => {
    const lower = literal.toLowerCase();
    if (MULTI_FOLD_TARGETS.some((t) => lower.includes(t))) {
      throw new RegexTranslateError(`(?i:) literal "${literal}" has a multi-character case folding`);
    }
    for (const ch of literal) out += caseVariants(ch);
    literal = "";
  };
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === ")") {
      flush();
      return [`${out})`, i + 1];
    }
    if (c === "|") {
      flush();
      out += "|";
      i++;
      continue;
    }
    if (c === "\\") {
      const e = pattern[i + 1] ?? "";
      if (!/^[\\^$.|?*+()[\]{}\-/' ]$/.test(e))
        throw new RegexTranslateError(`unsupported escape in (?i:) at ${i}`);
      literal += e;
      i += 2;
      continue;
    }
    if (/[\^$.?*+()[\]{}]/.test(c) || c.charCodeAt(0) > 0x7f) {
      throw new RegexTranslateError(`unsupported "${c}" in a (?i:) group at ${i}`);
    }
    literal += c;
    i++;
  }
  throw new RegexTranslateError("unterminated (?i: group");
}
