// Sampling parameters through the in-process node-llama-cpp engine on the tiny random-weight
// GGUF (scripts/make-tiny-gguf.js, written to a temp dir): the same seed gives the same IDs,
// top_k 1 gives the greedy (temperature 0) IDs, every mapped parameter is accepted end to end,
// and response_format json_schema (node-llama-cpp's JSON-schema grammar) makes even this random
// model answer JSON that validates against the schema. The engine's IDs are read with a tap.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Running } from "./support.ts";
import { fetchChat } from "./support.ts";
import { startTinyLlamaCpp, type TinyLlamaCpp } from "./tiny-llama-cpp.ts";

let tapped: TinyLlamaCpp["tapped"];
let srv: Running;
let tiny: TinyLlamaCpp | undefined;

beforeAll(async () => {
  tiny = await startTinyLlamaCpp("chatwire-gguf-sampling-", 1);
  ({ tapped, srv } = tiny);
}, 120_000);

afterAll(async () => {
  await tiny?.close();
});

const MESSAGES = [{ role: "user", content: "Tell me something." }];

/** One non-streaming completion; the engine's IDs (from the tap) and the response body. */
async function complete(
  extra: Record<string, unknown>,
): Promise<{ ids: number[]; body: Record<string, unknown> }> {
  const before = tapped.runs.length;
  const r = await fetchChat(srv.url, { model: "test-model", messages: MESSAGES, max_tokens: 24, ...extra });
  const body = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(body)).toBe(200);
  return { ids: [...(tapped.runs[before] ?? [])], body };
}

/**
 * The JSON value the answer starts with. The random-weight model does not stop once the
 * grammar's value is complete (it never learned to end a turn there): what follows the value is
 * not part of it.
 */
function firstJsonValue(text: string): unknown {
  for (let end = text.indexOf("}"); end >= 0; end = text.indexOf("}", end + 1)) {
    try {
      return JSON.parse(text.slice(0, end + 1));
    } catch {
      // not a complete value yet
    }
  }
  throw new Error(`no JSON object at the start of ${JSON.stringify(text.slice(0, 80))}`);
}

describe("llama-cpp sampling on the tiny GGUF", () => {
  it("seed: the same seed gives the same IDs; another seed other IDs", async () => {
    const a = await complete({ seed: 7, temperature: 1 });
    const b = await complete({ seed: 7, temperature: 1 });
    const c = await complete({ seed: 8, temperature: 1 });
    expect(a.ids.length).toBeGreaterThan(0);
    expect(b.ids).toEqual(a.ids);
    expect(c.ids).not.toEqual(a.ids);
    // Seeds outside llama.cpp's 32 bits are seeds of their own, not 0 or their low 32 bits.
    const zero = await complete({ seed: 0, temperature: 1 });
    for (const seed of [-1, -5, 2 ** 32, 2 ** 40]) {
      const other = await complete({ seed, temperature: 1 });
      expect(other.ids, `seed ${seed}`).not.toEqual(zero.ids);
    }
  }, 60_000);

  it("top_k 1 at temperature 1 is greedy (temperature 0), whatever the seed", async () => {
    const greedy = await complete({ temperature: 0 });
    const k1 = await complete({ top_k: 1, temperature: 1, seed: 3 });
    const k1b = await complete({ top_k: 1, temperature: 1, seed: 4 });
    expect(k1.ids).toEqual(greedy.ids);
    expect(k1b.ids).toEqual(greedy.ids);
  }, 60_000);

  it("min_p, repetition / presence / frequency penalties and logit_bias are taken", async () => {
    const greedy = await complete({ temperature: 0 });
    const first = greedy.ids[0] as number;
    // A -100 bias on the greedy first token: the greedy answer must start elsewhere.
    const biased = await complete({ temperature: 0, logit_bias: { [String(first)]: -100 } });
    expect(biased.ids[0]).not.toBe(first);
    const penalised = await complete({
      temperature: 0.7,
      seed: 1,
      min_p: 0.05,
      repetition_penalty: 1.3,
      presence_penalty: 0.5,
      frequency_penalty: 0.5,
    });
    expect(penalised.ids.length).toBeGreaterThan(0);
  }, 60_000);

  it("response_format with a schema node-llama-cpp cannot make a grammar of: 400 with its message", async () => {
    // It throws on the first; on the other two it would warn on stderr and use "any" instead.
    const cases: [unknown, RegExp][] = [
      [{ const: { a: [1] } }, /./],
      [{ $ref: "#" }, /Reference "#" does not start with/],
      [
        { type: "string", minLength: 10, maxLength: 2 },
        /maxLength \(2\) must be greater than or equal to minLength \(10\)/,
      ],
    ];
    for (const [schema, said] of cases) {
      const warn = vi.spyOn(console, "warn");
      const r = await fetchChat(srv.url, {
        model: "test-model",
        messages: MESSAGES,
        max_tokens: 4,
        response_format: { type: "json_schema", json_schema: { name: "x", schema } },
      });
      const body = (await r.json()) as { error: { code: string; message: string; type: string } };
      expect(warn).not.toHaveBeenCalled();
      warn.mockRestore();
      expect(r.status, JSON.stringify(schema)).toBe(400);
      expect(body.error.code).toBe("engine-refused");
      expect(body.error.type).toBe("invalid_request_error");
      expect(body.error.message).toMatch(
        /^response_format: node-llama-cpp cannot make a grammar of this schema: /,
      );
      expect(body.error.message).toMatch(said);
    }
  }, 60_000);

  it("response_format json_schema: the answer validates against the schema", async () => {
    const schema = {
      type: "object",
      properties: { ok: { type: "boolean" }, n: { enum: [1, 2, 3] } },
      required: ["ok", "n"],
      additionalProperties: false,
    };
    const { body } = await complete({
      max_tokens: 200,
      temperature: 1,
      seed: 5,
      response_format: { type: "json_schema", json_schema: { name: "answer", schema } },
    });
    const choices = body.choices as { message: { content: string } }[];
    const parsed = firstJsonValue(choices[0]?.message.content ?? "") as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(["n", "ok"]);
    expect(typeof parsed.ok).toBe("boolean");
    expect([1, 2, 3]).toContain(parsed.n);
  }, 120_000);
});
