// isToolCallKind reads the family grammars: the same answers as the per-family table it
// replaced (qwen3 tool_call; internlm2 plugin, not interpreter; chatglm3 any tool name, not
// interpreter or ""; gpt-oss a functions.NAME recipient, reported as kind tool_call; unknown
// names none).
import { describe, expect, it } from "vitest";
import { familyGrammar, isToolCallKind, streamsCallArguments } from "../src/tool-kinds.ts";

describe("isToolCallKind from grammar data", () => {
  it.each([
    ["qwen3", "tool_call", true],
    ["qwen3", "think", false],
    ["qwen3", "plugin", false],
    ["internlm2", "plugin", true],
    ["internlm2", "interpreter", false],
    ["internlm2", "action", false],
    ["chatglm3", "get_weather", true],
    ["chatglm3", "interpreter", false],
    ["chatglm3", "", false],
    ["gpt-oss", "tool_call", true],
    ["gpt-oss", "analysis", false],
    ["no-such-family", "tool_call", false],
    ["template", "tool_call", false],
  ] as const)("%s %s -> %s", (format, kind, want) => {
    expect(isToolCallKind(format, kind)).toBe(want);
  });
});

describe("streamsCallArguments from grammar data", () => {
  // Only a call body converted to JSON at its end (ChatGLM3's Python tool_call(...)) keeps the
  // ChunkWriter per-call under toolCallStreaming "incremental".
  it.each([
    ["qwen3", true],
    ["qwen3-coder", true],
    ["internlm2", true],
    ["chatglm3", false],
    ["llama31", true],
    ["deepseek-v3", true],
    ["gpt-oss", true],
  ] as const)("%s -> %s", (format, want) => {
    expect(streamsCallArguments(familyGrammar(format))).toBe(want);
  });

  it("a grammar not known by name (a template format's): calls stream", () => {
    expect(streamsCallArguments(undefined)).toBe(true);
  });
});
