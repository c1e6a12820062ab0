// The server's limits and lifecycle over loopback HTTP: queue + 429, drain + 503, body limit
// 413, API key 401, client disconnect aborts the engine and frees the slot, request time limit,
// /v1/completions (text and token-ID prompts), /tokenize, /detokenize, /health, /v1/models, the
// per-request log line. Engines here are scripted; no timing assertions (only ordering).
import { request } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { Qwen3Key } from "../../tokenizer/src/families/qwen3/definition.ts";
import { createReplayEngine, type Engine, type GenerateRequest } from "../src/index.ts";
import { post, type Running, start, tokenizer } from "./support.ts";

const tok = () => tokenizer("qwen3");
const Q = tokenIds<Qwen3Key>(tok);
const chat = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: "test-model", messages: [{ role: "user", content: "hi" }], ...extra });

/** An engine that yields one ID per `release()` and records aborts; never ends on its own. */
function gatedEngine() {
  const waiting: Array<() => void> = [];
  let permits = 0;
  let started = 0;
  let aborted = 0;
  let finished = 0;
  const engine: Engine = {
    name: "gated",
    async *generate(req: GenerateRequest) {
      started++;
      const onAbort = () => {
        aborted++;
        for (const w of waiting.splice(0)) w();
      };
      req.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const hello = tok().encodeText("Hello").ids[0] ?? 0;
        for (;;) {
          if (permits > 0) permits--;
          else await new Promise<void>((r) => waiting.push(r));
          if (req.signal.aborted) return;
          yield [hello];
        }
      } finally {
        finished++;
        req.signal.removeEventListener("abort", onAbort);
      }
    },
    async close() {},
  };
  return {
    engine,
    release: () => {
      const w = waiting.shift();
      if (w === undefined) permits++;
      else w();
    },
    stats: () => ({ started, aborted, finished }),
  };
}

/** Opens a streaming request and resolves once the first data line arrived; returns a closer. */
function openStream(url: string, body: string): Promise<{ close(): void; text: () => string }> {
  return new Promise((resolve, reject) => {
    let text = "";
    const r = request(
      `${url}/v1/chat/completions`,
      { method: "POST", headers: { "content-type": "application/json" } },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          const first = text === "";
          text += c;
          if (first) resolve({ close: () => r.destroy(), text: () => text });
        });
      },
    );
    r.on("error", (e) => {
      if (text === "") reject(e);
    });
    r.end(body);
  });
}
const until = async (f: () => boolean) => {
  for (let i = 0; i < 500 && !f(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(f()).toBe(true);
};

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});
async function serve(engine: Engine, extra: Parameters<typeof start>[2] = {}) {
  const r = await start(tok(), engine, extra);
  running.push(r);
  return r;
}

describe("chatwire server", () => {
  it("bounded concurrency: 1 running + 1 queued, the third gets 429 with retry-after", async () => {
    const g = gatedEngine();
    const s = await serve(g.engine, { limits: { maxConcurrent: 1, maxQueue: 1 } });
    // The stream opens with the engine's first token.
    const opening = openStream(s.url, chat({ stream: true }));
    g.release();
    const a = await opening;
    const queued = post(s.url, "/v1/chat/completions", chat({ max_tokens: 1 }));
    await until(() => s.server.stats().queued === 1);
    const third = await post(s.url, "/v1/chat/completions", chat());
    expect(third.status).toBe(429);
    expect(third.headers["retry-after"]).toBe("1");
    expect(JSON.parse(third.body).error.code).toBe("queue-full");
    a.close(); // frees the slot: the queued request runs
    await until(() => g.stats().started === 2);
    g.release();
    const q = await queued;
    expect(q.status).toBe(200);
    expect(JSON.parse(q.body).choices[0].finish_reason).toBe("length");
  });

  it("a client that disconnects mid-stream aborts the engine and frees its slot", async () => {
    const g = gatedEngine();
    const s = await serve(g.engine, { limits: { maxConcurrent: 1 } });
    const opening = openStream(s.url, chat({ stream: true }));
    g.release();
    const a = await opening;
    await until(() => a.text().includes('"content":"Hello"'));
    a.close();
    await until(() => g.stats().aborted === 1 && g.stats().finished === 1 && s.server.stats().active === 0);
    await until(() => s.logs.length === 1);
    expect(s.logs[0]).toMatchObject({ status: 499, outcome: "aborted", path: "/v1/chat/completions" });
  });

  it("backpressure: a client that stops reading stops the engine being pulled; resuming delivers everything", async () => {
    const hello = tok().encodeText(" hello").ids[0] ?? 0;
    const total = 200_000;
    let pulled = 0;
    const engine: Engine = {
      name: "counting",
      async *generate(req) {
        for (let i = 0; i < total && !req.signal.aborted; i++) {
          pulled++;
          if (i % 64 === 0) await new Promise((r) => setImmediate(r));
          yield [hello];
        }
      },
      async close() {},
    };
    const s = await serve(engine, { limits: { maxModelLen: 300_000 } });
    const body = JSON.stringify({
      model: "test-model",
      messages: [{ role: "user", content: "x" }],
      stream: true,
      max_tokens: total,
    });
    const got = await new Promise<number>((resolve, reject) => {
      const r = request(
        `${s.url}/v1/chat/completions`,
        { method: "POST", headers: { "content-type": "application/json" } },
        (res) => {
          res.pause();
          let last = -1;
          const poll = setInterval(() => {
            // Stalled: the count stopped moving while the client reads nothing.
            if (pulled === last) {
              clearInterval(poll);
              const stalledAt = pulled;
              let text = "";
              res.setEncoding("utf8");
              res.on("data", (c: string) => {
                text += c;
              });
              res.on("end", () => {
                expect(stalledAt).toBeLessThan(total / 4);
                resolve((text.match(/"content":" hello"/g) ?? []).length);
              });
              res.resume();
            }
            last = pulled;
          }, 50);
        },
      );
      r.on("error", reject);
      r.end(body);
    });
    expect(got).toBe(total);
  });

  it("close() drains: new requests get 503, the running stream finishes", async () => {
    const g = gatedEngine();
    const s = await serve(g.engine);
    running = [];
    const whole = post(s.url, "/v1/chat/completions", chat({ max_tokens: 2, stream: true }));
    await until(() => g.stats().started === 1);
    const closing = s.close();
    // Answered, not refused: the listener stays open while the stream finishes.
    const refused = await post(s.url, "/v1/chat/completions", chat());
    expect(refused.status).toBe(503);
    expect(refused.body).toContain('"code":"shutting-down"');
    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(503);
    expect(await health.text()).toContain('"code":"shutting-down"');
    g.release();
    g.release();
    const done = await whole;
    expect(done.body.endsWith("data: [DONE]\n\n")).toBe(true);
    await closing;
  });

  it("413 reaches a client still sending its body: the rest is read, the connection serves the next request", async () => {
    const s = await serve(createReplayEngine({ script: () => [Q.imEnd] }), {
      limits: { maxBodyBytes: 1000 },
    });
    const { port } = new URL(s.url);
    const sock = connect(Number(port), "127.0.0.1");
    let got = "";
    let failed: Error | undefined;
    sock.setEncoding("utf8");
    sock.on("data", (c: string) => {
      got += c;
    });
    sock.on("error", (e) => {
      failed = e;
    });
    const size = 256 * 1024;
    sock.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-length: ${size}\r\n\r\n`);
    sock.write("x".repeat(8192));
    await until(() => got.includes("request-too-large"));
    expect(got).toMatch(/^HTTP\/1\.1 413/);
    // The client goes on sending what it declared, slowly: not cut off (a cut is a broken pipe).
    for (let sent = 8192; sent < size; sent += 16384) {
      sock.write("x".repeat(Math.min(16384, size - sent)));
      await new Promise((r) => setTimeout(r, 5));
    }
    const next = chat();
    sock.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-length: ${Buffer.byteLength(next)}\r\n\r\n${next}`,
    );
    await until(() => /HTTP\/1\.1 200/.test(got) || failed !== undefined || sock.destroyed);
    sock.destroy();
    expect(failed).toBeUndefined();
    expect(got).toMatch(/HTTP\/1\.1 200/);
  });

  it("413 for a body over the limit; 400 for invalid JSON; 404 for an unknown model", async () => {
    const s = await serve(createReplayEngine({ script: () => [Q.imEnd] }), {
      limits: { maxBodyBytes: 200 },
    });
    expect((await post(s.url, "/v1/chat/completions", chat({ pad: "x".repeat(300) }))).status).toBe(413);
    expect((await post(s.url, "/v1/chat/completions", "{nope")).status).toBe(400);
    const wrong = await post(
      s.url,
      "/v1/chat/completions",
      JSON.stringify({ model: "other", messages: [{ role: "user", content: "x" }] }),
    );
    expect([wrong.status, JSON.parse(wrong.body).error.code]).toEqual([404, "model-not-found"]);
  });

  it("400s carry OpenAI error bodies: unsupported n, invalid conversation with its param", async () => {
    const s = await serve(createReplayEngine({ script: () => [Q.imEnd] }));
    const n = await post(s.url, "/v1/chat/completions", chat({ n: 2 }));
    expect([n.status, JSON.parse(n.body).error]).toEqual([
      400,
      expect.objectContaining({ code: "unsupported-parameter", param: "n", type: "invalid_request_error" }),
    ]);
    const bad = await post(
      s.url,
      "/v1/chat/completions",
      JSON.stringify({ model: "test-model", messages: [{ role: "wizard", content: "x" }] }),
    );
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe("invalid-conversation");
  });

  it("API key: 401 without it, 200 with it, /health open", async () => {
    const s = await serve(createReplayEngine({ script: () => [Q.imEnd] }), { apiKey: "sekret" });
    expect((await post(s.url, "/v1/chat/completions", chat())).status).toBe(401);
    expect(
      (await post(s.url, "/v1/chat/completions", chat(), { authorization: "Bearer wrong" })).status,
    ).toBe(401);
    expect(
      (await post(s.url, "/v1/chat/completions", chat(), { authorization: "Bearer sekret" })).status,
    ).toBe(200);
    // The scheme is case-insensitive (RFC 9110); the key is not.
    expect(
      (await post(s.url, "/v1/chat/completions", chat(), { authorization: "bearer sekret" })).status,
    ).toBe(200);
    expect(
      (await post(s.url, "/v1/chat/completions", chat(), { authorization: "Bearer SEKRET" })).status,
    ).toBe(401);
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
  });

  it("max_tokens left out: the default cut to the room the prompt leaves (as vLLM); given: checked as is", async () => {
    const asked: (number | undefined)[] = [];
    const engine: Engine = {
      name: "recording",
      async *generate(r: GenerateRequest) {
        asked.push(r.sampling.maxTokens);
        yield [Q.imEnd];
      },
      async close() {},
    };
    const s = await serve(engine, { limits: { maxModelLen: 100, defaultMaxTokens: 512 } });
    const messages = [{ role: "user" as const, content: "hi" }];
    const prompt = tok().encodeChat({ messages, add_generation_prompt: true }).ids.length;
    const chatReq = (extra: object) => JSON.stringify({ model: "test-model", messages, ...extra });
    expect((await post(s.url, "/v1/chat/completions", chatReq({}))).status).toBe(200);
    expect(asked).toEqual([100 - prompt]);
    const cmp = await post(s.url, "/v1/completions", JSON.stringify({ model: "test-model", prompt: "hi" }));
    expect(cmp.status).toBe(200);
    expect(asked[1]).toBe(100 - tok().encodeText("hi").ids.length);
    const given = await post(s.url, "/v1/chat/completions", chatReq({ max_tokens: 99 }));
    expect(given.status).toBe(400);
    expect(JSON.parse(given.body).error.code).toBe("context-length-exceeded");
    const long = await post(
      s.url,
      "/v1/chat/completions",
      JSON.stringify({ model: "test-model", messages: [{ role: "user", content: "word ".repeat(200) }] }),
    );
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body).error.message).toMatch(/leaves no room for output within 100 tokens$/);
  });

  it("405 names the allowed method (Allow header) and is a client error", async () => {
    const s = await serve(createReplayEngine({ script: () => [Q.imEnd] }));
    const r = await fetch(`${s.url}/v1/chat/completions`);
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("POST");
    expect(((await r.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });

  it("the request time limit stops the engine and ends the response normally", async () => {
    const g = gatedEngine();
    const s = await serve(g.engine, { limits: { requestTimeoutMs: 300 } });
    g.release(); // one token, then the engine stalls
    const r = await post(s.url, "/v1/chat/completions", chat());
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).choices[0].finish_reason).toBe("stop");
    await until(() => s.logs.length === 1);
    expect(s.logs[0]).toMatchObject({ outcome: "timeout", stop: "timeout" });
    expect(g.stats().aborted).toBe(1);
  });

  it("the time limit before the engine's first token is a failure: 504 engine-timeout", async () => {
    const g = gatedEngine();
    const s = await serve(g.engine, { limits: { requestTimeoutMs: 300 } });
    const r = await post(s.url, "/v1/chat/completions", chat());
    expect([r.status, JSON.parse(r.body).error.code]).toEqual([504, "engine-timeout"]);
    // Streamed too: no token yet, so the stream never opened and the status says it.
    const streamed = await post(s.url, "/v1/chat/completions", chat({ stream: true }));
    expect([streamed.status, JSON.parse(streamed.body).error.code]).toEqual([504, "engine-timeout"]);
    expect(streamed.body).not.toContain("data:");
    await until(() => s.logs.length === 2);
    expect(s.logs[0]).toMatchObject({ outcome: "engine-error", status: 504 });
    expect(g.stats().aborted).toBe(2);
  });

  it("/v1/completions: text prompt (a marker in it is text, audited) and token-ID prompt", async () => {
    const ids = [...tok().encodeText(" upon a time").ids, Q.imEnd];
    const seen: (readonly number[])[] = [];
    const s = await serve(
      createReplayEngine({
        script: (p) => {
          seen.push(p);
          return ids;
        },
      }),
    );
    const a = await post(
      s.url,
      "/v1/completions",
      JSON.stringify({ model: "test-model", prompt: "Once<|im_end|>", max_tokens: 20 }),
    );
    expect(JSON.parse(a.body).choices[0]).toMatchObject({ text: " upon a time", finish_reason: "stop" });
    expect(seen[0]).toEqual(tok().encodeText("Once<|im_end|>").ids);
    expect(seen[0]).not.toContain(Q.imEnd);
    await until(() => s.logs.length === 1);
    expect(s.logs[0]?.audit).toBe(1);
    const b = await post(
      s.url,
      "/v1/completions",
      JSON.stringify({ model: "test-model", prompt: [9707, 11], stream: true, max_tokens: 2 }),
    );
    expect(seen[1]).toEqual([9707, 11]);
    const texts = b.body
      .split("\n\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)).choices[0]);
    expect(texts.map((c: { text: string }) => c.text).join("")).toBe(tok().decode(ids.slice(0, 2)));
    expect(texts.at(-1).finish_reason).toBe("length");
  });

  it("/tokenize, /detokenize (vLLM shapes), /v1/models, /health", async () => {
    const s = await serve(createReplayEngine({ script: () => [] }));
    const t = JSON.parse((await post(s.url, "/tokenize", JSON.stringify({ prompt: "hi <think>" }))).body);
    expect(t).toEqual({
      count: t.tokens.length,
      max_model_len: 32768,
      tokens: tok().encodeText("hi <think>").ids,
      audit: 1,
    });
    expect(t.tokens).not.toContain(Q.think);
    const c = JSON.parse(
      (await post(s.url, "/tokenize", JSON.stringify({ messages: [{ role: "user", content: "hi" }] }))).body,
    );
    expect(c.tokens).toEqual(tok().encodeChat({ messages: [{ role: "user", content: "hi" }] }).ids);
    const d = JSON.parse(
      (await post(s.url, "/detokenize", JSON.stringify({ tokens: [Q.think, ...tok().encodeText("x").ids] })))
        .body,
    );
    expect(d).toEqual({ prompt: "<think>x" });
    const m = (await (await fetch(`${s.url}/v1/models`)).json()) as { data: unknown[] };
    expect(m.data[0]).toMatchObject({ id: "test-model", object: "model" });
    expect(await (await fetch(`${s.url}/health`)).json()).toMatchObject({ status: "ok" });
  });

  it("/tokenize: a chat the tokenizer refuses is a 400 whose param names the field (as on chat completions)", async () => {
    const s = await serve(createReplayEngine({ script: () => [] }));
    const paramOf = async (body: unknown) => {
      const r = await post(s.url, "/tokenize", JSON.stringify(body));
      expect(r.status).toBe(400);
      return (JSON.parse(r.body) as { error: { param: string } }).error.param;
    };
    const user = { role: "user", content: "hi" };
    expect(await paramOf({ messages: [user], add_generation_prompt: "yes" })).toBe("add_generation_prompt");
    expect(await paramOf({ messages: [user, { role: 7, content: "x" }] })).toBe("messages[1].role");
    expect(await paramOf({ messages: [user], stream: true })).toBe("stream");
    expect(await paramOf({ messages: [{ role: "user", content: 5 }] })).toBe("messages[0].content");
  });

  it("/tokenize {prompt}: unknown fields follow unknownFields; prompt with messages is refused as such", async () => {
    const strict = await serve(createReplayEngine({ script: () => [] }));
    const r = await post(strict.url, "/tokenize", JSON.stringify({ prompt: "hi", zzz: 1 }));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error).toMatchObject({ code: "unknown-parameter", param: "zzz" });
    const ok = await post(
      strict.url,
      "/tokenize",
      JSON.stringify({ prompt: "hi", model: "m", add_special_tokens: true }),
    );
    expect(ok.status).toBe(200);
    const both = await post(
      strict.url,
      "/tokenize",
      JSON.stringify({ prompt: "hi", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(both.status).toBe(400);
    expect(JSON.parse(both.body).error.message).toBe("give prompt or messages, not both");
    const lenient = await serve(createReplayEngine({ script: () => [] }), { unknownFields: "ignore" });
    const l = await post(lenient.url, "/tokenize", JSON.stringify({ prompt: "hi", zzz: 1 }));
    expect(l.status).toBe(200);
    expect(l.headers["x-chatwire-ignored-fields"]).toBe("zzz");
    expect(JSON.parse(l.body).tokens).toEqual(tok().encodeText("hi").ids);
  });

  it("one JSON log line per request with tokens, TTFT, stop cause and audit count", async () => {
    const ids = [...tok().encodeText("Hi!").ids, Q.imEnd];
    const s = await serve(createReplayEngine({ script: () => ids }));
    await post(
      s.url,
      "/v1/chat/completions",
      JSON.stringify({
        model: "test-model",
        messages: [{ role: "user", content: "x<|im_start|>" }],
        stream: true,
      }),
    );
    await until(() => s.logs.length === 1);
    const l = s.logs[0];
    expect(l).toMatchObject({
      status: 200,
      stream: true,
      completion_tokens: ids.length,
      stop: "eos",
      finish_reason: "stop",
      audit: 1,
    });
    expect(l?.prompt_tokens).toBeGreaterThan(0);
    expect(typeof l?.ttft_ms).toBe("number");
    expect(typeof l?.chatwire_ttft_ms).toBe("number");
  });
});
