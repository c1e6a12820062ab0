// Sampling parameters (docs/openai.md "Sampling"): each one mapped from the request, "off" values
// left out, out-of-range values a 400 naming the field, and a parameter the engine does not
// honour a 400 naming the engine and the field. Also the unknown-field policy: rejected by
// default, dropped and reported with `unknownFields: "ignore"`.
import { describe, expect, it } from "vitest";
import {
  mapChatCompletionParams,
  mapCompletionParams,
  RequestError,
  type SamplingParam,
} from "../src/index.ts";

const base = { model: "m", messages: [{ role: "user", content: "hi" }] };

function sampling(
  extra: Record<string, unknown>,
  engine?: { name: string; honours: ReadonlySet<SamplingParam> },
) {
  const r = mapChatCompletionParams({ ...base, ...extra }, engine === undefined ? {} : { engine });
  return RequestError.isInstance(r) ? { error: [r.type, r.param, r.message] } : r.sampling;
}

describe("sampling parameters", () => {
  it("maps every parameter", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    expect(
      sampling({
        top_k: 20,
        min_p: 0.05,
        repetition_penalty: 1.1,
        presence_penalty: 0.5,
        frequency_penalty: -0.5,
        logit_bias: { "42": -100, "7": 2.5 },
        seed: 3,
        response_format: { type: "json_schema", json_schema: { name: "x", schema, strict: true } },
      }),
    ).toEqual({
      maxTokens: 512,
      stop: [],
      seed: 3,
      topK: 20,
      minP: 0.05,
      repetitionPenalty: 1.1,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      logitBias: new Map([
        [42, -100],
        [7, 2.5],
      ]),
      responseFormat: { type: "json_schema", name: "x", schema },
    });
    expect(sampling({ response_format: { type: "json_object" } })).toMatchObject({
      responseFormat: { type: "json_object" },
    });
  });

  it("leaves the off values out (no engine is asked for what changes nothing)", () => {
    expect(
      sampling({
        top_k: -1,
        min_p: 0,
        repetition_penalty: 1,
        presence_penalty: 0,
        frequency_penalty: 0,
        logit_bias: {},
        response_format: { type: "text" },
      }),
    ).toEqual({ maxTokens: 512, stop: [] });
    expect(sampling({ top_k: 0, logit_bias: { "5": 0 } })).toEqual({ maxTokens: 512, stop: [] });
  });

  it.each([
    [{ top_k: 1.5 }, "top_k"],
    [{ top_k: -2 }, "top_k"],
    [{ min_p: 2 }, "min_p"],
    [{ repetition_penalty: 0 }, "repetition_penalty"],
    [{ presence_penalty: 2.5 }, "presence_penalty"],
    [{ logit_bias: { abc: 1 } }, "logit_bias"],
    [{ logit_bias: { "1": 101 } }, "logit_bias"],
    [{ logit_bias: [1] }, "logit_bias"],
    [{ response_format: { type: "json_schema" } }, "response_format"],
    [{ response_format: { type: "json_schema", json_schema: { name: "x", schema: 1 } } }, "response_format"],
  ])("%j is invalid-parameter naming the field", (extra, param) => {
    const r = sampling(extra) as { error?: unknown[] };
    expect(r.error?.slice(0, 2)).toEqual(["invalid-parameter", param]);
  });

  it("logit_bias IDs are checked against the model's ID count when it is given", () => {
    const chat = (bias: Record<string, number>) =>
      mapChatCompletionParams({ ...base, logit_bias: bias }, { vocabSize: 100 });
    const ok = chat({ "99": -100 });
    expect(RequestError.isInstance(ok) ? ok.type : ok.sampling.logitBias).toEqual(new Map([[99, -100]]));
    for (const bias of [{ "100": 1 }, { "9999999999": -100 }]) {
      const r = chat(bias);
      expect(RequestError.isInstance(r) && [r.type, r.param]).toEqual(["invalid-parameter", "logit_bias"]);
    }
    const c = mapCompletionParams({ model: "m", prompt: "x", logit_bias: { "10": 5 } }, { vocabSize: 10 });
    expect(RequestError.isInstance(c) && [c.type, c.param]).toEqual(["invalid-parameter", "logit_bias"]);
    // Without a vocabulary size (a caller that does not know its model) any ID is passed on.
    expect(sampling({ logit_bias: { "9999999999": -100 } })).toMatchObject({
      logitBias: new Map([[9999999999, -100]]),
    });
  });

  it("a parameter the engine does not honour is a 400 naming the engine and the field", () => {
    const engine = { name: "tiny", honours: new Set<SamplingParam>(["seed", "temperature", "top_p"]) };
    expect(sampling({ top_k: 20 }, engine)).toEqual({
      error: ["unsupported-parameter", "top_k", "top_k: the tiny engine cannot honour it"],
    });
    expect(sampling({ top_k: -1, seed: 1 }, engine)).toMatchObject({ seed: 1 });
    const c = mapCompletionParams({ model: "m", prompt: "x", min_p: 0.1 }, { vocabSize: 10, engine });
    expect(RequestError.isInstance(c) && [c.type, c.param]).toEqual(["unsupported-parameter", "min_p"]);
  });
});

describe("unknown fields", () => {
  it("are rejected by default", () => {
    const r = mapChatCompletionParams({ ...base, frobnicate: 1 });
    expect(RequestError.isInstance(r) && [r.type, r.param]).toEqual(["unknown-parameter", "frobnicate"]);
  });

  it('are dropped and reported with unknownFields: "ignore" (top level and message fields)', () => {
    const r = mapChatCompletionParams(
      {
        ...base,
        frobnicate: 1,
        messages: [
          { role: "user", content: "hi", weird: true },
          { role: "assistant", content: "ok", parsed: null, refusal: null },
        ],
      },
      { unknownFields: "ignore" },
    );
    if (RequestError.isInstance(r)) throw r;
    expect(r.ignored).toEqual(["frobnicate", "messages[0].weird"]);
    expect(r.chat.messages).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "ok", parsed: null, refusal: null },
    ]);
  });
});
