// Normalizer and pre-tokenizer of a SentencePiece-converted tokenizer.json on one segment (the
// text between two matched added tokens): a re-implementation of HF tokenizers' Replace /
// Prepend normalizers, Split(String) with its four behaviours and Metaspace, checked against the
// Rust crate by test/spjson-crosscheck.test.ts. Linear in the segment's length.

import type { NormalizerStep, PreTokenizerStep, SplitBehavior } from "./spec.ts";

/** HF NormalizedString steps: Replace every occurrence; Prepend when the string is not empty. */
export function normalize(steps: readonly NormalizerStep[], text: string): string {
  let s = text;
  for (const step of steps) {
    if (step.kind === "replace") s = s.split(step.from).join(step.to);
    else if (s.length > 0) s = step.prefix + s;
  }
  return s;
}

/** HF NormalizedString::split with a String pattern (non-overlapping, left to right); empty pieces dropped. */
function splitOn(s: string, pattern: string, behavior: SplitBehavior): string[] {
  // [text, isMatch] in order, as find_matches yields them.
  const parts: [string, boolean][] = [];
  let from = 0;
  for (;;) {
    const at = s.indexOf(pattern, from);
    if (at < 0) break;
    if (at > from) parts.push([s.slice(from, at), false]);
    parts.push([pattern, true]);
    from = at + pattern.length;
  }
  if (from < s.length) parts.push([s.slice(from), false]);
  const out: string[] = [];
  if (behavior === "Removed") {
    for (const [t, m] of parts) if (!m) out.push(t);
  } else if (behavior === "Isolated") {
    for (const [t] of parts) out.push(t);
  } else if (behavior === "MergedWithPrevious") {
    let previousMatch = false;
    for (const [t, m] of parts) {
      if (m && !previousMatch && out.length > 0) out[out.length - 1] += t;
      else out.push(t);
      previousMatch = m;
    }
  } else {
    let previousMatch = false;
    const rev: string[] = [];
    for (let i = parts.length - 1; i >= 0; i--) {
      const [t, m] = parts[i] as [string, boolean];
      if (m && !previousMatch && rev.length > 0) rev[rev.length - 1] = t + rev[rev.length - 1];
      else rev.push(t);
      previousMatch = m;
    }
    for (let i = rev.length - 1; i >= 0; i--) out.push(rev[i] as string);
  }
  return out.filter((t) => t.length > 0);
}

/**
 * The pre-tokens of one normalized segment. `atOrigin`: the segment starts at offset 0 of the
 * encoded text (Metaspace prepend_scheme "first" prepends only there).
 */
export function preTokenize(steps: readonly PreTokenizerStep[], text: string, atOrigin: boolean): string[] {
  let pieces = text.length === 0 ? [] : [text];
  for (const step of steps) {
    const next: string[] = [];
    pieces.forEach((p, i) => {
      if (step.kind === "split") {
        for (const q of splitOn(p, step.pattern, step.behavior)) next.push(q);
        return;
      }
      let s = p.split(" ").join(step.replacement);
      const first = atOrigin && i === 0;
      if (
        !s.startsWith(step.replacement) &&
        (step.prepend === "always" || (step.prepend === "first" && first))
      )
        s = step.replacement + s;
      if (step.split) for (const q of splitOn(s, step.replacement, "MergedWithNext")) next.push(q);
      else next.push(s);
    });
    pieces = next;
  }
  return pieces;
}
