// Random OpenAI-shaped requests (beyond the golden ones) rendered by chatwire (renderChat) and by
// the references the goldens come from, in one Python run per family:
//   qwen3      its chat_template in jinja2 as transformers renders it (gen/qwen3_request_render.py);
//   internlm2 / chatglm3  the vendors' rules re-implemented in gen/request_vectors.py --render.
// Requests: optional system/developer, 1-3 turns (user with text parts and names, assistant with
// content null/""/text/parts, reasoning, 0-2 tool calls with object / compact / spaced JSON-string
// arguments of random JSON, tool results as strings or parts), then a user message, a closed
// assistant reply, or a prefilled assistant message; optional tools and enable_thinking.
// Excluded by construction: text chatwire reads differently on purpose (Qwen3 "</think>" in
// content, user content wrapped in <tool_response>), and prefill content that recurs after itself
// (transformers searches the text; see docs/formats.md).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatMessage, ChatRequest, FormatName, JsonValue } from "../src/index.ts";
import { qwen3Dir } from "../src/node.ts";
import { availableFormats, repoRoot, tokenizerFor } from "./chat-support.ts";

const gen = resolve(repoRoot, "test-vectors/gen");

function referenceRender(format: FormatName, requests: readonly ChatRequest[]): string[] {
  const [script, input] =
    format === "qwen3"
      ? [
          "qwen3_request_render.py",
          {
            template: (
              JSON.parse(readFileSync(join(qwen3Dir(), "tokenizer_config.json"), "utf8")) as {
                chat_template: string;
              }
            ).chat_template,
            requests,
          },
        ]
      : ["request_vectors.py", { format, requests }];
  const args = format === "qwen3" ? [join(gen, script)] : [join(gen, script), "--render"];
  const r = spawnSync("/usr/bin/python3", args, {
    input: JSON.stringify(input),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`${script} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}

const text = fc
  .array(
    fc.constantFrom(
      "Hello",
      " ",
      "  ",
      "\n",
      "\n\n",
      "\t",
      "\u3000",
      "\u00a0",
      "你好",
      "😀",
      '"',
      "\\",
      "é",
      "x",
      "{",
      "}",
      "a b",
    ),
    { maxLength: 5 },
  )
  .map((a) => a.join(""));
const content = fc.oneof(
  text,
  fc
    .array(text, { minLength: 1, maxLength: 3 })
    .map((ts) => ts.map((t) => ({ type: "text" as const, text: t }))),
);

function jsonValue(keys: fc.Arbitrary<string>): fc.Arbitrary<JsonValue> {
  const leaf = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e30, max: 1e30 }),
    fc.constantFrom(2 ** 60, -0, 1e21, 0.1, 1.5),
    text,
  );
  return fc.letrec<{ v: JsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(keys, tie("v"), { maxKeys: 3 }),
    ),
  })).v;
}

function requestArb(format: FormatName): fc.Arbitrary<ChatRequest> {
  const keys =
    format === "chatglm3"
      ? fc.constantFrom("city", "unit", "n", "x_1", "_k")
      : fc.constantFrom("city", "1", "b", "a b", "é", "");
  const args = fc.dictionary(keys, jsonValue(fc.constantFrom("k", "1", "b", "é")), { maxKeys: 3 });
  const call = fc.record({
    name: fc.constantFrom("get_weather", "f", "工具"),
    args,
    form: fc.constantFrom("object", "compact", "spaced"),
    id: fc.constantFrom("call_1", "x"),
  });
  const turn = fc.record({
    user: content,
    name: fc.option(fc.constantFrom("alice", "file", "bob smith", "plugin"), { nil: undefined }),
    assistant: fc.oneof(fc.constant(null), content),
    reasoning: fc.option(text, { nil: undefined }),
    calls: fc.array(call, { maxLength: 2 }),
    resultParts: fc.boolean(),
    result: text,
    followUp: fc.option(content, { nil: undefined }),
  });
  return fc
    .record({
      system: fc.option(
        fc.record({ role: fc.constantFrom("system" as const, "developer" as const), content }),
        {
          nil: undefined,
        },
      ),
      turns: fc.array(turn, { minLength: 1, maxLength: 3 }),
      end: fc.constantFrom("user", "assistant", "prefill"),
      lead: fc.constantFrom("", " ", "\n", "\u3000"),
      tail: text,
      tools: fc.boolean(),
      thinking: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map((p): ChatRequest => {
      const messages: ChatMessage[] = [];
      if (p.system !== undefined) messages.push(p.system);
      for (const t of p.turns) {
        messages.push({ role: "user", content: t.user, ...(t.name === undefined ? {} : { name: t.name }) });
        messages.push({
          role: "assistant",
          content: t.assistant,
          ...(t.reasoning === undefined ? {} : { reasoning_content: t.reasoning }),
          ...(t.calls.length === 0
            ? {}
            : {
                tool_calls: t.calls.map((c) => ({
                  id: c.id,
                  type: "function" as const,
                  function: {
                    name: c.name,
                    arguments:
                      c.form === "object"
                        ? c.args
                        : c.form === "compact"
                          ? JSON.stringify(c.args)
                          : JSON.stringify(c.args, null, 1),
                  },
                })),
              }),
        });
        for (const c of t.calls)
          messages.push({
            role: "tool",
            tool_call_id: c.id,
            content: t.resultParts ? [{ type: "text", text: t.result }] : t.result,
          });
        if (t.followUp !== undefined && t.calls.length > 0)
          messages.push({ role: "assistant", content: t.followUp });
      }
      if (p.end === "user") messages.push({ role: "user", content: "Thanks" });
      if (p.end === "prefill") messages.push({ role: "assistant", content: `${p.lead}Zq9${p.tail}` });
      return {
        messages,
        ...(p.tools
          ? {
              tools: [
                {
                  type: "function",
                  function: { name: "get_weather", description: "Weather.", parameters: { type: "object" } },
                },
                { type: "function", function: { name: "f" } },
              ],
            }
          : {}),
        ...(p.end === "assistant" ? { add_generation_prompt: false } : {}),
        ...(p.end === "prefill" ? { continue_final_message: true } : {}),
        ...(p.thinking === undefined ? {} : { chat_template_kwargs: { enable_thinking: p.thinking } }),
      };
    });
}

describe.each(availableFormats)(
  "%s: random OpenAI-shaped requests render as the reference does",
  (format) => {
    it("renderChat equals the reference rendering (300 requests)", () => {
      const tok = tokenizerFor(format);
      const requests = fc.sample(requestArb(format), { numRuns: 300, seed: 20261201 });
      // the reference reads the request as JSON, as a server does
      const wire = requests.map((r) => JSON.parse(JSON.stringify(r)) as ChatRequest);
      const want = referenceRender(format, wire);
      wire.forEach((r, k) => {
        expect(tok.renderChat(r), JSON.stringify(r)).toBe(want[k]);
      });
    });
  },
);
