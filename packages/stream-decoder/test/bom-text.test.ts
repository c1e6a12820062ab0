// U+FEFF (a byte order mark) inside a generation is a character like any other: the text model's
// one-shot decode keeps it (HF ByteLevel: Rust from_utf8_lossy; SentencePiece: its own UTF-8
// reading), so the streamed text must too, at the start of the stream, after a marker and in the
// middle of text, written as one piece or as byte pieces. TextDecoder drops a leading U+FEFF
// unless told not to; every decoder here must not.

import type { ChatTokenizer } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import {
  compileDecoderSpecFor,
  createDecoder,
  createReferenceDecoder,
  type DecoderEvent,
  eventCollector,
} from "../src/index.ts";
import { tokenizer } from "./models.ts";

const BOM = "\uFEFF";

/** The byte pieces of U+FEFF (EF BB BF) in the model's vocabulary. */
function bomBytes(tok: ChatTokenizer): number[] {
  const m = tok.textModel;
  // SentencePiece byte fallback first: a SentencePiece vocabulary may also hold "ï" as a character.
  const fallback = ["<0xEF>", "<0xBB>", "<0xBF>"].map((p) => m.pieceToId(p));
  if (fallback.every((id) => id !== undefined)) return fallback as number[];
  const byteLevel = ["ï", "»", "¿"].map((p) => m.pieceToId(p));
  if (byteLevel.every((id) => id !== undefined)) return byteLevel as number[];
  throw new Error("no byte pieces for EF BB BF");
}

const text = (events: readonly DecoderEvent[]): string =>
  events
    .filter((e) => e.type === "text")
    .map((e) => (e as { text: string }).text)
    .join("");

function decodeAll(tok: ChatTokenizer, ids: readonly number[]): string[] {
  const spec = compileDecoderSpecFor(tok);
  const out: string[] = [];
  for (const make of [createDecoder, createReferenceDecoder]) {
    for (const burst of [1, 3, 8]) {
      const c = eventCollector();
      const d = make(spec, c);
      for (let i = 0; i < ids.length; i += burst) d.pushMany(ids.slice(i, i + burst));
      d.end();
      out.push(text(c.events));
    }
  }
  return out;
}

const models: ["qwen3" | "internlm2" | "chatglm3", boolean][] = [
  ["qwen3", true],
  ["internlm2", haveFixtures()],
  ["chatglm3", haveFixtures()],
];

describe.each(models)("%s: U+FEFF in a generation is text", (name, available) => {
  it.runIf(available)(
    "as byte pieces and as encoded text, at the start, in the middle and at the end",
    () => {
      const tok = tokenizer(name);
      const m = tok.textModel;
      const bytes = bomBytes(tok);
      // [ids, how many U+FEFF they hold] (SentencePiece encodes "Hi" as "▁Hi": its decode of the
      // ids may hold a space the text did not; the text model's decode is the reference).
      const cases: [number[], number][] = [
        [[...bytes, ...m.encode("Hi")], 1],
        [[...m.encode("a"), ...bytes, ...m.encode("b")], 1],
        [[...m.encode("ok"), ...bytes], 1],
        [[...bytes, ...bytes], 2],
      ];
      for (const [ids, boms] of cases) {
        const want = m.decode(ids);
        expect(want.split(BOM).length - 1, JSON.stringify(want)).toBe(boms);
        for (const got of decodeAll(tok, ids)) expect(got, JSON.stringify(want)).toBe(want);
      }
      const encoded = m.encode(`${BOM}x${BOM}`);
      for (const got of decodeAll(tok, encoded)) expect(got).toBe(m.decode(encoded));
    },
  );
});
