// Where a Python literal value written as a keyword argument ends, unit by unit: strings (single
// or triple quoted, a backslash keeping the next unit inside) and bracket depth, so a "," or ")"
// inside a string or a bracket does not end it. The value's text is then parsed once by
// ../python-literal.ts. Shared by the body syntaxes that read Python calls as they arrive.
import { MAX_NESTING_DEPTH } from "../limits.ts";

/** What one unit did: the value goes on, or why it stops here. */
export const LEX_GOES = 0;
/** A depth-0 "," or ")": the value ends before this unit. */
export const LEX_ENDS = 1;
/** Brackets nested deeper than MAX_NESTING_DEPTH (with the enclosing levels given to reset()). */
export const LEX_TOO_DEEP = 2;
/** A "]" or "}" that closes nothing. */
export const LEX_UNMATCHED = 3;
/** A "#" or "\" outside strings (a comment or a line continuation); the value goes on. */
export const LEX_COMMENT = 4;

export class PythonValueLexer {
  /** Open brackets inside the value. */
  depth = 0;
  /** The open string's quote unit, 0 outside strings. */
  quote = 0;
  /** Quotes seen at a string's start (1, 2: maybe a triple quote), 0 once decided. */
  opening = 0;
  triple = false;
  /** Consecutive closing quotes in a triple-quoted string. */
  quoteRun = 0;
  private escaped = false;
  /** Brackets open around the value (a call's own parenthesis counts toward the cap). */
  private outer = 0;

  reset(outerDepth = 0): void {
    this.depth = 0;
    this.quote = 0;
    this.opening = 0;
    this.triple = false;
    this.quoteRun = 0;
    this.escaped = false;
    this.outer = outerDepth;
  }

  /** One unit `c` of the value (LEX_*). */
  unit(c: number): number {
    if (this.opening === 1) {
      // One quote seen: a second one may start a triple quote or close an empty string.
      if (c === this.quote) {
        this.opening = 2;
        return LEX_GOES;
      }
      this.opening = 0;
      this.triple = false;
    } else if (this.opening === 2) {
      this.opening = 0;
      if (c === this.quote) {
        this.triple = true;
        this.quoteRun = 0;
        return LEX_GOES;
      }
      this.quote = 0; // "" was an empty string: c is after it
    }
    if (this.quote !== 0) {
      if (this.escaped) this.escaped = false;
      else if (c === 92 /* \ */) this.escaped = true;
      else if (c === this.quote) {
        if (!this.triple || ++this.quoteRun === 3) this.quote = 0;
        return LEX_GOES;
      }
      this.quoteRun = 0;
      return LEX_GOES;
    }
    if (c === 34 || c === 39) {
      this.quote = c;
      this.opening = 1;
      this.escaped = false;
      return LEX_GOES;
    }
    if (c === 40 || c === 91 || c === 123) {
      return ++this.depth + this.outer > MAX_NESTING_DEPTH ? LEX_TOO_DEEP : LEX_GOES;
    }
    if (c === 41 || c === 93 || c === 125) {
      if (this.depth > 0) {
        this.depth--;
        return LEX_GOES;
      }
      return c === 41 ? LEX_ENDS : LEX_UNMATCHED;
    }
    if (c === 44 /* , */) return this.depth === 0 ? LEX_ENDS : LEX_GOES;
    return c === 35 /* # */ || c === 92 ? LEX_COMMENT : LEX_GOES;
  }
}
