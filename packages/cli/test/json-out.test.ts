// json-out.ts: the explicit-stack serializer writes what JSON.stringify writes (the reference)
// on random JSON-ish values (fast-check: every JSON value, plus undefined members, non-finite
// numbers and toJSON), and keeps going where JSON.stringify throws RangeError (deep nesting).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringifyIterative, stringifyLine } from "../src/json-out.ts";

const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.jsonValue(),
    fc.constantFrom(undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, "\u2028\ud800"),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie("v"), { maxKeys: 4 }),
    tie("v").map((v) => ({ toJSON: () => v })),
  ),
})).v;

describe("stringifyIterative", () => {
  it("equals JSON.stringify on random values", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(stringifyIterative({ root: v })).toBe(JSON.stringify({ root: v }));
      }),
      { numRuns: 3000, seed: 0x15 },
    );
  });
  it("writes 1,000,000 levels that JSON.stringify cannot", () => {
    const depth = 1_000_000;
    const deep = JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as unknown;
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const s = stringifyLine({ events: [{ type: "action_end", call: { arguments: deep } }] });
    expect(s).toBe(
      `{"events":[{"type":"action_end","call":{"arguments":${"[".repeat(depth)}${"]".repeat(depth)}}}]}`,
    );
  });
  it("a cycle is a TypeError, as in JSON.stringify", () => {
    const a: unknown[] = [];
    a.push(a);
    expect(() => stringifyIterative(a)).toThrow(TypeError);
  });
});
