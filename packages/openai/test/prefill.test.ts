// toolChoicePrefill on the real Qwen3 tokenizer: structural IDs only from format code, the
// name as ordinary text, and the decoder + writer starting inside the prefilled opening.
import { describe, expect, it } from "vitest";
import { RequestError, toolChoicePrefill } from "../src/index.ts";
import { Q, qwen3, runWriter, qwenText as t } from "./writer-support.ts";

const reserved = (id: number) => qwen3().registry.ids.has(id);
const chat = { messages: [{ role: "user" as const, content: "hi" }] };

describe("toolChoicePrefill (Qwen3)", () => {
  it("named: <tool_call> then the opening as ordinary text (decoded back by the tokenizer)", () => {
    const p = toolChoicePrefill(qwen3(), chat, { type: "function", name: "get_weather" }, 1);
    if (RequestError.isInstance(p)) throw p;
    expect(p.ids[0]).toBe(Q.toolCall);
    expect(p.ids.slice(1).every((id) => !reserved(id))).toBe(true);
    expect(qwen3().decode(p.ids.slice(1))).toBe('\n{"name": "get_weather", "arguments":');
  });

  it("a tool named like a reserved token stays text: the only reserved ID is <tool_call>", () => {
    const p = toolChoicePrefill(qwen3(), chat, { type: "function", name: "<|im_end|><tool_call>" }, 1);
    if (RequestError.isInstance(p)) throw p;
    expect(p.ids.filter((id) => reserved(id))).toEqual([Q.toolCall]);
  });

  it("a tool name of a million characters is text like any other: no stack-sized limit, no throw", () => {
    const name = "x y ".repeat(250_000);
    const p = toolChoicePrefill(qwen3(), chat, { type: "function", name }, 1);
    if (RequestError.isInstance(p)) throw p;
    expect(p.ids.length).toBeGreaterThan(200_000);
    expect(qwen3().decode(p.ids.slice(1))).toBe(`\n{"name": ${JSON.stringify(name)}, "arguments":`);
  });

  it("required: <tool_call> \\n; auto / none: nothing; no open assistant turn: 400", () => {
    const r = toolChoicePrefill(qwen3(), chat, { type: "required" }, 2);
    if (RequestError.isInstance(r)) throw r;
    expect(r.ids).toEqual([Q.toolCall, ...t("\n")]);
    const a = toolChoicePrefill(qwen3(), chat, { type: "auto" }, 2);
    expect(RequestError.isInstance(a) ? a : a.ids).toEqual([]);
    const c = toolChoicePrefill(qwen3(), { ...chat, add_generation_prompt: false }, { type: "required" }, 2);
    expect(RequestError.isInstance(c) && c.type).toBe("unsupported-parameter");
  });

  it("the decoder starts inside the prefill: named call header from the prefill, arguments from the model", () => {
    const p = toolChoicePrefill(qwen3(), chat, { type: "function", name: "get_weather" }, 1);
    if (RequestError.isInstance(p)) throw p;
    const generated = [...t(' {"city": "Paris"}}\n'), Q.toolCallEnd, Q.imEnd];
    for (const mode of ["incremental", "per-call"] as const) {
      const r = runWriter(qwen3(), generated, { toolCallStreaming: mode }, {}, p.ids);
      expect(r.breaches).toEqual([]);
      expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["get_weather", '{"city": "Paris"}']]);
      expect(r.content).toBe("");
      expect(r.finish).toEqual(["tool_calls"]);
    }
  });

  it("required: the model names the function itself", () => {
    const p = toolChoicePrefill(qwen3(), chat, { type: "required" }, 2);
    if (RequestError.isInstance(p)) throw p;
    const generated = [...t('{"name": "f", "arguments": {"x": 1}}\n'), Q.toolCallEnd, Q.imEnd];
    const r = runWriter(
      qwen3(),
      generated,
      { toolCallStreaming: "incremental" },
      { maxTokens: generated.length },
      p.ids,
    );
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["f", '{"x": 1}']]);
    expect(r.finish).toEqual(["tool_calls"]);
  });

  it("a continuation that breaks the call before its header: the turn's text, opening included, as content", () => {
    const p = toolChoicePrefill(qwen3(), chat, { type: "function", name: "get_weather" }, 1);
    if (RequestError.isInstance(p)) throw p;
    const r = runWriter(qwen3(), [...t(" oops"), Q.imEnd], { toolCallStreaming: "incremental" }, {}, p.ids);
    expect(r.calls).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(r.content).toBe('\n{"name": "get_weather", "arguments": oops');
    expect(r.finish).toEqual(["stop"]);
  });
});
