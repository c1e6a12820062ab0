// The sampling part of the upstream request bodies: vLLM's /v1/completions takes every
// parameter under its OpenAI / vLLM name, SGLang's sampling_params under its own (sampling_seed,
// json_schema as text); both engines declare every parameter, llama-cpp too.
import { ALL_SAMPLING_PARAMS, type SamplingOptions } from "@chatwire/openai";
import { describe, expect, it } from "vitest";
import { LLAMA_CPP_SAMPLING } from "../src/engines/llama-cpp.ts";
import { SGLANG_SAMPLING, sglangSampling } from "../src/engines/sglang.ts";
import { VLLM_SAMPLING, vllmSampling } from "../src/engines/vllm.ts";

const schema = { type: "object", properties: { ok: { type: "boolean" } } };
const all: SamplingOptions = {
  stop: [],
  seed: 1,
  temperature: 0.7,
  topP: 0.9,
  topK: 20,
  minP: 0.05,
  repetitionPenalty: 1.1,
  presencePenalty: 0.5,
  frequencyPenalty: 0.25,
  logitBias: new Map([[42, -100]]),
  responseFormat: { type: "json_schema", name: "answer", schema },
};

/** `all` under the names both engines share (vLLM's and SGLang's own names differ only for the seed and schema). */
const SAME_NAMES = {
  temperature: 0.7,
  top_p: 0.9,
  top_k: 20,
  min_p: 0.05,
  repetition_penalty: 1.1,
  presence_penalty: 0.5,
  frequency_penalty: 0.25,
  logit_bias: { "42": -100 },
};

describe("upstream sampling bodies", () => {
  it("vLLM: every parameter under its own name", () => {
    expect(vllmSampling(all)).toEqual({
      ...SAME_NAMES,
      seed: 1,
      response_format: { type: "json_schema", json_schema: { name: "answer", schema } },
    });
    expect(vllmSampling({ stop: [] })).toEqual({});
  });

  it("SGLang: sampling_params names, the schema as text", () => {
    expect(sglangSampling(all)).toEqual({
      ...SAME_NAMES,
      sampling_seed: 1,
      json_schema: JSON.stringify(schema),
    });
    expect(sglangSampling({ stop: [], responseFormat: { type: "json_object" } })).toEqual({
      json_schema: '{"type":"object"}',
    });
  });

  it("the three engines declare every parameter", () => {
    for (const s of [VLLM_SAMPLING, SGLANG_SAMPLING, LLAMA_CPP_SAMPLING])
      expect(s).toEqual(ALL_SAMPLING_PARAMS);
  });
});
