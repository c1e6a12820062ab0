// FireFunction v2 through its template: the probe renders it with the variables no request
// defines (`functions`, `datetime`) given as "", and json-calls reads its ` functools[…]` JSON
// list of calls after literal text. Content then calls, decoded one ID at a time, in bursts and
// by the reference decoder alike; the streamed name comes first and the argument deltas
// concatenate to each call's arguments.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreedMessage, haveTemplate, loadEntry } from "./derived-format-support.ts";

const FF = "models/templates/fireworks-ai-llama-3-firefunction-v2.jinja";
const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/);
const args = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });

describe.skipIf(!haveTemplate(FF))("FireFunction v2 calls through the decoder", () => {
  const toolsOf = (names: readonly string[]) =>
    [...new Set(names)].map((n) => ({
      type: "function",
      function: { name: n, parameters: { type: "object" } },
    }));

  it("content, then a functools list of calls; bursts and the reference path agree", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, args), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("", "Let me check [a list]."),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
        (calls, content, bursts) => {
          const list = calls.map(
            ([n, a]) => `{"name": ${JSON.stringify(n)}, "arguments": ${JSON.stringify(a)}}`,
          );
          const output = `${content} functools[${list.join(", ")}]<|eot_id|>`;
          const m = agreedMessage(FF, loadEntry(FF).encode(output), bursts, {
            streamToolCalls: true,
            tools: toolsOf(calls.map(([n]) => n)),
          });
          const expected = calls.map(([n, a]) => ({
            name: n,
            arguments: JSON.parse(JSON.stringify(a)) as unknown,
          }));
          expect(m.errors).toEqual([]);
          expect(m.content.trim()).toBe(content);
          expect(m.calls).toEqual(expected);
          expect(m.streamed.map((s) => s.name)).toEqual(expected.map((c) => c.name));
          expect(m.streamed.map((s) => JSON.parse(s.args))).toEqual(expected.map((c) => c.arguments));
        },
      ),
      { numRuns: 40 },
    );
  });
});
