// The nesting cap of parsed JSON calls at its boundary (action-parse.ts nestsDeeperThan: a
// text no longer than the cap is not scanned, it cannot hold more opening brackets than
// characters). The reference depth below is a plain re-implementation of the rule (brackets
// outside JSON strings), not the vendors' code.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nestsDeeperThan, parseJsonCall } from "../src/action-parse.ts";
import { MAX_NESTING_DEPTH } from "../src/limits.ts";

function referenceDepth(s: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return max;
}

const call = (depth: number): string =>
  // The call object is one level: arguments nested `depth - 1` more (an object, then arrays).
  `{"name":"f","arguments":{"a":${"[".repeat(depth - 2)}${"]".repeat(depth - 2)}}}`;

describe("JSON call nesting cap", () => {
  it(`a call nested exactly ${MAX_NESTING_DEPTH} levels parses, one level more is an error`, () => {
    expect(referenceDepth(call(MAX_NESTING_DEPTH))).toBe(MAX_NESTING_DEPTH);
    expect(parseJsonCall(call(MAX_NESTING_DEPTH), ["arguments"])).toHaveProperty("call");
    expect(parseJsonCall(call(MAX_NESTING_DEPTH + 1), ["arguments"])).toEqual({
      error: `the call is nested deeper than ${MAX_NESTING_DEPTH} levels`,
    });
  });

  it("at the length boundary: max + 1 opening brackets are deeper than max, max of them are not", () => {
    for (const max of [1, 2, 5, MAX_NESTING_DEPTH]) {
      expect(nestsDeeperThan("[".repeat(max + 1), max)).toBe(true);
      expect(nestsDeeperThan("[".repeat(max), max)).toBe(false);
      expect(nestsDeeperThan(`${"{".repeat(max + 1)}${"}".repeat(max + 1)}`, max)).toBe(true);
    }
  });

  it("equals the reference depth rule on random bracket texts (strings skipped)", () => {
    const unit = fc.constantFrom("[", "]", "{", "}", '"[', '"', "\\", "a", ",");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), fc.integer({ min: 0, max: 12 }), (units, max) => {
        const s = units.join("");
        // nestsDeeperThan assumes valid JSON strings (escapes well formed): keep texts whose strings close.
        fc.pre(!s.endsWith("\\"));
        expect(nestsDeeperThan(s, max)).toBe(referenceDepth(s) > max);
      }),
      { numRuns: 2000, seed: 15 },
    );
  });
});
