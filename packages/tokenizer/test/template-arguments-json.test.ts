// JSON-string tool-call arguments (what OpenAI clients send) given to real chat templates
// (docs/formats.md "What a template is given"): a template that writes the arguments with
// `tojson` and has no `is string` branch of its own is given the parsed object, as vLLM's
// json.loads gives every template, so the prompt holds the call's JSON once (Qwen2.5, Llama 3.2,
// DeepSeek V3.1) instead of the JSON string's JSON. A template that tests `is string` (Mistral's,
// whose `tojson|safe` of an object would be HTML-escaped by the `+` around it) writes the string
// as it was sent.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { type ChatRequest, compileTemplate, PStr, renderChatTemplate, type Value } from "../src/index.ts";
import { repoRoot } from "./template-support.ts";

const extra = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES_EXTRA ?? "../shared/templates-extra");
const mistral = resolve(repoRoot, "../shared/peer-suites/mistral-common/tests/data/chat_templates");

const ARGS = { city: "Paris", note: 'say "hi"' };
function conversation(args: string | object): ChatRequest {
  return {
    messages: [
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "a1b2c3d4e", type: "function", function: { name: "get_weather", arguments: args } },
        ],
      },
      { role: "tool", tool_call_id: "a1b2c3d4e", content: "sunny" },
    ],
    tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
    add_generation_prompt: true,
  } as ChatRequest;
}

function render(file: string, request: ChatRequest): string {
  const special = new Map<string, Value>([
    ["bos_token", PStr.of("<s>")],
    ["eos_token", PStr.of("</s>")],
  ]);
  return renderChatTemplate(compileTemplate(readFileSync(file, "utf8")), request, special, {
    now: () => new Date(2024, 6, 26, 10),
  }).output.text;
}

describe.skipIf(!existsSync(extra))("JSON-string arguments and templates that write them with tojson", () => {
  for (const name of [
    "Qwen-Qwen2.5-3B-Instruct.jinja",
    "hfjs-meta-llama-Llama-3.2-11B-Vision-Instruct.jinja",
    "llamacpp-deepseek-ai-DeepSeek-V3.1.jinja",
  ])
    test(`${name}: the string is given as the object it holds`, () => {
      const file = join(extra, name);
      const fromString = render(file, conversation(JSON.stringify(ARGS)));
      expect(fromString).toBe(render(file, conversation(ARGS)));
      // The call's JSON once, not a quoted JSON string.
      expect(fromString).toContain('"city": "Paris"');
      expect(fromString).not.toContain('\\"city\\"');
    });
});

describe.skipIf(!existsSync(mistral))("templates with an `is string` branch write the string as sent", () => {
  test("Mistral v3 (SentencePiece): the client's string, unescaped", () => {
    const sent = '{"city":"Paris"}';
    const text = render(join(mistral, "v3_spm.jinja"), conversation(sent));
    expect(text).toContain(`"arguments": ${sent}`);
    expect(text).not.toContain("&#34;");
  });
});
