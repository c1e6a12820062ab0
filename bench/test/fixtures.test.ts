// The decoder-benchmark generations must be what they claim: built from the named text by
// the reference tokenizer, `n` IDs long, deterministic. Checked against INDEPENDENT
// references (built with HF Rust tokenizers / SentencePiece C++; checked with
// @huggingface/tokenizers JS / sentencepiece-js WASM).
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../test-support/fixtures.ts";
import {
  buildFixture,
  type Fixture,
  KINDS,
  type ModelName,
  qwen3TokenizerJson,
  spmModelPath,
} from "../src/fixtures.ts";
import { loadHfJs, loadSpmWasm } from "../src/refs.ts";

const N = 1024;

function checkParts(fx: Fixture, decode: (ids: number[]) => string): void {
  expect(fx.ids.length).toBe(N);
  expect(fx.parts.at(-1)?.end).toBe(N);
  let pos = 0;
  for (const p of fx.parts) {
    expect(p.start).toBe(pos);
    pos = p.end;
    if (p.type === "special") {
      expect(fx.ids[p.start]).toBe(p.id);
      expect(p.end - p.start).toBe(1);
      continue;
    }
    const text = decode(fx.ids.slice(p.start, p.end));
    if (p.truncated) {
      const whole = text.replace(/\uFFFD+$/, "");
      expect(whole.length).toBeGreaterThan(0);
      expect(p.text.startsWith(whole)).toBe(true);
    } else {
      expect(text).toBe(p.text);
    }
  }
  // The fill part is the only one cut, and only one exists.
  expect(fx.parts.filter((p) => p.type === "text" && p.fill).length).toBe(1);
}

describe("qwen3 generations", () => {
  const hf = loadHfJs(qwen3TokenizerJson());
  for (const kind of KINDS) {
    it(`${kind}: ${N} ids, each part decodes back to its text (@huggingface/tokenizers)`, async () => {
      const fx = await buildFixture("qwen3", kind, N);
      checkParts(fx, (ids) => hf.decode(ids, { skip_special_tokens: false }));
      const again = await buildFixture("qwen3", kind, N);
      expect(again.ids).toEqual(fx.ids);
    });
  }
  it("mixed holds think, tool_call and CJK; tools holds several tool calls", async () => {
    const mixed = await buildFixture("qwen3", "mixed", N);
    expect(mixed.ids).toContain(151667);
    expect(mixed.ids).toContain(151657);
    expect(hf.decode(mixed.ids)).toMatch(/[\u4e00-\u9fff]/);
    const tools = await buildFixture("qwen3", "tools", N);
    expect(tools.ids.filter((i) => i === 151657).length).toBeGreaterThan(1);
  });
});

for (const model of ["internlm2", "chatglm3"] as const satisfies readonly ModelName[]) {
  describe.skipIf(!haveFixtures())(`${model} generations`, () => {
    for (const kind of KINDS) {
      it(`${kind}: ${N} ids, each part decodes back to its text (sentencepiece-js)`, async () => {
        const sp = await loadSpmWasm(spmModelPath(model));
        const fx = await buildFixture(model, kind, N);
        checkParts(fx, (ids) => sp.decodeIds(ids));
      });
    }
    it("cjk uses byte fallback (ids 3..258)", async () => {
      const fx = await buildFixture(model, "cjk", N);
      expect(fx.ids.some((i) => i >= 3 && i <= 258)).toBe(true);
    });
  });
}

// The tool-call generations must hold calls that parse (a fixture whose call fails to parse
// would benchmark the error path instead of the parse): every action ends with a call.
describe("tool-call generations parse", () => {
  const models = haveFixtures() ? (["qwen3", "internlm2", "chatglm3"] as const) : (["qwen3"] as const);
  for (const model of models) {
    it(`${model}: every action_end carries a call, and the stream ends with eos`, async () => {
      const { loadTokenizer } = await import("@chatwire/tokenizer/node");
      const { compileDecoderSpecFor, createDecoder, eventCollector } = await import(
        "@chatwire/stream-decoder"
      );
      const tok =
        model === "qwen3"
          ? await loadTokenizer("qwen3")
          : await loadTokenizer(spmModelPath(model).replace(/\/tokenizer\.model$/, ""), { format: model });
      for (const kind of ["tools", "mixed"] as const) {
        const fx = await buildFixture(model, kind, N);
        const sink = eventCollector();
        const d = createDecoder(compileDecoderSpecFor(tok), sink);
        d.pushMany(fx.ids);
        d.end();
        const ends = sink.events.filter((e) => e.type === "action_end");
        if (kind === "tools") expect(ends.length).toBeGreaterThan(0);
        for (const e of ends) expect(e).toHaveProperty("call");
        expect(sink.events.filter((e) => e.type === "error")).toEqual([]);
        expect(sink.events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
      }
    });
  }
});
