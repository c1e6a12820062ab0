// @chatwire/openai on gpt-oss (harmony): the real o200k_harmony tokenizer, the real harmony
// decoder and the ChunkWriter. `<|call|>` after a functions.* call is finish_reason "tool_calls"
// (the call streamed as a tool_calls delta); `<|return|>` is "stop"; max_tokens is "length".
// Expected texts are written out by hand from the IDs' source text.
import { loadTokenizerSync } from "@chatwire/tokenizer/node";
import { describe, expect, it } from "vitest";
import { GPTOSS_MODEL_DIR } from "../../../test-support/harmony-suite.ts";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { GptOssKey } from "../../tokenizer/src/families/gpt-oss/definition.ts";
import { runWriter } from "./writer-support.ts";

const tok = loadTokenizerSync(GPTOSS_MODEL_DIR);
const t = (s: string) => tok.encodeText(s).ids;
const G = tokenIds<GptOssKey>(() => tok);
/** What a gpt-oss model generates after the prompt's `<|start|>assistant`. */
const analysis = (s: string) => [G.channel, ...t("analysis"), G.message, ...t(s), G.end];
const next = [G.start, ...t("assistant")];
const call = (name: string, args: string) => [
  G.channel,
  ...t("commentary"),
  ...t(` to=functions.${name}`),
  ...t(" "),
  G.constrain,
  ...t("json"),
  G.message,
  ...t(args),
  G.call,
];
const final = (s: string) => [G.channel, ...t("final"), G.message, ...t(s), G.return];

describe("ChunkWriter (gpt-oss)", () => {
  it("analysis then a functions call ending in <|call|>: reasoning, one tool call, finish tool_calls", () => {
    const r = runWriter(tok, [
      ...analysis("Need the weather."),
      ...next,
      ...call("get_weather", '{"city":"Paris"}'),
    ]);
    expect(r.breaches).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(r.reasoning).toBe("Need the weather.");
    expect(r.content).toBe("");
    expect(r.calls).toEqual([
      { id: `call_${"0".repeat(24)}_0`, name: "get_weather", arguments: '{"city":"Paris"}' },
    ]);
    expect(r.finish).toEqual(["tool_calls"]);
  });

  it("the template's header order (to= before <|channel|>, bare ` json`) is the same call", () => {
    const ids = [
      ...t(" to=functions.get_weather"),
      G.channel,
      ...t("commentary json"),
      G.message,
      ...t('{"city": "Oslo"}'),
      G.call,
    ];
    const r = runWriter(tok, ids);
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["get_weather", '{"city": "Oslo"}']]);
    expect(r.finish).toEqual(["tool_calls"]);
  });

  it("a final answer ending in <|return|>: content, finish stop", () => {
    const r = runWriter(tok, [...analysis("Easy."), ...next, ...final("4")]);
    expect(r.reasoning).toBe("Easy.");
    expect(r.content).toBe("4");
    expect(r.calls).toEqual([]);
    expect(r.finish).toEqual(["stop"]);
  });

  it("a call cut by max_tokens: finish length, no half call", () => {
    const ids = call("get_weather", '{"city": "Paris", "unit": "celsius"}');
    const r = runWriter(tok, ids, {}, { maxTokens: ids.length - 4 });
    expect(r.calls.filter((c) => c.arguments.endsWith("}"))).toEqual([]);
    expect(r.finish).toEqual(["length"]);
  });

  it("a call whose arguments are not JSON, then <|call|>: no tool call is sent, finish stop", () => {
    const r = runWriter(tok, call("get_weather", '{"city": '), { toolCallStreaming: "per-call" });
    expect(r.calls).toEqual([]);
    expect(r.finish).toEqual(["stop"]);
  });
});

describe("ChunkWriter (gpt-oss), incremental tool-call streaming", () => {
  it("a valid call streams the same call; finish tool_calls", () => {
    const r = runWriter(tok, call("get_weather", '{"city": "Paris"}'), { toolCallStreaming: "incremental" });
    expect(r.breaches).toEqual([]);
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["get_weather", '{"city": "Paris"}']]);
    expect(r.finish).toEqual(["tool_calls"]);
  });

  it("arguments that break after the header went out: an error instead of a finish_reason", () => {
    const r = runWriter(tok, call("get_weather", '{"city": "Paris"'), { toolCallStreaming: "incremental" });
    expect(r.finish).toEqual([]);
    expect(r.errors.map((e) => e.error.code)).toEqual(["malformed-tool-call"]);
  });
});
