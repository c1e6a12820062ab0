// TextModel.tokenByteLength (the chat builder's per-ID span offsets, computed lazily per emitted
// ID so the first encodeChat does not build the decode table) must equal what the decode table
// implies for EVERY ID: Text = UTF-8 length of its text, Bytes = its byte count, Control = 0.
// The decode table is the independent side here: it is built from decoded strings/bytes
// (TextDecoder / DecodeData), tokenByteLength from the piece string by counting.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { loadSentencePieceModel } from "../src/models/sentencepiece/index.ts";
import { type TextModel, TokenKind } from "../src/models/text-model.ts";
import { loadTokenizer } from "../src/node.ts";

const VECTORS = resolve(import.meta.dirname, "../../../test-vectors");
const enc = new TextEncoder();

function mismatches(model: TextModel): number[] {
  const of = model.tokenByteLength?.bind(model);
  expect(of).toBeDefined();
  const t = model.decodeTable;
  const bad: number[] = [];
  for (let id = 0; id < t.size; id++) {
    const k = t.kind[id];
    const want =
      k === TokenKind.Text
        ? enc.encode(t.text[id] ?? "").length
        : k === TokenKind.Bytes
          ? (t.bytes[id]?.length ?? 0)
          : 0;
    if ((of as (id: number) => number)(id) !== want) bad.push(id);
  }
  return bad;
}

describe("tokenByteLength equals the decode table, every ID", () => {
  for (const name of ["tiny-ilm", "tiny-glm"]) {
    it(name, () => {
      const file = resolve(VECTORS, `models/${name}.model`);
      const reserved = JSON.parse(readFileSync(resolve(VECTORS, `golden/${name}.text.json`), "utf8"))
        .reserved_ids as number[];
      for (const blocked of [new Set<number>(), new Set(reserved)]) {
        const m = loadSentencePieceModel(readFileSync(file), { file, blocked });
        expect(mismatches(m)).toEqual([]);
      }
    });
  }
  it("qwen3 (embedded, reserved IDs blocked)", async () => {
    const tok = await loadTokenizer("qwen3");
    expect(mismatches(tok.textModel)).toEqual([]);
  });
  for (const m of ["internlm2", "chatglm3"] as const) {
    it.skipIf(!haveFixtures())(m, async () => {
      const tok = await loadTokenizer(fixturePath(m), { format: m });
      expect(mismatches(tok.textModel)).toEqual([]);
    });
  }
});
