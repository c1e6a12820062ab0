// isToolCallKind reads the family grammars: the same answers as the per-family table it
// replaced (qwen3 tool_call; internlm2 plugin, not interpreter; chatglm3 any tool name, not
// interpreter or ""; gpt-oss a functions.NAME recipient, reported as kind tool_call; unknown
// names none).
import { describe, expect, it } from "vitest";
import { familyGrammar, isToolCallKind, streamsCallArguments } from "../src/tool-kinds.ts";

/** Per format: each action kind asked about, and whether it is a tool call. */
const TOOL_CALL_KINDS: Readonly<Record<string, Readonly<Record<string, boolean>>>> = {
  qwen3: { tool_call: true, think: false, plugin: false },
  internlm2: { plugin: true, interpreter: false, action: false },
  chatglm3: { get_weather: true, interpreter: false, "": false },
  "gpt-oss": { tool_call: true, analysis: false },
  "no-such-family": { tool_call: false },
  template: { tool_call: false },
};

describe("isToolCallKind from grammar data", () => {
  it.each(
    Object.entries(TOOL_CALL_KINDS).flatMap(([format, kinds]) =>
      Object.entries(kinds).map(([kind, want]) => [format, kind, want] as const),
    ),
  )("%s %s -> %s", (format, kind, want) => {
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
