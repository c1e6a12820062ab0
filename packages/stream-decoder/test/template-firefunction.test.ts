// FireFunction v2 through its template: the probe renders it with the variables no request
// defines (`functions`, `datetime`) given as "", and json-calls reads its ` functools[…]` JSON
// list of calls after literal text. Content then calls, decoded one ID at a time, in bursts and
// by the reference decoder alike; the streamed name comes first and the argument deltas
// concatenate to each call's arguments.
import fc from "fast-check";
import { describe, it } from "vitest";
import { expectRenderedJsonCalls, haveTemplate } from "./derived-format-support.ts";

const FF = "models/templates/fireworks-ai-llama-3-firefunction-v2.jinja";
const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/);

describe.skipIf(!haveTemplate(FF))("FireFunction v2 calls through the decoder", () => {
  it("content, then a functools list of calls; bursts and the reference path agree", () => {
    expectRenderedJsonCalls(
      FF,
      name,
      ["", "Let me check [a list]."],
      (content, calls) => {
        const list = calls.map(
          ([n, a]) => `{"name": ${JSON.stringify(n)}, "arguments": ${JSON.stringify(a)}}`,
        );
        return `${content} functools[${list.join(", ")}]<|eot_id|>`;
      },
      (content) => content.trim(),
    );
  });
});
