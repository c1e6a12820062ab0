// Rewrites of @huggingface/jinja's token stream for jinja2 syntax its parser refuses, each into
// tokens it parses and the interpreter reads back (the parser checks only token types, so a
// rewritten token can carry a value no template can spell):
//
// - tests with arguments: `x is divisibleby(3)`, `x is sameas none`, `x is not gt 2` ->
//   `x | <test divisibleby>(3)`: a filter whose name holds a space (never a lexed identifier),
//   which the interpreter applies as the test. As in jinja2's parser (parse_filter_expr), tests
//   and filters then apply left to right; a bare argument is one primary with its postfix
//   (`.attr`, `[i]`, `(args)`), as jinja2's parse_test reads it.
// - one-element and empty tuples: `(1,)` -> `(1, <tuple end>)`, `()` -> `(<tuple end>, <tuple end>)`:
//   the interpreter drops the end markers from the tuple.
// - transformers' `{% generation %}` ... `{% endgeneration %}` (its AssistantTracker extension,
//   which renders the body unchanged): both tags are removed.
// - number literals the lexer cuts in pieces: `1e3`, `1.5e-7`, `1_000`, `0x1F`, `0o17`, `0b101`
//   (lexed as `1` `e3`, `1` `e` `-` `7`, `1` `_000`, `0` `x1F`) -> one number token, as
//   jinja2's float_re / integer_re read them.
// - the source's newlines as jinja2's lexer reads them (normalizeNewlines).
// Linear in the number of tokens (brackets are matched with one stack pass).
import type { Tok } from "./ast.ts";

/**
 * jinja2's lexer first rewrites every newline of the source (`\r\n`, `\r`, `\n`) as `\n`
 * (newline_sequence), string literals included, before trim_blocks / lstrip_blocks and the
 * trailing-newline cut; @huggingface/jinja keeps `\r`. Applied to the source before tokenizing.
 */
export function normalizeNewlines(source: string): string {
  return source.includes("\r") ? source.replace(/\r\n?/g, "\n") : source;
}

/** Filter-name prefix of a rewritten test (the test name follows). */
export const TEST_FILTER = "is ";
/** Filter-name prefix of a rewritten negated test. */
export const NOT_TEST_FILTER = "is not ";
/** The identifier marking the end of a tuple written with a trailing comma. */
export const TUPLE_END = "<tuple end>";

type T = { value: string; type: string };

const OPEN = new Set(["OpenParen", "OpenSquareBracket", "OpenCurlyBracket"]);
const CLOSE = new Set(["CloseParen", "CloseSquareBracket", "CloseCurlyBracket"]);
/** Names after which `(` groups (not a call), and which never start a test's bare argument. */
const KEYWORDS = new Set(["in", "and", "or", "not", "is", "if", "else", "elif", "for", "set", "return"]);
const NO_ARG = new Set(["else", "or", "and", "is", "if", "in", "not"]);

/** Index of the bracket matching the one at `i` (tokens.length when unbalanced). */
function matching(tokens: readonly T[], i: number, match: Int32Array): number {
  const m = match[i] as number;
  return m < 0 ? tokens.length - 1 : m;
}

function matchBrackets(tokens: readonly T[]): Int32Array {
  const match = new Int32Array(tokens.length).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = (tokens[i] as T).type;
    if (OPEN.has(t)) stack.push(i);
    else if (CLOSE.has(t)) {
      const j = stack.pop();
      if (j !== undefined) {
        match[j] = i;
        match[i] = j;
      }
    }
  }
  return match;
}

/** End (exclusive) of the primary + postfix starting at `j`, or -1 when none starts there. */
function primaryEnd(tokens: readonly T[], j: number, match: Int32Array): number {
  const t = tokens[j];
  if (t === undefined) return -1;
  let k: number;
  if (t.type === "StringLiteral" || t.type === "NumericLiteral") k = j + 1;
  else if (t.type === "Identifier" && !NO_ARG.has(t.value)) k = j + 1;
  else if (t.type === "OpenSquareBracket" || t.type === "OpenCurlyBracket")
    k = matching(tokens, j, match) + 1;
  else return -1;
  for (;;) {
    const p = tokens[k];
    if (p === undefined) return k;
    if (p.type === "Dot" && tokens[k + 1] !== undefined) k += 2;
    else if (p.type === "OpenSquareBracket" || p.type === "OpenParen") k = matching(tokens, k, match) + 1;
    else return k;
  }
}

function isCallPosition(prev: T | undefined): boolean {
  if (prev === undefined) return false;
  if (prev.type === "Identifier") return !KEYWORDS.has(prev.value);
  return prev.type === "CloseParen" || prev.type === "CloseSquareBracket" || prev.type === "StringLiteral";
}

/** The rewritten stream (the input is not modified). */
export function rewriteTokens(input: readonly Tok[]): Tok[] {
  let tokens: T[] = input.map((t) => ({ value: t.value, type: t.type }));
  tokens = joinNumbers(tokens);
  tokens = dropGeneration(tokens);
  tokens = rewriteTests(tokens);
  return rewriteTuples(tokens);
}

/** jinja2's float_re (without its lookbehind) and integer_re, whole-token. */
const FLOAT = /^(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)$/i;
const INTEGER = /^(?:0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*)$/i;
/** The most tokens one literal is lexed into (`1_0.5_0e-1_0`: 1 _0 . 5 _0e - 1 _0). */
const MOST_PIECES = 9;

/**
 * The number literal starting at the NumericLiteral `tokens[i]`, as [value, pieces]: the value
 * for the parser (a float's holds a "."), the token count it spans; undefined when the literal
 * is that one token. Pieces join only as the lexer cuts a literal: a name after the number, a
 * `.` between digits, a sign after an exponent's `e`. The lexer keeps no spacing, so `1 e3`
 * (a syntax error in jinja2) reads as `1e3` here: no valid template spells a name right after a
 * number, so that leniency changes no valid template.
 */
function numberAt(tokens: readonly T[], i: number): [string, number] | undefined {
  const first = tokens[i] as T;
  const sign = first.value.startsWith("-") || first.value.startsWith("+") ? (first.value[0] as string) : "";
  let text = first.value.slice(sign.length);
  const joined: string[] = [text];
  for (let j = i + 1; j < tokens.length && j < i + MOST_PIECES; j++) {
    const t = tokens[j] as T;
    const prev = tokens[j - 1] as T;
    const ok =
      (t.type === "Identifier" && /^\w+$/.test(t.value) && prev.type !== "Identifier") ||
      (t.type === "Dot" && prev.type !== "Dot") ||
      (t.type === "NumericLiteral" &&
        /^\d+$/.test(t.value) &&
        (prev.type === "Dot" || prev.type === "AdditiveBinaryOperator")) ||
      ((t.value === "+" || t.value === "-") && prev.type === "Identifier" && /[eE]$/.test(prev.value));
    if (!ok) break;
    text += t.value;
    joined.push(text);
  }
  // The longest prefix of pieces that is one literal.
  for (let n = joined.length; n > 1; n--) {
    const lit = joined[n - 1] as string;
    if (FLOAT.test(lit)) {
      const clean = lit.replace(/_/g, "");
      const withDot = clean.includes(".") ? clean : clean.replace(/e/i, ".0e");
      return [sign + withDot, n];
    }
    if (INTEGER.test(lit)) return [sign + String(Number(lit.replace(/_/g, ""))), n];
  }
  return undefined;
}

function joinNumbers(tokens: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as T;
    const found =
      t.type === "NumericLiteral" && tokens[i - 1]?.type !== "Dot" ? numberAt(tokens, i) : undefined;
    if (found === undefined) {
      out.push(t);
      continue;
    }
    out.push({ value: found[0], type: "NumericLiteral" });
    i += found[1] - 1;
  }
  return out;
}

function dropGeneration(tokens: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const a = tokens[i] as T;
    const b = tokens[i + 1];
    const c = tokens[i + 2];
    if (
      a.type === "OpenStatement" &&
      b?.type === "Identifier" &&
      (b.value === "generation" || b.value === "endgeneration") &&
      c?.type === "CloseStatement"
    ) {
      i += 2;
      continue;
    }
    out.push(a);
  }
  return out;
}

function rewriteTests(tokens: T[]): T[] {
  const match = matchBrackets(tokens);
  const out: T[] = [];
  /** Output positions where a ")" closes a wrapped bare argument, by input index. */
  const closeAt = new Map<number, number>();
  for (let i = 0; i < tokens.length; i++) {
    const n = closeAt.get(i);
    if (n !== undefined) for (let k = 0; k < n; k++) out.push({ value: ")", type: "CloseParen" });
    const t = tokens[i] as T;
    if (t.type === "Identifier" && t.value === "is") {
      const neg = tokens[i + 1]?.type === "Identifier" && tokens[i + 1]?.value === "not";
      const at = neg ? i + 2 : i + 1;
      const name = tokens[at];
      if (name?.type === "Identifier") {
        const next = tokens[at + 1];
        const prefix = neg ? NOT_TEST_FILTER : TEST_FILTER;
        if (next?.type === "OpenParen") {
          out.push({ value: "|", type: "Pipe" }, { value: prefix + name.value, type: "Identifier" });
          i = at;
          continue;
        }
        const end = primaryEnd(tokens, at + 1, match);
        if (end > at + 1) {
          out.push(
            { value: "|", type: "Pipe" },
            { value: prefix + name.value, type: "Identifier" },
            { value: "(", type: "OpenParen" },
          );
          closeAt.set(end, (closeAt.get(end) ?? 0) + 1);
          i = at;
          continue;
        }
      }
    }
    out.push(t);
  }
  const n = closeAt.get(tokens.length);
  if (n !== undefined) for (let k = 0; k < n; k++) out.push({ value: ")", type: "CloseParen" });
  return out;
}

function rewriteTuples(tokens: T[]): T[] {
  const match = matchBrackets(tokens);
  const out: T[] = [];
  const end = (): T => ({ value: TUPLE_END, type: "Identifier" });
  /** Input indices of ")" that close a grouping paren ending in a comma. */
  const closeTuple = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as T;
    if (closeTuple.has(i)) out.push(end());
    out.push(t);
    if (t.type !== "OpenParen" || isCallPosition(tokens[i - 1])) continue;
    const m = match[i] as number;
    if (m < 0) continue;
    if (m === i + 1) out.push(end(), { value: ",", type: "Comma" }, end());
    else if (tokens[m - 1]?.type === "Comma") closeTuple.add(m);
  }
  return out;
}
