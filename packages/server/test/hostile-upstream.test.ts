// The vLLM and SGLang engines against HOSTILE upstreams (./hostile-upstreams.ts): every broken
// answer is a typed failure to the client — HTTP 502 / 504 when not streaming or when the stream
// has not started (no token yet), an SSE error event then `[DONE]` when it fails mid-stream, never
// a finish_reason — with a generic message (the upstream's text only in the log), and an error
// body is read only up to a small cap.
import { afterEach, describe, expect, it } from "vitest";
import { createSglangEngine, createVllmEngine, type Engine } from "../src/index.ts";
import { type Hostile, type Hostility, hostileUpstream, SECRET } from "./hostile-upstreams.ts";
import { type Running, start, tokenizer } from "./support.ts";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function through(mode: Hostility, engine: "vllm" | "sglang", hugeBytes?: number) {
  const up: Hostile = await hostileUpstream(mode, hugeBytes !== undefined ? { hugeBytes } : {});
  open.push(up);
  // Only the stalling upstreams are meant to time out; every other mode gets a timeout that a
  // loaded machine cannot reach, so a slow writer never turns its failure into a 504.
  const idleTimeoutMs = mode.startsWith("stall-") ? 300 : 30_000;
  const opts = { upstream: up.url, model: "m", idleTimeoutMs };
  const e: Engine = engine === "vllm" ? await createVllmEngine(opts) : await createSglangEngine(opts);
  const srv: Running = await start(tokenizer("qwen3"), e);
  open.push(srv);
  return { up, srv };
}

const body = (stream: boolean) =>
  JSON.stringify({
    model: "test-model",
    messages: [{ role: "user", content: "hi" }],
    max_tokens: 20,
    stream,
  });

async function ask(url: string, stream: boolean) {
  const r = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: body(stream) });
  return { status: r.status, text: await r.text() };
}

function sseErrors(text: string): Array<{ code: string; message: string }> {
  return text
    .split("\n\n")
    .filter((e) => e.startsWith("data: {"))
    .map((e) => JSON.parse(e.slice(6)) as { error?: { code: string; message: string } })
    .flatMap((e) => (e.error !== undefined ? [e.error] : []));
}

/** The HTTP status of each failure type. */
const STATUS = { "engine-failed": 502, "engine-protocol": 502, "engine-timeout": 504 } as const;
type Code = keyof typeof STATUS;
type Upstream = "vllm" | "sglang";

/**
 * Per failure type and engine: the hostile modes that give it, each with `mid`: whether the
 * upstream sends a valid token before it breaks (the stream is already open).
 */
const FAILURES: { readonly [C in Code]: { readonly [E in Upstream]?: Partial<Record<Hostility, boolean>> } } =
  {
    "engine-failed": {
      vllm: { "error-secret": false, "error-endless": false },
      sglang: { "error-secret": false },
    },
    "engine-protocol": {
      vllm: {
        "json-200": false,
        "html-200": false,
        "cr-only": false,
        "no-done": true,
        "endless-line": false,
      },
      // no-done: its chunks are vLLM-shaped (no output_ids): SGLang refuses the first, before any token.
      sglang: { "sglang-rewrite": true, "sglang-fractional": false, "no-done": false },
    },
    "engine-timeout": { vllm: { "stall-before": false, "stall-after": true } },
  };

const CASES = (Object.keys(FAILURES) as Code[]).flatMap((code) =>
  (Object.entries(FAILURES[code]) as [Upstream, Partial<Record<Hostility, boolean>>][]).flatMap(
    ([engine, modes]) =>
      (Object.entries(modes) as [Hostility, boolean][]).map(([mode, mid]) => ({
        mode,
        engine,
        status: STATUS[code],
        code,
        mid,
      })),
  ),
);

describe("hostile upstreams: typed failures, generic messages", () => {
  for (const c of CASES) {
    it(`${c.engine} ${c.mode}: not streamed -> HTTP ${c.status} ${c.code}`, async () => {
      const { srv } = await through(c.mode, c.engine);
      const r = await ask(srv.url, false);
      expect(r.status).toBe(c.status);
      const err = (JSON.parse(r.text) as { error: { code: string; message: string } }).error;
      expect(err.code).toBe(c.code);
      expect(r.text).not.toContain(SECRET);
      expect(r.text).not.toContain("xxxx");
      const log = srv.logs.at(-1);
      expect(log?.status).toBe(c.status);
      expect(log?.error?.length).toBeGreaterThan(0);
      expect(log?.error?.length).toBeLessThanOrEqual(400);
    });
    if (c.mid)
      it(`${c.engine} ${c.mode}: streamed, after a token -> one SSE error event ${c.code}, [DONE], no finish_reason`, async () => {
        const { srv } = await through(c.mode, c.engine);
        const r = await ask(srv.url, true);
        expect(r.status).toBe(200);
        expect(sseErrors(r.text).map((e) => e.code)).toEqual([c.code]);
        expect(r.text.endsWith("data: [DONE]\n\n")).toBe(true);
        expect(r.text).not.toMatch(/"finish_reason":"(stop|length|tool_calls)"/);
        expect(r.text).not.toContain(SECRET);
      });
    else
      it(`${c.engine} ${c.mode}: streamed, before any token -> HTTP ${c.status} ${c.code}, no event stream`, async () => {
        const { srv } = await through(c.mode, c.engine);
        const r = await fetch(`${srv.url}/v1/chat/completions`, { method: "POST", body: body(true) });
        const text = await r.text();
        expect(r.status).toBe(c.status);
        expect(r.headers.get("content-type")).toBe("application/json");
        const err = (JSON.parse(text) as { error: { code: string; type: string } }).error;
        expect([err.code, err.type]).toEqual([c.code, "server_error"]);
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain("data:");
        expect(srv.logs.at(-1)?.status).toBe(c.status);
      });
  }

  it("the upstream's error text is logged (at most 200 characters of it), never sent", async () => {
    const { srv } = await through("error-secret", "vllm");
    const r = await ask(srv.url, false);
    expect(r.text).not.toContain(SECRET);
    expect(srv.logs.at(-1)?.error).toContain(SECRET);
  });

  it("a 64 MB error body is read only up to a small cap", async () => {
    const { up, srv } = await through("error-huge", "vllm", 64 * 1024 * 1024);
    const t0 = performance.now();
    const r = await ask(srv.url, false);
    expect(r.status).toBe(502);
    expect(performance.now() - t0).toBeLessThan(5_000);
    // What the upstream could hand to the socket: the cap plus socket buffers, not the body.
    expect(up.written()).toBeLessThan(8 * 1024 * 1024);
  });
});
