// The in-process node-llama-cpp engine on the tiny random-weight Qwen3-vocabulary GGUF written by
// scripts/make-tiny-gguf.js (generated here into a temp dir, ~3 s). Its output is random tokens:
// markers in random places, broken UTF-8, half tool calls — the robustness input. Checked: the
// official openai client's reassembly equals the decoder's reference on the very IDs the engine
// produced; two concurrent streams; and, documenting why chatwire encodes the prompt itself,
// that llama.cpp's own tokenize(text, false) turns caller text "<think>" into the reserved 151667.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LlamaCppEngine } from "../src/index.ts";
import { type Running, tokenizer } from "./support.ts";
import { reference } from "./tap.ts";
import { startTinyLlamaCpp, type TinyLlamaCpp } from "./tiny-llama-cpp.ts";

let engine: LlamaCppEngine;
let tapped: TinyLlamaCpp["tapped"];
let srv: Running;
let tiny: TinyLlamaCpp | undefined;

beforeAll(async () => {
  tiny = await startTinyLlamaCpp("chatwire-gguf-", 2);
  ({ engine, tapped, srv } = tiny);
}, 120_000);

afterAll(async () => {
  await tiny?.close();
});

describe("node-llama-cpp engine, tiny Qwen3-vocabulary GGUF", () => {
  it("documents the pitfall: llama.cpp tokenize(text, false) makes caller '<think>' the reserved 151667; chatwire does not", () => {
    const text = "hi <think> there";
    const theirs = engine.llamaTokenize(text, false);
    const THINK = tokenizer("qwen3").tokenIds.think;
    expect(theirs).toContain(THINK);
    const ours = tokenizer("qwen3").encodeText(text).ids;
    expect(ours).not.toContain(THINK);
    // Same vocabulary: on text without marker look-alikes the two tokenizers agree.
    const plain = "Hello, world! 你好 — tabs\tand 123 numbers";
    expect(engine.llamaTokenize(plain, false)).toEqual(tokenizer("qwen3").encodeText(plain).ids);
  });

  it("openai client create({stream}) reassembles exactly the decoder's account of the engine's IDs", async () => {
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "x", maxRetries: 0 });
    for (const seed of [1, 2, 3]) {
      const before = tapped.runs.length;
      const stream = await client.chat.completions.create({
        model: "test-model",
        messages: [{ role: "user", content: "Say something <think> random" }],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 40,
        seed,
        temperature: 1,
      });
      let content = "";
      let reasoning = "";
      let finish: string | null = null;
      let usage = -1;
      for await (const c of stream) {
        for (const ch of c.choices) {
          const d = ch.delta as typeof ch.delta & { reasoning_content?: string };
          content += d.content ?? "";
          reasoning += d.reasoning_content ?? "";
          for (const t of d.tool_calls ?? []) content += t.function?.arguments ?? "";
          finish = ch.finish_reason ?? finish;
        }
        if (c.usage) usage = c.usage.completion_tokens;
      }
      const ids = tapped.runs[before] ?? [];
      const ref = reference(tokenizer("qwen3"), ids, 40);
      expect(usage).toBe(Math.min(ids.length, 40));
      expect(reasoning).toBe(ref.reasoning);
      if (ref.actions === 0) expect(content).toBe(ref.text);
      else expect(content.length).toBeGreaterThanOrEqual(ref.text.length);
      expect(finish).toBe(
        ref.stop === "max_tokens" ? "length" : finish === "tool_calls" ? "tool_calls" : "stop",
      );
    }
  });

  it("two concurrent streams on two sequences both finish", async () => {
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "x", maxRetries: 0 });
    const one = () =>
      client.chat.completions
        .stream({ model: "test-model", messages: [{ role: "user", content: "hi" }], max_tokens: 16 })
        .finalChatCompletion();
    const [a, b] = await Promise.all([one(), one()]);
    for (const r of [a, b]) expect(["length", "stop", "tool_calls"]).toContain(r.choices[0]?.finish_reason);
  });

  it("tool_choice named on random output: the client gets a whole call, content, or an error; never half a call", async () => {
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "x", maxRetries: 0 });
    const tools = [
      { type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } },
    ];
    const outcomes: string[] = [];
    for (const seed of [1, 2, 3, 4]) {
      try {
        const final = await client.chat.completions
          .stream({
            model: "test-model",
            messages: [{ role: "user", content: "weather?" }],
            tools,
            tool_choice: { type: "function", function: { name: "get_weather" } },
            max_tokens: 24,
            seed,
            temperature: 1,
          })
          .finalChatCompletion();
        for (const c of final.choices[0]?.message.tool_calls ?? []) {
          expect(c.type === "function" && c.function.name).toBe("get_weather");
          const v: unknown = JSON.parse(c.type === "function" ? c.function.arguments : "");
          expect(typeof v === "object" && v !== null && !Array.isArray(v)).toBe(true);
        }
        outcomes.push((final.choices[0]?.message.tool_calls?.length ?? 0) > 0 ? "call" : "content");
      } catch (e) {
        expect(String(e)).toMatch(/malformed after its arguments began/);
        outcomes.push("error");
      }
    }
    expect(outcomes.length).toBe(4);
  });
});
