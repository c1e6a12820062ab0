// isToolCallKind reads the family grammars: the same answers as the per-family table it
// replaced (qwen3 tool_call; internlm2 plugin, not interpreter; chatglm3 any tool name, not
// interpreter or ""; gpt-oss and unknown names none).
import { describe, expect, it } from "vitest";
import { isToolCallKind } from "../src/tool-kinds.ts";

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
    ["gpt-oss", "tool_call", false],
    ["no-such-family", "tool_call", false],
    ["template", "tool_call", false],
  ] as const)("%s %s -> %s", (format, kind, want) => {
    expect(isToolCallKind(format, kind)).toBe(want);
  });
});
