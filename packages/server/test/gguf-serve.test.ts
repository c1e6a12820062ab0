// `chatwire serve --engine llama-cpp --model tiny.gguf` with no --tokenizer, through the real bin:
// the tokenizer, template, stop IDs and decoder come from the GGUF (scripts/make-tiny-gguf.js
// writes Qwen3's vocabulary, special tokens and chat template). The official openai client
// streams a tool-enabled request end to end; /v1/models names the GGUF as the tokenizer's source;
// a --tokenizer whose vocabulary differs from the GGUF's stops startup naming the first
// differing token.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { startServe } from "../../cli/test/support.ts";

const root = resolve(import.meta.dirname, "../../..");
const bin = join(root, "packages/cli/bin/chatwire.js");
let dir: string;
let gguf: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "chatwire-gguf-serve-"));
  gguf = join(dir, "tiny.gguf");
  const r = spawnSync(process.execPath, [join(root, "scripts/make-tiny-gguf.js"), gguf], {
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`make-tiny-gguf failed: ${r.stderr}`);
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "Weather for a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];

describe("chatwire serve, a GGUF and nothing else", () => {
  it("serves the tiny GGUF with its own tokenizer: /v1/models, /tokenize, openai streaming with tools", async () => {
    const s = startServe(["--port", "0", "--engine", "llama-cpp", "--model", gguf, "--max-model-len", "512"]);
    try {
      const url = await s.ready;
      const models = (await (await fetch(`${url}/v1/models`)).json()) as {
        data: { id: string; tokenizer: { source: string; format: string } }[];
      };
      expect(models.data[0]).toMatchObject({
        id: "tiny",
        tokenizer: { source: `gguf:${gguf}`, format: "qwen3" },
      });
      // The prompt is Qwen3's chat format with its reserved IDs; caller "<think>" stays text.
      const tok = (await (
        await fetch(`${url}/tokenize`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ messages: [{ role: "user", content: "hi <think>" }] }),
        })
      ).json()) as { tokens: number[]; audit: number };
      expect(tok.tokens.slice(0, 3)).toEqual([151644, 872, 198]);
      expect(tok.tokens).not.toContain(151667);
      expect(tok.audit).toBe(1);
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "x", maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: "tiny",
        messages: [{ role: "user", content: "What is the weather in Paris?" }],
        tools: TOOLS,
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 24,
        seed: 1,
      });
      let finish: string | null = null;
      let chunks = 0;
      let usage = -1;
      for await (const c of stream) {
        chunks++;
        for (const ch of c.choices) finish = ch.finish_reason ?? finish;
        if (c.usage) usage = c.usage.completion_tokens;
      }
      expect(chunks).toBeGreaterThan(1);
      expect(["stop", "length", "tool_calls"]).toContain(finish);
      expect(usage).toBeGreaterThan(0);
      expect(usage).toBeLessThanOrEqual(24);
    } finally {
      s.child.kill("SIGTERM");
      expect(await s.exited).toBe(0);
    }
  }, 120_000);

  it.skipIf(!haveFixtures())(
    "a --tokenizer whose vocabulary differs from the GGUF's is a startup error naming the token",
    () => {
      const r = spawnSync(
        process.execPath,
        [
          bin,
          "serve",
          "--port",
          "0",
          "--engine",
          "llama-cpp",
          "--model",
          gguf,
          "--tokenizer",
          fixturePath("internlm2"),
        ],
        { encoding: "utf8" },
      );
      expect(r.status).toBe(2);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /does not match the vocabulary of --model .*token 0 is "<unk>" in the tokenizer but "!" in the GGUF/,
      );
    },
  );
});
