// The event grammar of each format, driven by reserved IDs.
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { ChatGLM3Key } from "../../tokenizer/src/families/chatglm3/definition.ts";
import type { InternLM2Key } from "../../tokenizer/src/families/internlm2/definition.ts";
import type { Qwen3Key } from "../../tokenizer/src/families/qwen3/definition.ts";
import { createDecoder, eventCollector } from "../src/index.ts";
import { calledAction, textCallThenEos, textMessage } from "./expected-events.ts";
import { familyOn, formatSpec, run, textOf, tokenizer } from "./models.ts";
import { merged } from "./roundtrip-support.ts";
import { synthetic, WORDS } from "./synthetic.ts";

const START = { type: "message_start", role: "assistant", metadata: "" } as const;
// The real tokenizers' verified IDs (the synthetic-model suites below have their own).
const Q = tokenIds<Qwen3Key>(() => tokenizer("qwen3"));

describe("Qwen3 (real tokenizer)", () => {
  const spec = formatSpec("qwen3");
  const enc = (s: string) => tokenizer("qwen3").textModel.encode(s);

  it("think, content, tool calls; template newlines are not content", () => {
    const ids = [
      Q.think,
      ...enc("\nStep one.\n\nStep two.\n"),
      Q.thinkEnd,
      ...enc("\n\nHello 中文!\n"),
      Q.toolCall,
      ...enc('\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'),
      Q.toolCallEnd,
      ...enc("\n"),
      Q.toolCall,
      ...enc('\n{"name": "noop", "arguments": {}}\n'),
      Q.toolCallEnd,
      Q.imEnd,
      ...enc("ignored"),
    ];
    expect(merged(run(spec, ids))).toEqual([
      START,
      { type: "reasoning", text: "Step one.\n\nStep two." },
      { type: "text", text: "Hello 中文!" },
      ...calledAction("tool_call", '\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n', {
        name: "get_weather",
        arguments: { city: "Paris" },
      }),
      ...calledAction("tool_call", '\n{"name": "noop", "arguments": {}}\n', { name: "noop", arguments: {} }),
      { type: "message_end" },
      { type: "stop", reason: "eos", token: Q.imEnd },
    ]);
  });

  it("a trailing newline of content before <|im_end|> is content; <|endoftext|> stops without message_end", () => {
    expect(merged(run(spec, [...enc("a\n"), Q.imEnd]))).toEqual([
      ...textMessage("assistant", "a\n"),
      { type: "stop", reason: "eos", token: Q.imEnd },
    ]);
    expect(merged(run(spec, [...enc("a"), Q.endOfText]))).toEqual([
      START,
      { type: "text", text: "a" },
      { type: "stop", reason: "eos", token: Q.endOfText },
    ]);
  });

  it("bad tool-call JSON keeps the raw text; misplaced and unknown IDs are errors, nothing dropped", () => {
    const ev = merged(
      run(spec, [
        ...enc("x"),
        Q.toolResponse,
        ...enc("y"),
        999999,
        ...enc("z"),
        Q.toolCall,
        ...enc("{not json"),
        Q.toolCallEnd,
      ]),
    );
    expect(ev).toEqual([
      START,
      { type: "text", text: "x" },
      {
        type: "error",
        code: "unexpected-reserved-token",
        token: Q.toolResponse,
        message: expect.any(String),
      },
      { type: "text", text: "y" },
      { type: "error", code: "unknown-token", token: 999999, message: expect.any(String) },
      { type: "text", text: "z" },
      { type: "action_start", kind: "tool_call" },
      { type: "action_text", text: "{not json" },
      { type: "action_end", kind: "tool_call", raw: "{not json", error: expect.stringMatching(/JSON/) },
      { type: "stop", reason: "end_of_input" },
    ]);
  });

  it("stop strings across tokens, max tokens, stop tokens", () => {
    const ids = enc("Hello world, this is it.");
    expect(merged(run(spec, ids, { stopStrings: ["o w"] }))).toEqual([
      START,
      { type: "text", text: "Hell" },
      { type: "stop", reason: "stop_string", text: "o w" },
    ]);
    expect(merged(run(spec, ids, { stopStrings: ["o w"], includeStopString: true }))).toEqual([
      START,
      { type: "text", text: "Hello w" },
      { type: "stop", reason: "stop_string", text: "o w" },
    ]);
    const two = run(spec, ids, { maxTokens: 2 });
    expect(two[two.length - 1]).toEqual({ type: "stop", reason: "max_tokens" });
    expect(textOf(two)).toBe(tokenizer("qwen3").textModel.decode(ids.slice(0, 2)));
    const st = run(spec, ids, { stopTokenIds: [ids[1] as number] });
    expect(st[st.length - 1]).toEqual({ type: "stop", reason: "stop_token", token: ids[1] });
    expect(textOf(st)).toBe(tokenizer("qwen3").textModel.decode(ids.slice(0, 1)));
  });

  it("misuse throws TypeError; input after stop is ignored; reset starts over", () => {
    const c = eventCollector();
    const d = createDecoder(spec, c);
    expect(() => d.push(1.5)).toThrow(TypeError);
    d.push(Q.imEnd);
    expect(d.stopped).toBe(true);
    const n = c.events.length;
    d.push(100);
    d.end();
    expect(c.events.length).toBe(n);
    expect(() => d.push(100)).toThrow(TypeError);
    d.reset();
    d.push(9707);
    d.end();
    expect(c.events.slice(n).map((e) => e.type)).toEqual(["message_start", "text", "stop"]);
  });
});

describe("InternLM2 grammar (synthetic table)", () => {
  const s = synthetic(WORDS, false);
  const { spec, id: I } = familyOn<InternLM2Key>(s.model, "internlm2");
  const plugin = '\n{"name": "get_weather", "parameters": {"city": "Paris"}}';

  it("plugin action, optional newline, im_end", () => {
    const ids = [
      ...s.enc("Hello!"),
      I.actionStart,
      I.plugin,
      ...s.enc(plugin),
      I.actionEnd,
      ...s.enc("\n"),
      I.imEnd,
    ];
    expect(merged(run(spec, ids))).toEqual([
      START,
      ...textCallThenEos(
        "Hello!",
        ["plugin", plugin, { name: "get_weather", arguments: { city: "Paris" } }],
        I.imEnd,
      ),
    ]);
  });

  it("interpreter action; caller stop on <|action_end|> closes the action first", () => {
    const code = "\n```python\nprint(1)\n```";
    const ids = [I.actionStart, I.interpreter, ...s.enc(code), I.actionEnd, ...s.enc("more")];
    expect(merged(run(spec, ids, { stopTokenIds: [I.actionEnd] }))).toEqual([
      START,
      ...calledAction("interpreter", code, { name: "interpreter", arguments: { code: "print(1)" } }),
      { type: "stop", reason: "stop_token", token: I.actionEnd },
    ]);
  });

  it("with EOS overridden, a following message header gives role and name", () => {
    const multi = familyOn(s.model, "internlm2", { eosIds: [I.eos] }).spec;
    const ids = [
      ...s.enc("Hi"),
      I.imEnd,
      ...s.enc("\n"),
      I.imStart,
      ...s.enc("environment name="),
      I.plugin,
      ...s.enc('\n{"t": 1}'),
      I.imEnd,
      I.eos,
    ];
    expect(merged(run(multi, ids))).toEqual([
      ...textMessage("assistant", "Hi"),
      ...textMessage("environment", '{"t": 1}', "plugin"),
      { type: "stop", reason: "eos", token: I.eos },
    ]);
  });

  it("a misplaced kind marker and BOS are errors; <|action_start|> without kind", () => {
    const ev = merged(
      run(spec, [...s.enc("a"), I.plugin, I.bos, ...s.enc("b"), I.actionStart, ...s.enc("c")]),
    );
    expect(ev.map((e) => (e.type === "error" ? e.code : e.type))).toEqual([
      "message_start",
      "text",
      "unexpected-reserved-token",
      "unexpected-reserved-token",
      "text",
      "missing-action-kind",
      "action_start",
      "action_text",
      "action_end",
      "stop",
    ]);
  });
});

describe("ChatGLM3 grammar (synthetic table)", () => {
  const s = synthetic(WORDS, true);
  const { spec, id: G } = familyOn<ChatGLM3Key>(s.model, "chatglm3");
  const meta = (m: string) => s.enc(`${m}\n`, true);

  it("plain reply: empty metadata line, content keeps no dummy space", () => {
    const ids = [...meta(""), ...s.enc("Hello world!", true), G.user];
    expect(merged(run(spec, ids))).toEqual([
      ...textMessage("assistant", "Hello world!"),
      { type: "stop", reason: "eos", token: G.user },
    ]);
  });

  it("text, then a tool-call segment parsed without eval, then <|observation|>", () => {
    const call = '```python\ntool_call(city="Beijing", days=3, opts={"u": [1, -2.5e3, None, True]})\n```';
    const ids = [
      ...meta(""),
      ...s.enc("Hi", true),
      G.assistant,
      ...meta("get_weather"),
      ...s.enc(call, true),
      G.observation,
    ];
    expect(merged(run(spec, ids))).toEqual([
      ...textMessage("assistant", "Hi"),
      { type: "message_start", role: "assistant", metadata: "get_weather" },
      { type: "action_start", kind: "get_weather" },
      { type: "action_text", text: call },
      {
        type: "action_end",
        kind: "get_weather",
        raw: call,
        call: {
          name: "get_weather",
          arguments: { city: "Beijing", days: 3, opts: { u: [1, -2500, null, true] } },
        },
      },
      { type: "message_end" },
      { type: "stop", reason: "eos", token: G.observation },
    ]);
  });

  it("interpreter segment; an unparseable call keeps the raw text", () => {
    const code = "```python\nprint(1)\n```";
    const bad = "```python\ntool_call(x=os.system('rm'))\n```";
    const ids = [
      ...meta("interpreter"),
      ...s.enc(code, true),
      G.assistant,
      ...meta("f"),
      ...s.enc(bad, true),
      2,
    ];
    const ev = merged(run(spec, ids));
    expect(ev[2]).toEqual({ type: "action_text", text: code });
    expect(ev[3]).toEqual({
      type: "action_end",
      kind: "interpreter",
      raw: code,
      call: { name: "interpreter", arguments: { code: "print(1)" } },
    });
    expect(ev[8]).toEqual({
      type: "action_end",
      kind: "f",
      raw: bad,
      error: expect.stringMatching(/not a literal/),
    });
    expect(ev[9]).toEqual({ type: "stop", reason: "eos", token: 2 });
  });

  it("reserved IDs above the text vocabulary are classified; [MASK] is an error", () => {
    const ev = run(spec, [...meta(""), G.mask, ...s.enc("x", true), 70000]);
    expect(ev.map((e) => (e.type === "error" ? e.code : e.type))).toEqual([
      "message_start",
      "unexpected-reserved-token",
      "text",
      "unknown-token",
      "stop",
    ]);
  });

  it("a metadata line that never ends is content (vendor process_response)", () => {
    expect(merged(run(spec, s.enc("Hello", true)))).toEqual([
      START,
      { type: "text", text: "Hello" },
      { type: "stop", reason: "end_of_input" },
    ]);
  });

  it("buffer overflow flushes what is held, then reports", () => {
    const ev = merged(run(spec, s.enc("Hello world Hello", true), { maxBufferedChars: 8 }));
    expect(ev.map((e) => (e.type === "error" ? e.code : e.type))).toEqual([
      "message_start",
      "text",
      "buffer-overflow",
      "text",
      "stop",
    ]);
    expect(textOf(ev)).toBe("Hello world Hello");
  });
});

describe.skipIf(!haveFixtures())("real InternLM2 / ChatGLM3 tokenizers", () => {
  const I = tokenIds<InternLM2Key>(() => tokenizer("internlm2"));
  const G = tokenIds<ChatGLM3Key>(() => tokenizer("chatglm3"));
  it("InternLM2 plugin call", () => {
    const spec = formatSpec("internlm2");
    const enc = (x: string) => tokenizer("internlm2").textModel.encode(x);
    const body = '\n{"name": "search", "parameters": {"q": "天气"}}';
    const ev = merged(
      run(spec, [...enc("好的。"), I.actionStart, I.plugin, ...enc(body), I.actionEnd, I.imEnd]),
    );
    expect(ev).toEqual([
      START,
      ...textCallThenEos("好的。", ["plugin", body, { name: "search", arguments: { q: "天气" } }], I.imEnd),
    ]);
  });

  it("ChatGLM3 metadata + content spans", () => {
    const spec = formatSpec("chatglm3");
    const enc = (x: string) => tokenizer("chatglm3").textModel.encode(x);
    const ids = [
      ...enc("\n"),
      ...enc("Hello 世界"),
      G.assistant,
      ...enc("interpreter\n"),
      ...enc("```python\n1\n```"),
      G.user,
    ];
    expect(merged(run(spec, ids))).toEqual([
      ...textMessage("assistant", "Hello 世界"),
      { type: "message_start", role: "assistant", metadata: "interpreter" },
      ...calledAction("interpreter", "```python\n1\n```", { name: "interpreter", arguments: { code: "1" } }),
      { type: "message_end" },
      { type: "stop", reason: "eos", token: G.user },
    ]);
  });
});
