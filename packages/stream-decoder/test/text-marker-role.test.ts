// A text marker with a "role" move (Functionary v3.2's `>>>`): where it is valid (content and
// an action's body, not reasoning or a metadata line) it ends the message and starts the next,
// as the reserved role marker does; under a role-metadata-line header the next message starts
// with its metadata line (contentMetadata: content). Expected events are written by hand from
// those rules; the engine equals the reference decoder under any burst sizes and any
// tokenization of the same text (fast-check).
import type { Grammar } from "@chatwire/tokenizer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDecoder, createReferenceDecoder } from "../src/index.ts";
import { calledAction, textMessage } from "./expected-events.ts";
import { mergedAll, TEXT_CALL_GRAMMAR, textMarkerFamily } from "./grammar-support.ts";
import { eventsInBursts } from "./push-bursts.ts";
import { decodeText, encCut } from "./text-marker-support.ts";

const ROLE_GRAMMAR: Grammar = {
  ...TEXT_CALL_GRAMMAR,
  textMarkers: { ...TEXT_CALL_GRAMMAR.textMarkers, "@@": { move: "role", role: "assistant" } },
};
const RECIPIENT_GRAMMAR: Grammar = {
  markers: { eos: { move: "message-end" } },
  header: { syntax: "role-metadata-line", actionBlock: "call", contentMetadata: ["all"] },
  blocks: [{ name: "call", emits: "action", body: "json-arguments" }],
  textMarkers: { ">>>": { move: "role", role: "assistant" } },
};
const roleFam = textMarkerFamily(ROLE_GRAMMAR);
const recipientFam = textMarkerFamily(RECIPIENT_GRAMMAR, [">>>", ">>"]);

const start = (metadata: string) => ({ type: "message_start", role: "assistant", metadata }) as const;

describe("a role text marker", () => {
  it("in content and in a call's body ends the message; in reasoning it is text", () => {
    const json = '{"name": "f", "arguments": {}}';
    expect(decodeText(roleFam, `Hi@@there<｜DSML｜call>${json}@@<think>\na @@ b\n</think>\n\nok`)).toEqual([
      ...textMessage("assistant", "Hi"),
      start(""),
      { type: "text", text: "there" },
      ...calledAction("tool_call", json, { name: "f", arguments: {} }),
      { type: "message_end" },
      start(""),
      { type: "reasoning", text: "a @@ b" },
      { type: "text", text: "ok" },
      { type: "message_end" },
      { type: "stop", reason: "eos", token: roleFam.id.eos },
    ]);
  });

  it("under a metadata-line header starts a message with its recipient line", () => {
    expect(decodeText(recipientFam, 'all\nHi >> x>>>f\n{"a": 1}>>>all\nok')).toEqual([
      ...textMessage("assistant", "Hi >> x", "all"),
      start("f"),
      ...calledAction("f", '{"a": 1}', { name: "f", arguments: { a: 1 } }),
      { type: "message_end" },
      ...textMessage("assistant", "ok", "all"),
      { type: "stop", reason: "eos", token: recipientFam.id.eos },
    ]);
  });

  it("the engine equals the reference under any bursts and tokenization", () => {
    const unit = fc.constantFrom(
      "all\n",
      "f\n",
      "@@",
      "@",
      ">>>",
      ">",
      ">>",
      '{"a": 1}',
      '{"name": "f", "arguments": {}}',
      "<｜DSML｜call>",
      "</｜DSML｜call>",
      "<think>",
      "</think>",
      "Hello",
      "\n",
      " ",
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 14 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (units, cuts, sizes, streamToolCalls) => {
          const text = units.join("");
          const options = { streamToolCalls };
          for (const fam of [roleFam, recipientFam]) {
            const eos = fam.id.eos as number;
            const whole = eventsInBursts(createDecoder, fam.spec, [...encCut(fam, text), eos], options, [1]);
            const ids = [...encCut(fam, text, cuts), eos];
            expect(mergedAll(eventsInBursts(createDecoder, fam.spec, ids, options, sizes))).toEqual(
              mergedAll(whole),
            );
            expect(mergedAll(eventsInBursts(createReferenceDecoder, fam.spec, ids, options, [1]))).toEqual(
              mergedAll(whole),
            );
          }
        },
      ),
      { numRuns: 300, seed: 37 },
    );
  });
});
