import { afterEach, describe, expect, it } from "vitest";
import { type Engine, EngineError } from "../src/index.ts";
import { post, type Running, start, tokenizer } from "./support.ts";

const tok = () => tokenizer("qwen3");

function failingEngine(before: readonly number[]): Engine {
  return {
    name: "failing",
    async *generate() {
      if (before.length > 0) yield before;
      throw new EngineError("engine-failed", "upstream closed the connection");
    },
    async close() {},
  };
}

/** POSTs `body` as JSON. */
const postJson = (url: string, path: string, body: unknown) => post(url, path, JSON.stringify(body));

/** The JSON payloads of an SSE body, "[DONE]" kept as the string. */
function events(body: string): unknown[] {
  return body
    .split("\n\n")
    .filter((e) => e.startsWith("data: "))
    .map((e) => e.slice(6))
    .map((d) => (d === "[DONE]" ? d : JSON.parse(d)));
}

let running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

const ROUTES = [
  {
    path: "/v1/chat/completions",
    body: { model: "test-model", messages: [{ role: "user", content: "hi" }] },
  },
  { path: "/v1/completions", body: { model: "test-model", prompt: "Once upon a time" } },
] as const;

describe("engine failure mid-generation", () => {
  const hello = () => tok().encodeText("Hello there").ids;
  for (const route of ROUTES) {
    it(`${route.path} streamed, before any token: HTTP 502 engine-failed, no event stream`, async () => {
      const s = await start(tok(), failingEngine([]));
      running.push(s);
      const r = await postJson(s.url, route.path, { ...route.body, stream: true });
      expect(r.status).toBe(502);
      expect(r.headers["content-type"]).toBe("application/json");
      const err = (JSON.parse(r.body) as { error: { code: string; type: string; message: string } }).error;
      expect([err.code, err.type, err.message]).toEqual([
        "engine-failed",
        "server_error",
        "the inference engine failed",
      ]);
      expect(r.body).not.toContain("upstream closed the connection");
      expect(s.logs.at(-1)).toMatchObject({ outcome: "engine-error", status: 502 });
    });
    for (const partial of [true, false]) {
      const what = partial ? "after some tokens" : "before any token";
      if (partial)
        it(`${route.path} streamed, ${what}: the text so far, one engine-failed error event, [DONE]`, async () => {
          const s = await start(tok(), failingEngine(partial ? hello() : []));
          running.push(s);
          const r = await postJson(s.url, route.path, { ...route.body, stream: true });
          expect(r.status).toBe(200);
          const ev = events(r.body);
          expect(ev.at(-1)).toBe("[DONE]");
          const errors = ev.filter(
            (e): e is { error: { code: string; type: string; message: string } } =>
              typeof e === "object" && e !== null && "error" in e,
          );
          expect(errors).toHaveLength(1);
          expect(errors[0]?.error.code).toBe("engine-failed");
          expect(errors[0]?.error.type).toBe("server_error");
          // A fixed message: the engine's own text goes to the log only.
          expect(errors[0]?.error.message).toBe("the inference engine failed");
          expect(r.body).not.toContain("upstream closed the connection");
          expect(ev.at(-2)).toBe(errors[0]); // the error is the last event before [DONE]
          // No finish_reason is claimed for a generation that did not finish.
          expect(r.body).not.toMatch(/"finish_reason":"(stop|length|tool_calls)"/);
          if (partial) {
            const text = ev
              .flatMap((e) => {
                const c = (e as { choices?: Array<{ delta?: { content?: string }; text?: string }> }).choices;
                return c === undefined ? [] : c.map((x) => x.delta?.content ?? x.text ?? "");
              })
              .join("");
            expect(text).toBe("Hello there");
          }
          const log = s.logs.at(-1);
          expect(log?.outcome).toBe("engine-error");
          expect(log?.status).toBe(200);
          expect(log?.error).toContain("upstream closed the connection");
        });
      it(`${route.path} not streamed, ${what}: HTTP 502 engine-failed`, async () => {
        const s = await start(tok(), failingEngine(partial ? hello() : []));
        running.push(s);
        const r = await postJson(s.url, route.path, route.body);
        expect(r.status).toBe(502);
        const err = (JSON.parse(r.body) as { error: { code: string; type: string } }).error;
        expect(err.code).toBe("engine-failed");
        expect(err.type).toBe("server_error");
        expect(r.body).not.toContain("upstream closed the connection");
        expect(s.logs.at(-1)?.error).toContain("upstream closed the connection");
        expect(s.logs.at(-1)?.status).toBe(502);
        expect(s.logs.at(-1)?.outcome).toBe("engine-error");
      });
    }
  }
});

describe("an engine that ends with no ID (not a failure)", () => {
  const silent: Engine = {
    name: "silent",
    async *generate() {},
    async close() {},
  };
  for (const route of ROUTES)
    it(`${route.path} streamed: the stream still opens, 200, a finish_reason, [DONE]`, async () => {
      const s = await start(tok(), silent);
      running.push(s);
      const r = await postJson(s.url, route.path, { ...route.body, stream: true });
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toMatch(/^text\/event-stream/);
      const ev = events(r.body);
      expect(ev.at(-1)).toBe("[DONE]");
      expect(r.body).toMatch(/"finish_reason":"stop"/);
      expect(r.body).not.toContain('"error"');
      if (route.path === "/v1/chat/completions")
        expect((ev[0] as { choices: Array<{ delta: { role?: string } }> }).choices[0]?.delta.role).toBe(
          "assistant",
        );
    });
});
