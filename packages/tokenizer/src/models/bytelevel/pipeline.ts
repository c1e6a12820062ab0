// Runs the components of ./pipeline-spec.ts around the byte-level BPE core: the normalizers on
// the whole text of one encoder call, then each split step on every piece of the previous one
// (HF PreTokenizedString::split), then ByteLevel's add_prefix_space per piece, then the core
// (its own Isolated split + BPE) once per piece. A re-implementation of HF tokenizers
// (normalizers/*.rs, NormalizedString::split with its five behaviors), checked against the Rust
// crate by test/tokenizer-breadth.test.ts.
//
// Cost: each step is one left-to-right RegExp scan per piece and the pieces partition the text,
// so a step is linear in the text when its regex is (the translated patterns have no nested
// quantifiers; the breadth test compares 64k-char hostile and benign inputs). A V8 RangeError on
// a pathological match is a typed error, never an exception past the API.

import { TokenizerError } from "../../errors.ts";
import type { Behavior, NormalizerStep, SplitStep } from "./pipeline-spec.ts";
import { WHITE_SPACE } from "./regex-translate.ts";

const LEADING_WS = new RegExp(`^[${WHITE_SPACE}]+`, "v");
const TRAILING_WS = new RegExp(`[${WHITE_SPACE}]+$`, "v");

/** HF normalizers, in order, on one string. */
export function runNormalizers(steps: readonly NormalizerStep[], text: string): string {
  let s = text;
  for (const step of steps) {
    switch (step.kind) {
      case "unicode":
        s = s.normalize(step.form);
        break;
      case "lowercase": {
        // Rust char::to_lowercase, one character at a time (no final-sigma context).
        let out = "";
        for (const ch of s) out += ch.toLowerCase();
        s = out;
        break;
      }
      case "strip":
        if (step.left) s = s.replace(LEADING_WS, "");
        if (step.right) s = s.replace(TRAILING_WS, "");
        break;
      case "replace":
        s = s.split(step.from).join(step.to);
        break;
      case "prepend":
        if (s.length > 0) s = step.prefix + s;
        break;
    }
  }
  return s;
}

/** [start, end, isMatch] triples covering `s`, as HF Pattern::find_matches yields them. */
function findMatches(re: RegExp, s: string, invert: boolean): [number, number, boolean][] {
  const out: [number, number, boolean][] = [];
  let prev = 0;
  re.lastIndex = 0;
  try {
    for (let m = re.exec(s); m !== null; m = re.exec(s)) {
      const start = m.index;
      const end = start + m[0].length;
      if (prev !== start) out.push([prev, start, invert]);
      out.push([start, end, !invert]);
      prev = end;
      if (end === start) {
        // An empty match: the search goes on one character later (onig find_iter).
        const c = s.codePointAt(end);
        re.lastIndex = end + (c !== undefined && c > 0xffff ? 2 : 1);
      }
    }
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new TokenizerError(
      "invalid-argument",
      "text holds a pre-token too long for this engine's RegExp (a tokenizer.json split step)",
      {},
    );
  }
  if (prev !== s.length) out.push([prev, s.length, invert]);
  return out;
}

const SPACE = new RegExp(`[${WHITE_SPACE}]`, "v");

/**
 * The matches of Oniguruma's `\s+$` ("$": before a "\n" or at the end), in one pass: from the
 * start of a whitespace run, the greedy match ends at the end of the text when the run reaches
 * it, else at the LAST "\n" of the run after its start (then the next match starts at that
 * "\n"); a run with neither has no match from any of its positions.
 */
function trailingSpaceMatches(s: string, invert: boolean): [number, number, boolean][] {
  const out: [number, number, boolean][] = [];
  let prev = 0;
  let i = 0;
  while (i < s.length) {
    if (!SPACE.test(s[i] as string)) {
      i++;
      continue;
    }
    let e = i;
    let lastNl = -1;
    while (e < s.length && SPACE.test(s[e] as string)) {
      if (s.charCodeAt(e) === 0x0a) lastNl = e;
      e++;
    }
    // Matches inside this run: [a, end) repeatedly, a = the previous end.
    let a = i;
    for (;;) {
      const end = e === s.length ? e : lastNl > a ? lastNl : -1;
      if (end < 0) break;
      if (prev !== a) out.push([prev, a, invert]);
      out.push([a, end, !invert]);
      prev = end;
      a = end;
      if (end === e) break;
    }
    i = e;
  }
  if (prev !== s.length) out.push([prev, s.length, invert]);
  return out;
}

/** HF NormalizedString::split: the pieces of `s` (empty ones dropped). */
export function splitPiece(
  re: RegExp,
  behavior: Behavior,
  invert: boolean,
  s: string,
  out: string[],
  trailingSpace = false,
): void {
  const matches = trailingSpace ? trailingSpaceMatches(s, invert) : findMatches(re, s, invert);
  const spans: [number, number][] = [];
  if (behavior === "Isolated") for (const [a, b] of matches) spans.push([a, b]);
  else if (behavior === "Removed") {
    for (const [a, b, m] of matches) if (!m) spans.push([a, b]);
  } else if (behavior === "MergedWithPrevious" || behavior === "Contiguous") {
    let previous = false;
    for (const [a, b, m] of matches) {
      const merge = behavior === "Contiguous" ? m === previous : m && !previous;
      const last = spans[spans.length - 1];
      if (merge && last !== undefined) last[1] = b;
      else spans.push([a, b]);
      previous = m;
    }
  } else {
    let previous = false;
    for (let i = matches.length - 1; i >= 0; i--) {
      const [a, b, m] = matches[i] as [number, number, boolean];
      const last = spans[spans.length - 1];
      if (m && !previous && last !== undefined) last[0] = a;
      else spans.push([a, b]);
      previous = m;
    }
    spans.reverse();
  }
  for (const [a, b] of spans) if (b > a) out.push(s.slice(a, b));
}

export interface CompiledSteps {
  readonly normalizers: readonly NormalizerStep[];
  readonly steps: readonly { readonly re: RegExp; readonly step: SplitStep }[];
  readonly prefixSpace: boolean;
}

export function compileSteps(
  normalizers: readonly NormalizerStep[],
  steps: readonly SplitStep[],
  prefixSpace: boolean,
): CompiledSteps {
  return {
    normalizers,
    steps: steps.map((step) => ({ re: new RegExp(step.source, "gv"), step })),
    prefixSpace,
  };
}

/** The pieces the core encodes, one call each, for one encoder call on `text`. */
export function pieces(c: CompiledSteps, text: string): string[] {
  const s = runNormalizers(c.normalizers, text);
  let list = s.length === 0 ? [] : [s];
  for (const { re, step } of c.steps) {
    const next: string[] = [];
    for (const p of list) splitPiece(re, step.behavior, step.invert, p, next, step.trailingSpace === true);
    list = next;
  }
  if (c.prefixSpace) return list.map((p) => (p.startsWith(" ") ? p : ` ${p}`));
  return list;
}
