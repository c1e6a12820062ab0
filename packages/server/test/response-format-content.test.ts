// A response_format request whose model fences its JSON (```json\n{...}\n```, as Ministral writes
// it): the served content is the JSON, streamed or not; without response_format the same output
// is served as written. Over loopback HTTP with the replay engine (the script is the output).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReplayEngine } from "../src/index.ts";
import { fetchChat, type Running, start, tokenizer } from "./support.ts";

const JSON_TEXT = '{"amount": 123.45, "date": "2025-12-03"}';
const FORMAT = {
  type: "json_schema",
  json_schema: { name: "invoice", schema: { type: "object", properties: { amount: { type: "number" } } } },
};

async function post(url: string, body: unknown): Promise<string> {
  const r = await fetchChat(url, body);
  expect(r.status).toBe(200);
  return r.text();
}

/** The content of an SSE stream, its deltas joined. */
function streamedContent(sse: string): string {
  let content = "";
  for (const line of sse.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const c = JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] };
    for (const ch of c.choices) content += ch.delta.content ?? "";
  }
  return content;
}

describe("response_format content over HTTP (replay engine)", () => {
  let srv: Running;
  beforeAll(async () => {
    const tok = tokenizer("qwen3");
    const script = tok.encodeText(`\`\`\`json\n${JSON_TEXT}\n\`\`\``).ids;
    srv = await start(tok, createReplayEngine({ script: () => script }));
  });
  afterAll(async () => {
    await srv.close();
  });

  const request = (extra: Record<string, unknown>) => ({
    model: "test-model",
    messages: [{ role: "user", content: "invoice?" }],
    ...extra,
  });

  it("non-streaming: the JSON without its fence; without response_format as written", async () => {
    const a = JSON.parse(await post(srv.url, request({ response_format: FORMAT })));
    expect(a.choices[0].message.content).toBe(JSON_TEXT);
    const b = JSON.parse(await post(srv.url, request({})));
    expect(b.choices[0].message.content).toBe(`\`\`\`json\n${JSON_TEXT}\n\`\`\``);
  });

  it("streaming: the deltas join to the JSON", async () => {
    const sse = await post(srv.url, request({ response_format: { type: "json_object" }, stream: true }));
    expect(streamedContent(sse)).toBe(JSON_TEXT);
  });
});
