// TemplateTurns.callTurn (GigaChat 3.0): a call written as a turn of its own after the
// assistant's end of turn, `Hello‹<|message_sep|>›\n\nfunction call‹<|role_sep|>›\n{json}‹<|message_sep|>›`.
// The call is an action of the same message (no message end between the content and it), its
// name and argument deltas stream, any bursts and the reference decoder agree; an end of turn
// followed by anything else ends the message as before, and the opening is found however its
// text was tokenized. Loaded as the peer-parse scorer loads the format (../shared's template,
// the stand-in vocabulary); skipped without it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compileTemplateDecoderSpec,
  createDecoder,
  createReferenceDecoder,
  eventCollector,
} from "../src/index.ts";
import { agreedMessage, decodeIds, haveTemplate, loadEntry } from "./derived-format-support.ts";

const KEY = "models/templates/GigaChat3-10B-A1.8B.jinja";
const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }];

describe.skipIf(!haveTemplate(KEY))("call turn after the end of turn (GigaChat 3.0)", () => {
  it("content, then the call as an action of the same message, then one message end", () => {
    const { encode } = loadEntry(KEY);
    const ids = encode(
      'Checking.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather", "arguments": {"city": "Paris"}}<|message_sep|>\n\n',
    );
    const events = decodeIds(KEY, ids, "one", { streamToolCalls: true, tools: TOOLS });
    const kinds = events
      .map((e) => e.type)
      .filter((t, i, all) => t !== "action_text" && t !== "tool_call_arguments" && t !== all[i - 1]);
    expect(kinds).toEqual([
      "message_start",
      "text",
      "action_start",
      "tool_call_name",
      "action_end",
      "message_end",
      "stop",
    ]);
    const m = agreedMessage(KEY, ids, [3, 1, 5], { streamToolCalls: true, tools: TOOLS });
    expect(m.content).toBe("Checking.");
    expect(m.calls).toEqual([{ name: "get_weather", arguments: { city: "Paris" } }]);
    expect(JSON.parse(m.streamed[0]?.args ?? "")).toEqual({ city: "Paris" });
    expect(m.errors).toEqual([]);
  });

  it("an end of turn followed by no call turn ends the message: EOS, the end of input, other text", () => {
    const { encode } = loadEntry(KEY);
    const eos = encode("Hello<|message_sep|><|im_end|>");
    const a = decodeIds(KEY, eos, "one");
    expect(a.map((e) => e.type)).toEqual(["message_start", "text", "message_end", "stop"]);
    expect(a.at(-1)).toMatchObject({ reason: "eos" });
    const b = decodeIds(KEY, encode("Hello<|message_sep|>\n\n"), "one");
    expect(b.map((e) => e.type)).toEqual(["message_start", "text", "message_end", "stop"]);
    expect(b.at(-1)).toMatchObject({ reason: "end_of_input" });
    // A user turn the model starts itself is no call: the message ended before it.
    const c = decodeIds(KEY, encode("Hello<|message_sep|>\n\nuser<|role_sep|>\nhi"), "one");
    expect(c.filter((e) => e.type === "action_start")).toEqual([]);
    const end = c.findIndex((e) => e.type === "message_end");
    expect(c.slice(0, end).filter((e) => e.type === "text")).toEqual([{ type: "text", text: "Hello" }]);
    expect(c.slice(end).find((e) => e.type === "message_start")).toMatchObject({ role: "user" });
    // maxTokens inside the held opening: the held message end is reported, no call opens.
    const d = decodeIds(KEY, encode("Hello<|message_sep|>\n\nfunction call"), "one", { maxTokens: 4 });
    expect(d.filter((e) => e.type === "message_end")).toHaveLength(1);
    expect(d.at(-1)).toMatchObject({ type: "stop", reason: "max_tokens" });
    expect(d.filter((e) => e.type === "action_start")).toEqual([]);
  });

  it("an end of turn that is also a stop (the files' EOS) reports its message end before the stop", () => {
    const { encode, tok, probe } = loadEntry(KEY);
    const sep = tok.reserved.get("<|message_sep|>") as number;
    const spec = compileTemplateDecoderSpec(tok.textModel, probe, { eosIds: [...probe.eosIds, sep] });
    for (const make of [createDecoder, createReferenceDecoder]) {
      const c = eventCollector();
      const d = make(spec, c);
      d.pushMany(encode("Hello<|message_sep|>\n\nfunction call"));
      d.end();
      expect(c.events.map((e) => e.type)).toEqual(["message_start", "text", "message_end", "stop"]);
      expect(c.events.at(-1)).toMatchObject({ reason: "eos", token: sep });
    }
  });

  it("the opening is read from the decoded text, however it was tokenized", () => {
    const { encode, tok } = loadEntry(KEY);
    const sep = tok.reserved.get("<|message_sep|>") as number;
    const role = tok.reserved.get("<|role_sep|>") as number;
    const pieces = ["\n", "\n", "func", "tion", " ", "call"].flatMap((p) => encode(p));
    const ids = [...encode("Hi"), sep, ...pieces, role, ...encode('\n{"name": "f", "arguments": {}}')];
    const m = agreedMessage(KEY, ids, [1, 2]);
    expect(m.content).toBe("Hi");
    expect(m.calls).toEqual([{ name: "f", arguments: {} }]);
  });

  it("any content, arguments and bursts: the call, the content and streamed deltas agree", () => {
    const { encode } = loadEntry(KEY);
    const args = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    const content = fc.stringMatching(/^[a-zA-Z ,.!?\n]{0,20}$/);
    fc.assert(
      fc.property(
        content,
        args,
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
        (c, a, bursts) => {
          const text = `${c}<|message_sep|>\n\nfunction call<|role_sep|>\n${JSON.stringify({ name: "tool_x", arguments: a })}<|message_sep|>\n\n`;
          const m = agreedMessage(KEY, encode(text), bursts, { streamToolCalls: true });
          expect(m.content).toBe(c);
          expect(m.calls).toEqual([{ name: "tool_x", arguments: JSON.parse(JSON.stringify(a)) }]);
          expect(m.streamed).toHaveLength(1);
          expect(JSON.parse(m.streamed[0]?.args ?? "")).toEqual(JSON.parse(JSON.stringify(a)));
        },
      ),
      { numRuns: 60, seed: 37 },
    );
  });
});
