// FireFunction v2 through its template: the probe renders it with the variables no request
// defines (`functions`, `datetime`) given as "", and json-calls reads its ` functools[…]` JSON
// list of calls after literal text. Content then calls, decoded one ID at a time, in bursts and
// by the reference decoder alike; the streamed name comes first and the argument deltas
// concatenate to each call's arguments.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreedCalls, burstsArb, expectStreamedCalls, haveTemplate } from "./derived-format-support.ts";

const FF = "models/templates/fireworks-ai-llama-3-firefunction-v2.jinja";
const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/);
const args = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });

describe.skipIf(!haveTemplate(FF))("FireFunction v2 calls through the decoder", () => {
  it("content, then a functools list of calls; bursts and the reference path agree", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, args), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("", "Let me check [a list]."),
        burstsArb,
        (calls, content, bursts) => {
          const list = calls.map(
            ([n, a]) => `{"name": ${JSON.stringify(n)}, "arguments": ${JSON.stringify(a)}}`,
          );
          const output = `${content} functools[${list.join(", ")}]<|eot_id|>`;
          const names = calls.map(([n]) => n);
          const m = agreedCalls(FF, output, names, bursts);
          expect(m.content.trim()).toBe(content);
          expectStreamedCalls(
            m,
            calls.map(([n, a]) => ({ name: n, arguments: JSON.parse(JSON.stringify(a)) as unknown })),
          );
        },
      ),
      { numRuns: 40 },
    );
  });
});
