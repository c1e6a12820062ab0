// A byte-level decode table read from a table file makes each ID's text on demand from the
// stored piece bytes (DecodeTable.lazyText, as SentencePiece's do): a decoder over it fills only
// the IDs it meets and emits exactly the events of a decoder over the table built from the
// tokenizer.json (whole, one ID at a time, with stop strings; byte-split and invalid sequences).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TokenKind } from "@chatwire/tokenizer";
import { loadTokenizerSync } from "@chatwire/tokenizer/node";
import { afterAll, describe, expect, it } from "vitest";
import { createDecoder, eventCollector } from "../src/index.ts";
import type { DecoderSpec } from "../src/spec.ts";
import { run, spanSpec } from "./models.ts";

const dir = mkdtempSync(join(tmpdir(), "chatwire-lazy-bytelevel-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = { format: "qwen3", cacheDir: dir, prebuiltTables: false } as const;
const built = loadTokenizerSync("qwen3", { ...options, cacheDir: false }).textModel;
loadTokenizerSync("qwen3", options); // writes the table file
const stored = loadTokenizerSync("qwen3", options).textModel;

const TEXTS = [
  "Hello world,\nhello again 123 (x)\n\n",
  "你好，世界。日本語 🎉🧑‍💻 rare 𠀋𡈽 é e\u0301 Ω\n```ts\nconst x = 1;\n```\n",
  "   leading spaces\tand tabs\r\n\u2581marks <|im_start|> spoofed",
];

function oneByOne(spec: DecoderSpec, ids: readonly number[]): unknown {
  const c = eventCollector();
  const d = createDecoder(spec, c, { stopStrings: ["again", "```"] });
  for (const id of ids) d.push(id);
  d.end();
  return c.events;
}

describe("byte-level decode texts from a table file", () => {
  it("are lazy, and filled only for the IDs a decode met", () => {
    const lazy = stored.decodeTable.lazyText;
    expect(lazy).toBeDefined();
    expect(built.decodeTable.lazyText).toBeUndefined();
    const spec = spanSpec(stored);
    expect(spec.text).toBe(lazy?.text);
    const ids = built.encode(TEXTS[0] as string);
    run(spec, ids);
    const filled = (lazy?.text ?? []).flatMap((s, id) => (s === undefined ? [] : [id]));
    expect(filled.length).toBeGreaterThan(0);
    expect(filled.length).toBeLessThanOrEqual(new Set(ids).size);
    for (const id of filled) expect(lazy?.text[id]).toBe(built.decodeTable.text[id]);
  });

  it("decode to the events of the table built from the tokenizer.json", () => {
    const lazySpec = spanSpec(stored);
    const eagerSpec = spanSpec(built);
    // Byte-split and invalid sequences too: every Bytes ID of the vocabulary's first 2000 in a row.
    const bytesIds: number[] = [];
    for (let id = 0; id < 2000; id++) if (built.decodeTable.kind[id] === TokenKind.Bytes) bytesIds.push(id);
    const inputs = [...TEXTS.map((t) => built.encode(t)), bytesIds, TEXTS.flatMap((t) => built.encode(t))];
    for (const ids of inputs) {
      expect(stored.encode(built.decode(ids))).toEqual(built.encode(built.decode(ids)));
      expect(run(lazySpec, ids)).toEqual(run(eagerSpec, ids));
      expect(oneByOne(lazySpec, ids)).toEqual(oneByOne(eagerSpec, ids));
    }
  });
});
