// A request typed with the `openai` package's own types (ChatCompletionCreateParams,
// ChatCompletionMessageParam[], ChatCompletionTool[]) goes into encodeChat/renderChat for every
// family without glue. Type level: this file type-checks (tsc) with no cast. Run time: the
// request is the golden vector "openai_sdk_typed" of test-vectors/requests.json, and the IDs
// are the golden IDs of each family (reference renderings, not chatwire's).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { type ChatRequest, type FormatName, TokenizerError } from "../src/index.ts";
import { type GoldenChat, idDiff, repoRoot, sharedSuiteFormats, tokenizerFor } from "./chat-support.ts";

const tools: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Get the current weather for a city.",
      parameters: {
        type: "object",
        properties: {
          city: { type: "string", description: "City name, e.g. 北京" },
          unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        },
        required: ["city"],
      },
    },
  },
];

const messages: ChatCompletionMessageParam[] = [
  { role: "developer", content: [{ type: "text", text: "You are a weather bot." }] },
  { role: "user", content: [{ type: "text", text: "Weather in Paris and Tokyo?" }], name: "alice" },
  {
    role: "assistant",
    content: null,
    refusal: null,
    tool_calls: [
      { id: "call_p", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
      {
        id: "call_t",
        type: "function",
        function: { name: "get_weather", arguments: '{"city": "Tokyo", "unit": "celsius"}' },
      },
    ],
  },
  { role: "tool", tool_call_id: "call_p", content: '{"temperature": 22}' },
  { role: "tool", tool_call_id: "call_t", content: [{ type: "text", text: '{"temperature": 18}' }] },
  { role: "assistant", content: "Paris 22 °C, Tokyo 18 °C." },
  { role: "user", content: "Thanks." },
];

const params: ChatCompletionCreateParamsNonStreaming = { model: "any", messages, tools };

// gpt-oss's chat_template renders only the first call of a message: the same conversation with one
// call per assistant message (still SDK-typed), golden in test-vectors/golden/gpt-oss.template.json.
const gptOssMessages: ChatCompletionMessageParam[] = [
  ...messages.slice(0, 2),
  {
    role: "assistant",
    content: null,
    refusal: null,
    tool_calls: [
      { id: "call_p", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
    ],
  },
  ...messages.slice(3, 4),
  {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "call_t",
        type: "function",
        function: { name: "get_weather", arguments: '{"city": "Tokyo", "unit": "celsius"}' },
      },
    ],
  },
  ...messages.slice(4),
];

/** The SDK-typed request per family (gpt-oss: its own messages and a fixed current_date). */
function sdkRequest(format: FormatName): ChatRequest {
  if (format !== "gpt-oss") return { messages: params.messages, tools: params.tools ?? null };
  return { messages: gptOssMessages, tools, chat_template_kwargs: { current_date: "2024-07-26" } };
}

function golden(format: FormatName): GoldenChat {
  const name = format === "gpt-oss" ? "gpt-oss.template.json" : `${format}.request.json`;
  const file = resolve(repoRoot, `test-vectors/golden/${name}`);
  const v = (JSON.parse(readFileSync(file, "utf8")) as { vectors: GoldenChat[] }).vectors.find(
    (x) => x.name === "openai_sdk_typed",
  );
  if (v === undefined) throw new Error(`${name} has no openai_sdk_typed`);
  return v;
}

describe.each(sharedSuiteFormats)("%s: openai SDK types in, no glue", (format) => {
  it("ChatCompletionCreateParams messages + tools encode to the golden IDs", () => {
    const tok = tokenizerFor(format);
    // No cast: the SDK's message and tool types are assignable to ChatRequest's fields.
    const request: ChatRequest = sdkRequest(format);
    const want = golden(format);
    expect(JSON.parse(JSON.stringify(request))).toEqual(want.request);
    const got = tok.encodeChat(request);
    expect(got.ids, idDiff(tok, want.ids, got.ids)).toEqual(want.ids);
    expect(tok.renderChat(format === "gpt-oss" ? request : { messages, tools })).toBe(want.rendered);
  });

  it("SDK shapes a family cannot render are typed errors naming the field", () => {
    const tok = tokenizerFor(format);
    const image: ChatCompletionMessageParam[] = [
      { role: "user", content: [{ type: "image_url", image_url: { url: "https://example.invalid/a.png" } }] },
    ];
    const custom: ChatCompletionMessageParam[] = [
      { role: "user", content: "x" },
      { role: "assistant", tool_calls: [{ id: "c", type: "custom", custom: { name: "f", input: "x" } }] },
    ];
    const fn: ChatCompletionMessageParam[] = [{ role: "function", name: "f", content: "x" }];
    for (const [msgs, field] of [
      [image, "content[0].type"],
      [custom, "tool_calls[0].type"],
      [fn, "role"],
    ] as const) {
      let err: unknown;
      try {
        tok.encodeChat({ messages: msgs });
      } catch (e) {
        err = e;
      }
      expect(TokenizerError.isInstance(err), String(err)).toBe(true);
      expect((err as TokenizerError).type).toBe("invalid-conversation");
      expect((err as TokenizerError).fields.field).toBe(field);
    }
  });
});
