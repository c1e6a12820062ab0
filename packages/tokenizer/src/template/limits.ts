// Templates are untrusted input too: every render is bounded. Exceeding a bound is a typed
// TokenizerError("template-limit") naming the bound, never a hang or an out-of-memory crash.

export interface TemplateLimits {
  /** Characters of rendered output (default 4,000,000). */
  readonly maxOutputChars: number;
  /** Loop iterations + macro calls over the whole render (default 1,000,000). */
  readonly maxSteps: number;
  /** Characters produced by all string operations together (default 64,000,000): bounds `ns.s = ns.s ~ ns.s`. */
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
