// Encoder -> decoder round trip on the three REAL tokenizers: an assistant turn encoded by
// @chatwire/tokenizer (encodeChat), its generated IDs decoded by the stream decoder one ID at
// a time and in seeded random chunks; the recovered events must equal the turn exactly.
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import type { DecoderEvent } from "../src/index.ts";
import { tokenizer } from "./models.ts";
import {
  type Case,
  decode,
  type Fmt,
  type GlmSegment,
  generationIds,
  glmCase,
  type InternTurn,
  internCase,
  merged,
  NESTED,
  PrefixMismatch,
  type QwenTurn,
  qwenCase,
  roundTrip,
  specOf,
  THREE_CALLS,
} from "./roundtrip-support.ts";

function check(format: Fmt, c: Case): DecoderEvent[] {
  const r = roundTrip(format, c, r0(c));
  expect(r.single.filter((e) => e.type === "error")).toEqual([]);
  expect(merged(r.single)).toEqual(c.expected);
  // Chunking changes nothing, not even delta boundaries.
  expect(r.chunked).toEqual(r.single);
  return r.single;
}
/** A chunk seed derived from the case (stable across runs). */
const r0 = (c: Case) => JSON.stringify(c.turn).length;

const NON_ASCII = "中文：你好，世界。日本語 한국어 Ünïcødé 😀🌦️ 👨‍👩‍👧‍👦 🏳️‍🌈 👍🏽 🇨🇳 ❤️";
/** Rare code points: byte fallback in both SentencePiece models. */
const RARE = "𠀀𪚥 \u{1D11E} \u{10FFFD} \u{E0041} \u0378 \uFFFF \u0007";

describe("round trip: Qwen3 (real tokenizer)", () => {
  const q = (t: Partial<QwenTurn>) =>
    check("qwen3", qwenCase({ reasoning: "", content: "", calls: [], ...t }));

  it("plain text", () => {
    q({ content: "Hello, world! How can I help you today?" });
  });
  it("non-ASCII: CJK, emoji, ZWJ sequences, flags, rare code points", () => {
    q({ content: NON_ASCII });
    q({ content: RARE });
  });
  it("leading/trailing spaces and newlines in content (a leading newline excluded, see below)", () => {
    q({ content: "   spaced   " });
    q({ content: "a\n\n  b  \n\n" });
    q({ content: "\t tab first\r\n" });
    q({ content: "ends with one newline\n", calls: [{ name: "f", arguments: {} }] });
    q({ content: "ends with two\n\n", calls: [{ name: "f", arguments: {} }] });
  });
  it("text + tool call, and a tool call with no text", () => {
    q({ content: "Let me check.", calls: [{ name: "get_weather", arguments: { location: "Shanghai" } }] });
    q({ calls: [{ name: "get_weather", arguments: { location: "Paris", unit: "celsius" } }] });
  });
  it("reasoning + text + tool call", () => {
    q({
      reasoning: "The user wants the weather.\n\nI should call get_weather. 🌦️",
      content: "Checking 上海 now.",
      calls: [{ name: "get_weather", arguments: { location: "上海" } }],
    });
    q({ reasoning: "only thinking", content: "" });
  });
  it("several tool calls, nested and unicode argument values", () => {
    q({ content: "Three calls:", calls: THREE_CALLS });
  });
  it("text that looks like markers stays text", () => {
    q({ reasoning: "<think> </think>", content: "<|im_end|><tool_call>\n{}\n</tool_call><|endoftext|>" });
  });
  it("exclusions, documented: NFC, leading newlines of content, outer newlines of reasoning", () => {
    // tokenizer.json has an NFC normalizer: decomposed text comes back composed.
    const r = roundTrip("qwen3", qwenCase({ reasoning: "", content: "e\u0301 \u1100\u1161", calls: [] }));
    expect(merged(r.single)[1]).toEqual({ type: "text", text: "é 가" });
    // The chat_template writes content.lstrip("\n") after </think> and reasoning.strip("\n").
    const s = roundTrip("qwen3", qwenCase({ reasoning: "\n\nr\n", content: "\n\nc", calls: [] }));
    expect(merged(s.single).slice(1, 3)).toEqual([
      { type: "reasoning", text: "r" },
      { type: "text", text: "c" },
    ]);
  });
  it("exclusion, documented: NFC runs over the rendered tool call JSON, across escapes", () => {
    // {"k": "\n\u0301"} is written "\\n\u0301" and NFC composes "n\u0301" -> "ń": the JSON
    // text the model sees is broken (the HF tokenizer does the same), so the call cannot parse.
    const r = roundTrip(
      "qwen3",
      qwenCase({ reasoning: "", content: "", calls: [{ name: "f", arguments: { k: "\n\u0301" } }] }),
    );
    const end = r.single.find((e) => e.type === "action_end");
    expect(end).toMatchObject({ raw: '\n{"name": "f", "arguments": {"k": "\\\u0144"}}\n' });
    expect(end !== undefined && "error" in end && end.error?.startsWith("invalid JSON")).toBe(true);
  });
});

describe.skipIf(!haveFixtures())("round trip: InternLM2 (real tokenizer)", () => {
  const t = (x: InternTurn) => check("internlm2", internCase(x));

  it("plain text", () => {
    t({ content: "Hello, world! How can I help you today?" });
  });
  it("non-ASCII, incl. byte fallback (😀 and rare code points are <0xXX> pieces here)", () => {
    t({ content: NON_ASCII });
    t({ content: RARE });
    const ids = generationIds(
      tokenizer("internlm2"),
      [{ role: "user", content: "x" }],
      [{ role: "assistant", content: "😀" }],
    );
    expect(ids).toEqual([3 + 0xf0, 3 + 0x9f, 3 + 0x98, 3 + 0x80, 92542]);
  });
  it("leading/trailing spaces and newlines in content", () => {
    t({ content: "   spaced   " });
    t({ content: "a\n\n  b  \n\n" });
    t({ content: "\t tab first\r\n" });
    t({ content: "x\n", action: { kind: "plugin", name: "f", parameters: {} } });
  });
  it("text + plugin call, and a plugin call with no text", () => {
    t({
      content: "Let me check.",
      action: { kind: "plugin", name: "get_current_weather", parameters: { location: "Shanghai" } },
    });
    t({
      content: "",
      action: { kind: "plugin", name: "get_current_weather", parameters: { location: "北京" } },
    });
  });
  it("code interpreter", () => {
    t({
      content: "Let me compute that.",
      action: {
        kind: "interpreter",
        code: 'import math\n\ndef f(x):\n    return math.sqrt(x)  # 平方根\n\nprint(f(2), "😀")',
      },
    });
    t({ content: "", action: { kind: "interpreter", code: "" } });
    t({ content: "", action: { kind: "interpreter", code: "```\nnested fence\n```\n" } });
  });
  it("nested and unicode parameters", () => {
    t({ content: "调用：", action: { kind: "plugin", name: "查询 ✈️", parameters: NESTED } });
  });
  it("text that looks like markers stays text", () => {
    t({ content: "<|im_end|>\n<|im_start|>system\n[UNUSED_TOKEN_146]<|action_start|><|plugin|>" });
  });
  it("exclusion, documented: content starting with a newline does not extend the prompt", () => {
    // "assistant\n" + CONTENT is ONE enc() call (formats.md), and InternLM2 has pieces "\n\n",
    // "\n  \n", ...: after the prompt "...assistant\n" a model would emit other IDs.
    for (const content of ["\nx", "  \n x", "\t\nx"])
      expect(() =>
        generationIds(
          tokenizer("internlm2"),
          [{ role: "user", content: "x" }],
          [{ role: "assistant", content }],
        ),
      ).toThrow(PrefixMismatch);
  });
});

describe.skipIf(!haveFixtures())("round trip: ChatGLM3 (real tokenizer)", () => {
  const g = (...s: GlmSegment[]) => check("chatglm3", glmCase(s));

  it("plain text", () => {
    g({ kind: "text", content: "Hello, world! How can I help you today?" });
  });
  it("non-ASCII, incl. byte fallback", () => {
    g({ kind: "text", content: NON_ASCII });
    g({ kind: "text", content: RARE });
  });
  it("leading/trailing spaces and newlines (each enc() call has its own dummy prefix)", () => {
    g({ kind: "text", content: "   spaced   " });
    g({ kind: "text", content: " one leading space" });
    g({ kind: "text", content: "\n\nleading newlines\n\n" });
    g({ kind: "text", content: "\t tab first\r\n" });
  });
  it("text + tool call (two assistant segments), and a tool call with no text", () => {
    g(
      { kind: "text", content: "Let me check." },
      { kind: "tool", name: "get_weather", arguments: { location: "beijing", unit: "celsius" } },
    );
    g({ kind: "tool", name: "get_weather", arguments: { location: "beijing" }, quote: "'" });
    g({ kind: "tool", name: "no_args", arguments: {} });
  });
  it("code interpreter", () => {
    g(
      { kind: "text", content: "我来算一下。" },
      { kind: "interpreter", code: "import math\nprint(math.pi)  # π 😀" },
    );
  });
  it("nested and unicode argument values, unicode tool name", () => {
    const args = { city: NESTED.城市, deep: NESTED.deep, quote: NESTED.quote, e: NESTED["emoji 👨‍👩‍👧"] };
    g({ kind: "tool", name: "查询天气", arguments: args });
    g({ kind: "tool", name: "查询天气", arguments: args, quote: "'" });
  });
  it("text that looks like markers stays text", () => {
    g({ kind: "text", content: "<|user|>\n<|assistant|>interpreter\n[gMASK]sop<|observation|>" });
  });
});

describe("stop strings on encoded turns", () => {
  const cases: Array<readonly [Fmt, boolean, Case]> = [
    ["qwen3", true, qwenCase({ reasoning: "think first", content: "你好，世界。STOP 再见", calls: [] })],
    ["internlm2", haveFixtures(), internCase({ content: "你好，世界。STOP 再见" })],
    ["chatglm3", haveFixtures(), glmCase([{ kind: "text", content: "你好，世界。STOP 再见" }])],
  ];
  for (const [format, available, c] of cases) {
    it.skipIf(!available)(
      `${format}: stops exactly at the match, the text before it is the content before it`,
      () => {
        const ids = generationIds(tokenizer(format), c.context, c.turn);
        for (const stop of ["STOP", "界。S", "世界。STOP 再见"]) {
          const events = merged(decode(specOf(format), ids, { stopStrings: [stop] }));
          const before: DecoderEvent[] =
            format === "qwen3" ? [{ type: "reasoning", text: "think first" }] : [];
          expect(events).toEqual([
            { type: "message_start", role: "assistant", metadata: "" },
            ...before,
            { type: "text", text: "你好，世界。STOP 再见".slice(0, "你好，世界。STOP 再见".indexOf(stop)) },
            { type: "stop", reason: "stop_string", text: stop },
          ]);
        }
      },
    );
  }
});
