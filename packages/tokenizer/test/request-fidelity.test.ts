// The request fields of docs/formats.md "The chat request" that real clients send: the openai
// SDK's returned assistant message appended as is (same IDs as the bare message), the three
// reasoning names, a non-null function_call refused, the clock pin `now` checked, and on the
// template path DeepSeek V3's tool calls written for `content: null`.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { type ChatRequest, compileTemplate, PStr, renderChatTemplate, type Value } from "../src/index.ts";
import { loadTokenizerSync } from "../src/node.ts";
import { errorOf } from "./error-support.ts";
import { repoRoot } from "./template-support.ts";

const qwen = loadTokenizerSync("qwen3");
const call = {
  id: "call_1",
  type: "function" as const,
  function: { name: "get_weather", arguments: '{"city":"Paris"}' },
};
const bare = { role: "assistant" as const, content: null, tool_calls: [call] };
/** What the openai SDK's finalChatCompletion() gives back for that turn. */
const returned = {
  ...bare,
  refusal: null,
  annotations: [],
  audio: null,
  function_call: null,
  parsed: null,
  tool_calls: [{ ...call, index: 0, function: { ...call.function, parsed_arguments: { city: "Paris" } } }],
};
const user = { role: "user" as const, content: "Weather in Paris?" };
const tool = { role: "tool" as const, tool_call_id: "call_1", content: "sunny" };

describe("the openai SDK's returned message", () => {
  it("is accepted and encodes exactly as the bare message (native and template)", () => {
    const a = qwen.encodeChat({ messages: [user, bare, tool] } as ChatRequest).ids;
    const b = qwen.encodeChat({ messages: [user, returned, tool] } as unknown as ChatRequest).ids;
    expect(b).toEqual(a);
    const t = loadTokenizerSync("qwen3", { format: "template" });
    expect(t.renderChat({ messages: [user, returned, tool] } as unknown as ChatRequest)).toBe(
      t.renderChat({ messages: [user, bare, tool] } as ChatRequest),
    );
  });

  it("a non-null function_call or a non-string refusal is invalid-conversation naming the field", () => {
    const e = errorOf(() =>
      qwen.encodeChat({
        messages: [user, { ...bare, function_call: { name: "f", arguments: "{}" } }],
      } as ChatRequest),
    );
    expect([e.type, e.fields.field]).toEqual(["invalid-conversation", "function_call"]);
    const r = errorOf(() =>
      qwen.encodeChat({ messages: [user, { ...bare, refusal: 1 }] } as unknown as ChatRequest),
    );
    expect([r.type, r.fields.field]).toEqual(["invalid-conversation", "refusal"]);
  });
});

describe("reasoning names", () => {
  it("thinking = reasoning = reasoning_content (Qwen3 renders each the same); different values are an error", () => {
    const turn = (k: string) =>
      qwen.renderChat({
        messages: [user, { role: "assistant", content: "Sunny.", [k]: "Look it up." }],
        add_generation_prompt: false,
      } as unknown as ChatRequest);
    expect(turn("thinking")).toBe(turn("reasoning_content"));
    expect(turn("reasoning")).toBe(turn("reasoning_content"));
    expect(turn("thinking")).toContain("Look it up.");
    const e = errorOf(() =>
      qwen.encodeChat({
        messages: [user, { role: "assistant", content: "x", thinking: "a", reasoning_content: "b" }],
      } as unknown as ChatRequest),
    );
    expect(e.type).toBe("invalid-conversation");
  });
});

describe("the clock pin", () => {
  it.each(["2024-07-26", "2024-02-30T10:00", "2024-07-26T24:00", "yesterday", 5])(
    "now %j is refused",
    (now) => {
      const e = errorOf(() => qwen.encodeChat({ messages: [user], now } as unknown as ChatRequest));
      expect([e.type, e.fields.field]).toEqual(["invalid-conversation", "now"]);
    },
  );
});

describe("DeepSeek V3's template and content null", () => {
  it("writes the calls of an assistant message whose content is null (none), not an empty content", () => {
    const source = readFileSync(resolve(repoRoot, "../shared/templates/deepseek-v3.jinja"), "utf8");
    const special = new Map<string, Value>([["bos_token", PStr.of("<｜begin▁of▁sentence｜>")]]);
    const out = renderChatTemplate(compileTemplate(source), { messages: [user, bare, tool] }, special).output
      .text;
    expect(out).toContain("get_weather");
    expect(out).toContain('{"city":"Paris"}');
  });
});
