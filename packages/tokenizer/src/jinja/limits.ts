// Templates are untrusted input too: every render is bounded. Exceeding a bound is a typed
// TokenizerError("template-limit") naming the bound, never a hang or an out-of-memory crash.
//
// Work is charged by what an operation does, before it allocates: a character copied, scanned or
// compared is one unit; a list slot, dict entry or comparison step ITEM_COST units; a value object
// made (one character of `|list`, one part of `split`) VALUE_COST units. Every allocation of a
// render is charged, so the work budget also bounds the memory a render can hold (docs/templates.md
// "Cost of operations").

export interface TemplateLimits {
  /** Characters of rendered output, and of any one string or printed value (default 4,000,000). */
  readonly maxOutputChars: number;
  /** Loop iterations + macro calls over the whole render (default 1,000,000). */
  readonly maxSteps: number;
  /**
   * Work units over the whole render (default 64,000,000): characters produced, scanned or
   * compared by every operation, list items and values made (see ITEM_COST, VALUE_COST).
   */
  readonly maxWorkChars: number;
  /** Nested macro calls (default 64). */
  readonly maxCallDepth: number;
}

export const DEFAULT_LIMITS: TemplateLimits = Object.freeze({
  maxOutputChars: 4_000_000,
  maxSteps: 1_000_000,
  maxWorkChars: 64_000_000,
  maxCallDepth: 64,
});

/** Work units of a list slot or dict entry made or visited, and of one comparison step. */
export const ITEM_COST = 4;
/** Work units of a value object made per element (a one-character string of `|list`, a `split` part). */
export const VALUE_COST = 32;

/**
 * What the interpreter's values have allocated (characters of strings made or joined, string
 * values, list slots and dict entries), counted where they are made, apart from the charges: the
 * fuzz suite checks that the charged work follows it. One addition per value made.
 */
export const allocated = { chars: 0, values: 0, items: 0 };

/** What a comparison or traversal charges its work to (the render's Interpreter). */
export interface Meter {
  charge(n: number): number;
}

/** A bound of TemplateLimits was exceeded (render.ts maps it to TokenizerError "template-limit"). */
export class TemplateLimitError extends Error {
  constructor(
    readonly limit: keyof TemplateLimits,
    message: string,
  ) {
    super(message);
  }
}

/** The error for a string (or printed value) longer than maxOutputChars. */
export function tooLong(max: number): TemplateLimitError {
  return new TemplateLimitError("maxOutputChars", `a string longer than ${max} characters`);
}
