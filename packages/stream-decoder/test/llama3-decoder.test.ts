// The Llama 3.x grammar (packages/tokenizer/src/families/llama3/grammar.ts) in the decoder, on
// the Llama 3.0 package vocabulary and the DERIVED Llama 3.1 one (renames applied at test time,
// test-vectors/gen/family_llama3_lib.mjs): role from <|start_header_id|>ROLE<|end_header_id|>,
// the template's "\n\n" dropped, stops on <|eot_id|> / <|end_of_text|> (and <|eom_id|> in 3.1),
// the <|python_tag|> built-in call ending at <|eom_id|>, a plain-JSON custom tool call detected
// only when the request's tools were given, misplaced reserved tokens, chunking invariance, and
// encode -> decode round trips through the llama31 renderer.
import { describe, expect, it } from "vitest";
import { definition31 } from "../../tokenizer/src/families/llama3/definition.ts";
import { LLAMA3_GRAMMAR } from "../../tokenizer/src/families/llama3/grammar.ts";
import { encode as encodeChat, type VocabName, vocab } from "../../tokenizer/test/llama3-support.ts";
import {
  compileDecoderSpecFor,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
} from "../src/index.ts";
import type { DecoderSpec } from "../src/spec.ts";
import { assistantCalls } from "./chat-messages.ts";
import { calledAction, textMessage } from "./expected-events.ts";
import { mergeDeltas } from "./merge-deltas.ts";
import { textOf } from "./models.ts";
import { eventsInBursts, ONE_BURST } from "./push-bursts.ts";

/** The spec of the loaded tokenizer (its verified registry and the llama31 definition's grammar). */
function spec(vname: VocabName, eosIds?: readonly number[]): DecoderSpec {
  return compileDecoderSpecFor(vocab(vname).tok("llama31"), eosIds === undefined ? {} : { eosIds });
}

function run(
  s: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions = {},
  oneByOne = false,
): DecoderEvent[] {
  return eventsInBursts(createDecoder, s, ids, options, oneByOne ? [] : ONE_BURST);
}

/** Adjacent text / action_text / argument events merged (chunking changes only their split). */
const merged = (events: readonly DecoderEvent[]): DecoderEvent[] =>
  mergeDeltas(events, ["text", "action_text", "tool_call_arguments"]);

const WEATHER = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];

describe.each(["3.0", "3.1-derived"] as const)("Llama 3.x decoder, vocabulary %s", (vname) => {
  const v = vocab(vname);
  const t = (s: string) => v.textModel.encode(s);
  const ids = v.ids;
  const s = spec(vname);

  it("text after the generation prompt, stop on <|eot_id|>", () => {
    const ev = merged(run(s, [...t("Hello, 世界 👋!"), ids.eot, ...t("after")]));
    expect(ev).toEqual([
      ...textMessage("assistant", "Hello, 世界 👋!"),
      { type: "stop", reason: "eos", token: ids.eot },
    ]);
  });

  it("stop on <|end_of_text|>", () => {
    const ev = merged(run(s, [...t("Bye"), ids.endOfText]));
    expect(ev.at(-1)).toEqual({ type: "stop", reason: "eos", token: ids.endOfText });
    expect(ev.filter((e) => e.type === "text")).toEqual([{ type: "text", text: "Bye" }]);
  });

  it('the role from the header pair, the template\'s "\\n\\n" dropped (several messages, no EOS)', () => {
    const multi = spec(vname, []);
    expect(vocab(vname).tok("llama31").family.grammar).toBe(LLAMA3_GRAMMAR);
    const msg = (role: string, body: string) => [
      ids.startHeader,
      ...t(role),
      ids.endHeader,
      ...t(`\n\n${body}`),
      ids.eot,
    ];
    const ev = merged(run(multi, [ids.eot, ...msg("ipython", '"42"'), ...msg("assistant", "\n  It is 42.")]));
    expect(ev).toEqual([
      { type: "message_start", role: "assistant", metadata: "" },
      { type: "message_end" },
      ...textMessage("ipython", '"42"'),
      ...textMessage("assistant", "\n  It is 42."),
      { type: "stop", reason: "end_of_input" },
    ]);
  });

  it("<|begin_of_text|> and reserved tokens are misplaced (reported, decoding goes on)", () => {
    const rst = v.reserved.get("<|reserved_special_token_200|>") as number;
    const ev = run(s, [...t("a"), ids.beginOfText, rst, ...t("b"), ids.eot]);
    const errors = ev
      .filter((e) => e.type === "error")
      .map((e) => (e as { code: string; token: number }).token);
    expect(errors).toEqual([ids.beginOfText, rst]);
    expect(merged(ev.filter((e) => e.type !== "error")).filter((e) => e.type === "text")).toEqual([
      { type: "text", text: "ab" },
    ]);
  });

  it("a plain JSON tool call is a tool call only when the request's tools were given", () => {
    const call = t('{"name": "get_weather", "parameters": {"city": "Paris"}}');
    const withTools = merged(run(s, [...call, ids.eot], { tools: WEATHER, streamToolCalls: true }));
    const end = withTools.find((e) => e.type === "action_end") as { call?: unknown; kind: string };
    expect(end.kind).toBe("tool_call");
    expect(end.call).toEqual({ name: "get_weather", arguments: { city: "Paris" } });
    expect(withTools.filter((e) => e.type === "text")).toEqual([]);
    expect(withTools.find((e) => e.type === "tool_call_name")).toEqual({
      type: "tool_call_name",
      name: "get_weather",
    });
    expect(textOf(withTools, "tool_call_arguments")).toBe('{"city": "Paris"}');
    const without = merged(run(s, [...call, ids.eot]));
    expect(without.filter((e) => e.type.startsWith("action"))).toEqual([]);
    expect(without.filter((e) => e.type === "text")).toEqual([
      { type: "text", text: '{"name": "get_weather", "parameters": {"city": "Paris"}}' },
    ]);
    // Text that does not start with "{" stays text even with tools.
    const prose = merged(run(s, [...t('Sure. {"name": "x"}'), ids.eot], { tools: WEATHER }));
    expect(prose.filter((e) => e.type.startsWith("action"))).toEqual([]);
  });

  it("chunking: one ID at a time gives the same events as pushMany", () => {
    const seq = [...t("  "), ...t('{"name": "get_weather", "parameters": {"city": "東京 🗼"}}'), ids.eot];
    const a = run(s, seq, { tools: WEATHER, streamToolCalls: true });
    const b = run(s, seq, { tools: WEATHER, streamToolCalls: true }, true);
    expect(merged(b)).toEqual(merged(a));
  });

  it("encode -> decode: an assistant tool call rendered by llama31 decodes to the same call", () => {
    const args = { city: "Zürich", days: 3, hourly: false, tags: ["a", "ü"] };
    const req = {
      tools: WEATHER,
      messages: [
        { role: "user", content: "Weather?" },
        assistantCalls([{ name: "get_weather", arguments: args }]),
      ],
      add_generation_prompt: false,
    };
    // The generation is what follows the generation prompt `<|start_header_id|>assistant<|end_header_id|>\n\n`
    // (the "\n\n" is a token of its own: the pre-tokenizer isolates newline runs).
    const generated = (enc: readonly number[]): number[] => {
      const from = enc.lastIndexOf(ids.endHeader) + 1;
      expect(v.textModel.decode(enc.slice(from, from + 1))).toBe("\n\n");
      return enc.slice(from + 1);
    };
    const enc = encodeChat("llama31", v, req).ids;
    const ev = merged(run(s, generated(enc), { tools: WEATHER }));
    expect(ev.find((e) => e.type === "action_end")).toMatchObject({
      kind: "tool_call",
      call: { name: "get_weather", arguments: args },
    });
    expect(ev.at(-1)).toEqual({ type: "stop", reason: "eos", token: ids.eot });
    // and a text reply round-trips as text
    const reply = encodeChat("llama31", v, {
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello! 你好 ✓\n\nTwo lines." },
      ],
      add_generation_prompt: false,
    }).ids;
    const ev2 = merged(run(s, generated(reply)));
    expect(ev2.filter((e) => e.type === "text")).toEqual([
      { type: "text", text: "Hello! 你好 ✓\n\nTwo lines." },
    ]);
  });
});

describe("Llama 3.1 built-in tool call: <|python_tag|>CALL<|eom_id|> (derived 3.1 vocabulary)", () => {
  const v = vocab("3.1-derived");
  const t = (s: string) => v.textModel.encode(s);
  const ids = v.ids;

  it("the python_tag block is an action ending at <|eom_id|>, which stops", () => {
    expect(ids.pythonTag).toBe(128010);
    expect(ids.eom).toBe(128008);
    const code = 'brave_search.call(query="chatwire tokenizer")';
    const ev = merged(run(spec("3.1-derived"), [ids.pythonTag, ...t(code), ids.eom]));
    expect(ev).toEqual([
      { type: "message_start", role: "assistant", metadata: "" },
      ...calledAction("python", code, { name: "python", arguments: { code } }),
      { type: "message_end" },
      { type: "stop", reason: "eos", token: ids.eom },
    ]);
  });

  it("the definition's EOS keys include <|eom_id|>", () => {
    expect(definition31.eos).toContain("eom");
  });

  it("in the 3.0 vocabulary 128010 is <|reserved_special_token_5|>: misplaced, no action", () => {
    const v30 = vocab("3.0");
    expect(v30.ids.pythonTag).toBe(-1);
    expect(v30.names.get(128010)).toBe("<|reserved_special_token_5|>");
    const ev = run(spec("3.0"), [128010, ...v30.textModel.encode("x"), v30.ids.eot]);
    expect(ev.find((e) => e.type === "error")).toMatchObject({
      code: "unexpected-reserved-token",
      token: 128010,
    });
    expect(ev.filter((e) => e.type.startsWith("action"))).toEqual([]);
  });
});
