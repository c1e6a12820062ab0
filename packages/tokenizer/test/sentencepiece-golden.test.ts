// Golden vectors from Google SentencePiece 0.1.97 (test-vectors/gen/sentencepiece_vectors.py):
// plain encode, encode with the reserved ids blocked (reference: those pieces retyped to
// CONTROL), one-shot decode, and a streaming decoder driven only by the DecodeTable.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { loadSentencePieceModel, type SentencePieceModel } from "../src/models/sentencepiece/index.ts";
import { type DecodeTable, TokenKind } from "../src/models/text-model.ts";
import { type DecodeVector, readGolden, type TextVector, VECTORS } from "./golden-vectors.ts";

/** Fails with both the ID diff and the decoded-text diff. */
function expectIds(model: SentencePieceModel, name: string, got: number[], want: number[]): void {
  if (JSON.stringify(got) === JSON.stringify(want)) return;
  let at = 0;
  while (at < got.length && got[at] === want[at]) at++;
  const show = (ids: number[]) =>
    ids.slice(Math.max(0, at - 3), at + 6).map((id) => `${id}:${model.idToPiece(id)}`);
  const text = (ids: number[]) => {
    try {
      return JSON.stringify(model.decode(ids));
    } catch (e) {
      return String(e);
    }
  };
  expect.fail(
    `${name}: ids differ at index ${at}\n  got  ${show(got).join(" ")}\n  want ${show(want).join(" ")}\n` +
      `  got  text ${text(got)}\n  want text ${text(want)}`,
  );
}

function expectText(name: string, ids: number[], got: string, want: string): void {
  if (got === want) return;
  let at = 0;
  while (at < got.length && got[at] === want[at]) at++;
  expect.fail(
    `${name}: decode(${JSON.stringify(ids.slice(0, 12))}${ids.length > 12 ? "…" : ""}) differs at char ${at}\n` +
      `  got  ${JSON.stringify(got.slice(Math.max(0, at - 10), at + 20))}\n  want ${JSON.stringify(want.slice(Math.max(0, at - 10), at + 20))}`,
  );
}

/** A minimal streaming decoder that knows nothing but the table: proves the table suffices. */
function streamDecode(table: DecodeTable, ids: readonly number[]): string {
  let out = "";
  let atStart = table.startEnds !== "never";
  let pending: number[] = [];
  const flush = (): void => {
    // per-byte: each byte that does not start a valid character is one U+FFFD.
    let i = 0;
    while (i < pending.length) {
      const b0 = pending[i]!;
      const need =
        b0 < 0x80 ? 1 : (b0 & 0xe0) === 0xc0 ? 2 : (b0 & 0xf0) === 0xe0 ? 3 : (b0 & 0xf8) === 0xf0 ? 4 : 0;
      const slice = pending.slice(i, i + need);
      const ok =
        need > 0 &&
        slice.length === need &&
        slice.slice(1).every((b) => (b & 0xc0) === 0x80) &&
        (() => {
          try {
            const s = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(slice));
            return s.length > 0;
          } catch {
            return false;
          }
        })();
      if (ok) {
        out += new TextDecoder().decode(Uint8Array.from(slice));
        i += need;
      } else {
        out += "\ufffd";
        i += 1;
      }
    }
    pending = [];
  };
  for (const id of ids) {
    const kind = table.kind[id];
    if (kind === TokenKind.Bytes) {
      pending.push(...table.bytes[id]!);
      if (table.startEnds === "first-non-control" || table.startEnds === "first-piece") atStart = false;
      continue;
    }
    if (pending.length > 0) {
      flush();
      if (table.startEnds === "first-visible") atStart = false;
    }
    if (kind === TokenKind.Control) {
      if (table.startEnds === "first-piece") atStart = false;
      continue;
    }
    const piece = atStart ? table.textAtStart[id]! : table.text[id]!;
    out += piece;
    if (table.startEnds === "first-visible" ? piece.length > 0 : true) atStart = false;
  }
  flush();
  return out;
}

interface Suite {
  name: string;
  modelPath: () => string;
  always: boolean;
}

const SUITES: Suite[] = [
  { name: "tiny-ilm", modelPath: () => resolve(VECTORS, "models/tiny-ilm.model"), always: true },
  { name: "tiny-glm", modelPath: () => resolve(VECTORS, "models/tiny-glm.model"), always: true },
  { name: "internlm2", modelPath: () => fixturePath("internlm2/tokenizer.model"), always: false },
  { name: "chatglm3", modelPath: () => fixturePath("chatglm3/tokenizer.model"), always: false },
];

for (const suite of SUITES) {
  describe.skipIf(!suite.always && !haveFixtures())(`SentencePiece golden vectors: ${suite.name}`, () => {
    const textDoc = readGolden<{ reserved_ids: number[]; vectors: TextVector[] }>(`${suite.name}.text.json`);
    const decodeDoc = readGolden<{ vectors: DecodeVector[] }>(`${suite.name}.decode.json`);
    const bytes = readFileSync(suite.modelPath());
    const plain = loadSentencePieceModel(bytes, { file: suite.modelPath() });
    const blocked = new Set(textDoc.reserved_ids);
    const guarded = loadSentencePieceModel(bytes, { file: suite.modelPath(), blocked });

    it(`plain encode equals sp.encode (${textDoc.vectors.length} vectors)`, () => {
      expect(textDoc.vectors.length).toBeGreaterThan(50);
      for (const v of textDoc.vectors) expectIds(plain, v.name, plain.encode(v.text), v.ids);
    });

    it("encode with reserved ids blocked equals sp.encode on the neutralized model, never a blocked id", () => {
      for (const v of textDoc.vectors) {
        const got = guarded.encode(v.text);
        expectIds(guarded, `${v.name} (blocked)`, got, v.neutralized_ids);
        for (const id of got) if (id > 2) expect(blocked.has(id), `${v.name}: blocked id ${id}`).toBe(false);
      }
    });

    it("decode(ids) equals sp.decode for text vectors", () => {
      for (const v of textDoc.vectors) expectText(v.name, v.ids, plain.decode(v.ids), v.decoded);
    });

    it(`decode equals sp.decode for decode vectors (${decodeDoc.vectors.length})`, () => {
      for (const v of decodeDoc.vectors) expectText(v.name, v.ids, plain.decode(v.ids), v.decoded);
    });

    it("a streaming decoder built only from the DecodeTable reproduces sp.decode", () => {
      const table = plain.decodeTable;
      expect(table.invalidUtf8).toBe("per-byte");
      expect(table.startEnds).toBe(plain.addDummyPrefix ? "first-non-control" : "never");
      for (const v of decodeDoc.vectors)
        expectText(`${v.name} (stream)`, v.ids, streamDecode(table, v.ids), v.decoded);
      for (const v of textDoc.vectors)
        expectText(`${v.name} (stream)`, v.ids, streamDecode(table, v.ids), v.decoded);
    });
  });
}

describe.skipIf(!haveFixtures())("SentencePiece facts from SOURCES.md", () => {
  const ilm = loadSentencePieceModel(readFileSync(fixturePath("internlm2/tokenizer.model")), {
    file: "internlm2/tokenizer.model",
  });
  const glm = loadSentencePieceModel(readFileSync(fixturePath("chatglm3/tokenizer.model")), {
    file: "chatglm3/tokenizer.model",
  });

  it("InternLM2", () => {
    expect(ilm.vocabSize).toBe(92544);
    expect(ilm.addDummyPrefix).toBe(false);
    expect([ilm.unkId, ilm.bosId, ilm.eosId]).toEqual([0, 1, 2]);
    expect(ilm.literalPieces.size).toBe(192);
    expect(ilm.literalPieces.get("[UNUSED_TOKEN_146]")).toBe(92543);
    expect(ilm.encode("Hello world")).toEqual([9843, 2028]);
    expect(ilm.encode("[UNUSED_TOKEN_146]user\nhi[UNUSED_TOKEN_145]\n")).toEqual([
      92543, 1008, 364, 6176, 92542, 364,
    ]);
    expect(ilm.decode([6543])).toBe(" leading");
  });

  it("ChatGLM3", () => {
    expect(glm.vocabSize).toBe(64789);
    expect(glm.addDummyPrefix).toBe(true);
    expect(glm.encode("Hello world")).toEqual([13755, 993]);
    expect(glm.encode("\n")).toEqual([30910, 13]);
    expect(glm.decode([30910])).toBe("");
    expect(glm.decode([30910, 13])).toBe("\n");
  });
});
