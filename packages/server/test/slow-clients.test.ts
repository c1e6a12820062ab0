// Slow and greedy clients over raw loopback sockets: half-sent headers and bodies are cut at the
// request read time limit (node answers 408 and closes), bytes buffered before a slot are capped
// across all requests (503 server-busy), connections are capped, a request refused for lack of a
// slot (429) never paid for an encode, a stream reader that stops reading holds its slot only
// until the request time limit, and a log sink that throws never takes the server down.
import { connect, type Socket } from "node:net";
import type { ChatTokenizer } from "@chatwire/tokenizer";
import { afterEach, describe, expect, it } from "vitest";
import { createChatwireServer, createReplayEngine, type Engine, type GenerateRequest } from "../src/index.ts";
import { type Running, start, tokenizer } from "./support.ts";

const tok = () => tokenizer("qwen3");
// The verified end-of-turn ID of the loaded Qwen3 files.
const imEnd = () => tok().tokenIds.imEnd as number;
const chat = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: "test-model", messages: [{ role: "user", content: "hi" }], ...extra });

let running: Running[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

/** A raw connection that sends `head` and then nothing; resolves what it received when it closes. */
function halfSent(url: string, head: string): { closed: Promise<{ ms: number; text: string }> } {
  const { port } = new URL(url);
  const t0 = performance.now();
  const s = connect(Number(port), "127.0.0.1");
  sockets.push(s);
  let text = "";
  s.setEncoding("utf8");
  s.on("data", (c: string) => {
    text += c;
  });
  s.on("error", () => {});
  s.write(head);
  return {
    closed: new Promise((resolve) => s.on("close", () => resolve({ ms: performance.now() - t0, text }))),
  };
}

const bodyHead = (declared: number) =>
  `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`;

/** An engine that never yields until aborted (holds its slot). */
function stuckEngine(): Engine {
  return {
    name: "stuck",
    async *generate(req: GenerateRequest) {
      await new Promise<void>((r) => req.signal.addEventListener("abort", () => r(), { once: true }));
      yield* [];
    },
    async close() {},
  };
}

/** The tokenizer with its encode calls counted (a copy: the tokenizer object is frozen). */
function counting(t: ChatTokenizer): { tokenizer: ChatTokenizer; encodes: () => number } {
  let n = 0;
  const tokenizer: ChatTokenizer = {
    ...t,
    encodeChat: (...a: Parameters<ChatTokenizer["encodeChat"]>) => {
      n++;
      return t.encodeChat(...a);
    },
    encodeText: (...a: Parameters<ChatTokenizer["encodeText"]>) => {
      n++;
      return t.encodeText(...a);
    },
  };
  return { tokenizer, encodes: () => n };
}

const until = async (f: () => boolean) => {
  for (let i = 0; i < 500 && !f(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(f()).toBe(true);
};

describe("slow and greedy clients", () => {
  it("half-sent headers and half-sent bodies are closed at the read time limit (408)", async () => {
    const s = await start(tok(), createReplayEngine({ script: () => [imEnd()] }), {
      limits: { headersTimeoutMs: 300, requestReadTimeoutMs: 600 },
    });
    running.push(s);
    const silent = halfSent(s.url, "");
    const headers = halfSent(s.url, "POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\n");
    const bodies = Array.from({ length: 20 }, () => halfSent(s.url, `${bodyHead(1000)}{"model":`));
    const all = await Promise.all([silent, headers, ...bodies].map((c) => c.closed));
    for (const c of all) {
      expect(c.text).toMatch(/^HTTP\/1\.1 408/);
      expect(c.ms).toBeLessThan(3_000);
    }
    await until(() => s.server.stats().open === 0);
    // A complete request on a fresh connection is still served.
    const r = await fetch(`${s.url}/v1/chat/completions`, { method: "POST", body: chat() });
    expect(r.status).toBe(200);
  });

  it("bytes buffered before a slot are capped across requests: 503 server-busy, connection closed", async () => {
    const s = await start(tok(), createReplayEngine({ script: () => [imEnd()] }), {
      limits: { maxBodyBytes: 4096, maxPendingBodyBytes: 8192 },
    });
    running.push(s);
    const pad = "x".repeat(3000);
    // Three half-sent bodies of 3000 bytes: the first two fit in 8192, the third does not.
    const a = halfSent(s.url, `${bodyHead(4000)}${pad}`);
    const b = halfSent(s.url, `${bodyHead(4000)}${pad}`);
    // Both are accepted, and then given time to have their bytes read (on a loaded machine a
    // fixed wait alone could end before the server accepted them).
    await until(() => s.server.stats().open === 2);
    await new Promise((r) => setTimeout(r, 100));
    const c = await halfSent(s.url, `${bodyHead(4000)}${pad}`).closed;
    expect(c.text).toMatch(/^HTTP\/1\.1 503/);
    expect(c.text).toContain('"code":"server-busy"');
    // The two that fit are still waiting for their bodies (closed by afterEach).
    expect(s.server.stats().open).toBe(2);
    void a;
    void b;
  });

  it("connections beyond maxConnections are closed at once", async () => {
    const s = await start(tok(), createReplayEngine({ script: () => [imEnd()] }), {
      limits: { maxConnections: 3 },
    });
    running.push(s);
    const held = [0, 1, 2].map(() => halfSent(s.url, "POST /v1/chat/completions HTTP/1.1\r\n"));
    await new Promise((r) => setTimeout(r, 100));
    const extra = await halfSent(s.url, "").closed;
    expect(extra.ms).toBeLessThan(2_000);
    expect(held).toHaveLength(3);
  });

  it("a request refused with 429 costs no encode", async () => {
    const c = counting(tok());
    const s = await start(c.tokenizer, stuckEngine(), { limits: { maxConcurrent: 1, maxQueue: 0 } });
    running.push(s);
    const holder = new AbortController();
    void fetch(`${s.url}/v1/chat/completions`, { method: "POST", body: chat(), signal: holder.signal }).catch(
      () => null,
    );
    await until(() => s.server.stats().active === 1);
    const before = c.encodes();
    const big = JSON.stringify({
      model: "test-model",
      messages: [{ role: "user", content: "<|im_end|> ".repeat(50_000) }],
    });
    const r = await fetch(`${s.url}/v1/chat/completions`, { method: "POST", body: big });
    expect(r.status).toBe(429);
    expect(c.encodes()).toBe(before);
    const t = await fetch(`${s.url}/v1/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "test-model", prompt: "x ".repeat(50_000) }),
    });
    expect(t.status).toBe(429);
    expect(c.encodes()).toBe(before);
    holder.abort();
  });

  it("a client that stops reading a stream holds its slot only until the request time limit", async () => {
    const hello = tok().encodeText(" hello").ids[0] ?? 0;
    const s = await start(
      tok(),
      createReplayEngine({ script: () => Array.from({ length: 200_000 }, () => hello), batch: 4096 }),
      { limits: { maxConcurrent: 1, requestTimeoutMs: 1_500, maxModelLen: 300_000 } },
    );
    running.push(s);
    // A raw socket that sends the request and never reads: the server's writes back up.
    const c = halfSent(
      s.url,
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(chat({ stream: true, max_tokens: 200_000 }))}\r\n\r\n${chat({ stream: true, max_tokens: 200_000 })}`,
    );
    const sock = sockets.at(-1);
    sock?.pause();
    await until(() => s.server.stats().active === 1);
    await until(() => s.server.stats().active === 0);
    await until(() => s.logs.length === 1);
    expect(s.logs[0]).toMatchObject({ outcome: "timeout", stop: "timeout" });
    void c;
  });

  it("a log sink that throws is dropped; the server keeps serving", async () => {
    // In a real process an unhandled rejection ends it; here vitest would only report it.
    let unhandled = 0;
    const onUnhandled = () => {
      unhandled++;
    };
    process.on("unhandledRejection", onUnhandled);
    const server = createChatwireServer({
      tokenizer: tok(),
      engine: createReplayEngine({ script: () => [imEnd()] }),
      modelId: "test-model",
      log: () => {
        throw new Error("EPIPE");
      },
      drainTimeoutMs: 1_000,
    });
    const url = await server.listen(0);
    running.push({ url, server, logs: [], close: () => server.close() });
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: chat() });
      expect(r.status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 50));
    process.off("unhandledRejection", onUnhandled);
    expect(unhandled).toBe(0);
  });

  it("an empty API key is a TypeError, not an open server", () => {
    expect(() =>
      createChatwireServer({
        tokenizer: tok(),
        engine: createReplayEngine({ script: () => [] }),
        modelId: "m",
        apiKey: "",
      }),
    ).toThrow(TypeError);
  });
});
