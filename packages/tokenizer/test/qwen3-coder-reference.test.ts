// Qwen3-Coder beyond its goldens: random OpenAI-shaped requests with random tool schemas (nested
// properties, enums, anyOf, boolean schemas, required lists, strict, descriptions to strip) and
// random tool calls (object or JSON-string arguments of random JSON) rendered by chatwire's
// renderer (renderChat of the loaded qwen3-coder files) and by the reference the goldens come from (its chat_template in Python jinja2 as
// transformers renders it, after the labelled vLLM json.loads step of gen/family_qwen3_coder_args.py),
// in one Python run. Equal text is required; the IDs of the same text are the golden suite's.
// Excluded by construction: lone surrogates (Python cannot print them), prefill content that
// recurs after itself (transformers searches the text; docs/formats.md).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../src/index.ts";
import { CODER_TEMPLATE, coderTokenizer, repoRoot } from "./qwen3-coder-support.ts";

const gen = join(repoRoot, "test-vectors/gen");

/** chatwire's rendering as text (reserved IDs written as their strings), or the error type. */
function render(request: unknown): string {
  try {
    return coderTokenizer().renderChat(request as ChatRequest);
  } catch (e) {
    return `error: ${(e as { type?: string }).type ?? String(e)}`;
  }
}

function reference(requests: readonly unknown[]): string[] {
  const job = JSON.stringify({ template: CODER_TEMPLATE, special: {}, now: "2024-07-26T10:00:00", requests });
  const py = (script: string, input: string): string => {
    const r = spawnSync("/usr/bin/python3", [join(gen, script)], {
      input,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`${script} failed: ${r.stderr}`);
    return r.stdout;
  };
  const out = JSON.parse(py("template_render.py", py("family_qwen3_coder_args.py", job))) as Array<
    { text: string } | { error: string }
  >;
  return out.map((o) => ("text" in o ? o.text : "error: invalid-conversation"));
}

const text = fc
  .array(
    fc.constantFrom(
      "Hello",
      " ",
      "\n",
      "\t",
      "\u3000",
      "\u00a0",
      "你好",
      "😀",
      '"',
      "'",
      "\\",
      "é",
      "\u0000",
      "\u007f",
      "\u0085",
      "\u00ad",
      "\u200b",
      "\u2028",
      "<tag>",
      "x",
    ),
    { maxLength: 5 },
  )
  .map((a) => a.join(""));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const keys = fc.constantFrom("city", "days", "a b", "名", "k", "items", "1");
const json: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1000, max: 1000 }),
    fc.constantFrom(0.5, -2.25, 1e21, 1e-7, 2 ** 60, 0.1),
    text,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(keys, tie("v"), { maxKeys: 3 }),
  ),
})).v;

const property: fc.Arbitrary<Json> = fc.oneof(
  fc.record(
    {
      type: fc.oneof(
        fc.constantFrom("string", "integer", "number", "boolean", "array", "object"),
        fc.constant<Json>(["string", "null"]),
        fc.constant(null),
      ),
      description: fc.oneof(text, fc.constant("  padded  \n")),
      enum: fc.array(json, { maxLength: 3 }),
      default: json,
      items: fc.record({ type: fc.constantFrom("string", "integer") }),
      anyOf: fc.constant<Json>([{ type: "string" }, { type: "null" }]),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom(true, false, "string", 3),
);

const tool = fc.record({
  name: fc.constantFrom("get_weather", "f", "工具"),
  description: fc.option(fc.oneof(text, fc.constant("\n Describe.  ")), { nil: undefined }),
  parameters: fc.option(
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(keys, property, { maxKeys: 3 }),
        required: fc.array(keys, { maxLength: 2 }),
        additionalProperties: fc.boolean(),
      },
      { requiredKeys: ["type"] },
    ),
    { nil: undefined },
  ),
  strict: fc.option(fc.boolean(), { nil: undefined }),
});

const call = fc.record({
  name: fc.constantFrom("get_weather", "f", "工具"),
  args: fc.dictionary(keys, json, { maxKeys: 3 }),
  asString: fc.boolean(),
});

const request = fc
  .record({
    system: fc.option(text, { nil: undefined }),
    tools: fc.array(tool, { maxLength: 2 }),
    turns: fc.array(
      fc.record({
        user: text,
        assistant: fc.oneof(fc.constant(null), text),
        calls: fc.array(call, { maxLength: 2 }),
        results: fc.array(text, { maxLength: 2 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    end: fc.constantFrom("user", "assistant", "prefill", "tool"),
  })
  .map((p) => {
    const messages: Json[] = [];
    if (p.system !== undefined) messages.push({ role: "system", content: p.system });
    for (const t of p.turns) {
      messages.push({ role: "user", content: t.user });
      messages.push({
        role: "assistant",
        content: t.assistant,
        ...(t.calls.length === 0
          ? {}
          : {
              tool_calls: t.calls.map((c) => ({
                type: "function",
                function: { name: c.name, arguments: c.asString ? JSON.stringify(c.args) : c.args },
              })),
            }),
      });
      for (const r of t.results) messages.push({ role: "tool", content: r });
    }
    if (p.end === "user") messages.push({ role: "user", content: "Thanks" });
    if (p.end === "tool") messages.push({ role: "tool", content: "late result" });
    if (p.end === "prefill") messages.push({ role: "assistant", content: "Zq9 go" });
    const tools = p.tools.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        ...(t.description === undefined ? {} : { description: t.description }),
        ...(t.parameters === undefined ? {} : { parameters: t.parameters }),
        ...(t.strict === undefined ? {} : { strict: t.strict }),
      },
    }));
    return {
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      ...(p.end === "assistant" ? { add_generation_prompt: false } : {}),
      ...(p.end === "prefill" ? { continue_final_message: true } : {}),
    };
  });

describe("qwen3-coder: random requests render as the reference does", () => {
  it("300 requests: equal text", () => {
    const requests = fc.sample(request, { numRuns: 300, seed: 20261201 });
    // The reference reads the request as JSON, as a server does.
    const wire = requests.map((r) => JSON.parse(JSON.stringify(r)) as unknown);
    const want = reference(wire);
    let rendered = 0;
    wire.forEach((r, k) => {
      const got = render(r);
      if (!got.startsWith("error:")) rendered++;
      expect(got, JSON.stringify(r)).toBe(want[k]);
    });
    // Most requests render (not a suite of errors).
    expect(rendered).toBeGreaterThan(250);
  });
});
