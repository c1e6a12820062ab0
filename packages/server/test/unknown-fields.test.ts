// ServeOptions.unknownFields (docs/serve.md "Unknown fields"): by default an unknown request or
// message field is a 400; under "ignore" the request is served and the dropped names are in the
// `x-chatwire-ignored-fields` header (streamed, not streamed and on later errors) and the log
// line, bounded and escaped to printable ASCII whatever the caller's names are.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinReplayScript, createReplayEngine } from "../src/index.ts";
import { type Running, start, tokenizer } from "./support.ts";

const HEADER = "x-chatwire-ignored-fields";
const USER = { role: "user", content: "weather?" };

function replay() {
  const script = builtinReplayScript(tokenizer("qwen3"));
  return createReplayEngine({ script: () => script });
}

function post(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, { method: "POST", body: JSON.stringify(body) });
}

describe("unknown fields: reject (default)", () => {
  let srv: Running;
  beforeAll(async () => {
    srv = await start(tokenizer("qwen3"), replay());
  });
  afterAll(async () => {
    await srv.close();
  });

  it("a top-level unknown field is 400 unknown-parameter, no header", async () => {
    const r = await post(srv.url, { model: "test-model", messages: [USER], foo: 1 });
    expect(r.status).toBe(400);
    expect(r.headers.get(HEADER)).toBeNull();
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("unknown-parameter");
  });

  it("/v1/completions: a top-level unknown field is 400 unknown-parameter", async () => {
    const r = await fetch(`${srv.url}/v1/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "test-model", prompt: "Once", foo: 1 }),
    });
    expect(r.status).toBe(400);
    expect(r.headers.get(HEADER)).toBeNull();
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("unknown-parameter");
  });

  it("an unknown message field is 400 invalid-conversation", async () => {
    const r = await post(srv.url, { model: "test-model", messages: [{ ...USER, bogus: true }] });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("invalid-conversation");
  });
});

describe("unknown fields: ignore", () => {
  let srv: Running;
  beforeAll(async () => {
    srv = await start(tokenizer("qwen3"), replay(), { unknownFields: "ignore" });
  });
  afterAll(async () => {
    await srv.close();
  });

  it("served; the dropped names are in the header and the log line", async () => {
    const r = await post(srv.url, { model: "test-model", messages: [{ ...USER, bogus: true }], foo: 1 });
    expect(r.status).toBe(200);
    await r.json();
    expect(r.headers.get(HEADER)).toBe("foo,messages[0].bogus");
    const line = srv.logs.at(-1);
    expect(line?.ignored_fields).toEqual(["foo", "messages[0].bogus"]);
    expect(line?.ignored_fields_count).toBeUndefined();
  });

  it("streamed: the SSE response carries the header too", async () => {
    const r = await post(srv.url, { model: "test-model", messages: [USER], stream: true, x_extra: "y" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/event-stream");
    expect(r.headers.get(HEADER)).toBe("x_extra");
    expect(await r.text()).toContain("[DONE]");
  });

  it("a later error (unknown model) still names what was ignored", async () => {
    const r = await post(srv.url, { model: "other", messages: [USER], foo: 1 });
    expect(r.status).toBe(404);
    expect(r.headers.get(HEADER)).toBe("foo");
  });

  it("no unknown field: no header, no log field", async () => {
    const r = await post(srv.url, { model: "test-model", messages: [USER] });
    await r.json();
    expect(r.headers.get(HEADER)).toBeNull();
    expect(srv.logs.at(-1)?.ignored_fields).toBeUndefined();
  });

  it("names are escaped to printable ASCII; past 16 the rest is counted", async () => {
    const body: Record<string, unknown> = { model: "test-model", messages: [USER] };
    body["a,b%c+d é\n"] = 1;
    for (let i = 0; i < 20; i++) body[`k${i}`] = i;
    const r = await post(srv.url, body);
    expect(r.status).toBe(200);
    await r.json();
    const h = r.headers.get(HEADER) ?? "";
    const parts = h.split(",");
    expect(parts).toHaveLength(17);
    expect(parts[0]).toBe("a%2Cb%25c%2Bd%20%C3%A9%0A");
    expect(decodeURIComponent(parts[0] ?? "")).toBe("a,b%c+d é\n");
    expect(parts[16]).toBe("+5");
    expect(h).toMatch(/^[\x21-\x7e]*$/);
    const line = srv.logs.at(-1);
    expect(line?.ignored_fields).toHaveLength(16);
    expect(line?.ignored_fields?.[0]).toBe("a,b%c+d é\n");
    expect(line?.ignored_fields_count).toBe(21);
  });

  it("the openai client: a vendor field in the body and a message is dropped and reported", async () => {
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "unused", maxRetries: 0 });
    const messages = [{ ...USER, x_trace: "t1" }] as unknown as OpenAI.ChatCompletionMessageParam[];
    const { data, response } = await client.chat.completions
      .create({ model: "test-model", messages, vendor_option: true } as never)
      .withResponse();
    expect((data as OpenAI.ChatCompletion).choices[0]?.finish_reason).toBe("tool_calls");
    expect(response.headers.get(HEADER)).toBe("vendor_option,messages[0].x_trace");
  });

  it("/v1/completions: the same rule (dropped, named in the header and the log line)", async () => {
    const r = await fetch(`${srv.url}/v1/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "test-model", prompt: "Once", max_tokens: 2, foo: 1 }),
    });
    expect(r.status).toBe(200);
    await r.json();
    expect(r.headers.get(HEADER)).toBe("foo");
    expect(srv.logs.at(-1)?.ignored_fields).toEqual(["foo"]);
  });

  it("a very long name is cut in the report", async () => {
    const body: Record<string, unknown> = { model: "test-model", messages: [USER] };
    body["z".repeat(10_000)] = 1;
    const r = await post(srv.url, body);
    expect(r.status).toBe(200);
    await r.json();
    expect(r.headers.get(HEADER)).toBe("z".repeat(80));
  });
});
