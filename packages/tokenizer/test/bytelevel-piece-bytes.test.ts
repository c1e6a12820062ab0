// A byte-level vocabulary read back from a table file as its pieces' bytes (src/models/bytelevel/
// piece-bytes.ts, model-tables.ts): every piece, token bytes, lookup, encode, decode and decode-table
// entry equals the load from the tokenizer.json it was written from; decode texts are made per ID
// when read; a file of the earlier layout (piece strings) is not used; damaged bytes read
// unverified are refused or read without a throw.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/errors.ts";
import {
  BYTE_TO_CHAR,
  type ByteLevelModel,
  byteLevelTokenBytes,
  loadByteLevelModel,
  readByteLevelTables,
} from "../src/models/bytelevel/index.ts";
import { PieceBytes, pieceBytesArraysOf } from "../src/models/bytelevel/piece-bytes.ts";
import { exportModelTables, type ModelTables } from "../src/models/tables/model-tables.ts";
import { readTableFile, type TableArray, writeTableFile } from "../src/models/tables/table-file.ts";
import { TokenKind } from "../src/models/text-model.ts";
import { byteSymbolVocab } from "./bytelevel-support.ts";
import { damagedCopies, decodeTableDigest } from "./table-cache-support.ts";

const ALPHABET = BYTE_TO_CHAR.join("");

/**
 * A small byte-level tokenizer.json: the 256 byte symbols, merges to "ab", "abc" and "Ġab", a
 * piece outside the alphabet (as DeepSeek's `<｜…｜>` vocabulary pieces), an id without a piece,
 * a piece of one byte that is not UTF-8 on its own, and two added tokens.
 */
function small(): Record<string, unknown> {
  const vocab = byteSymbolVocab();
  vocab.ab = 256;
  vocab.abc = 257;
  vocab["Ġab"] = 258;
  // 259: no piece.
  vocab["<｜sep｜>"] = 260;
  vocab["Ã©"] = 261; // "é" as its two UTF-8 bytes
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [
      { id: 262, content: "<|end|>", special: true },
      { id: 260, content: "<｜sep｜>", special: true },
    ],
    normalizer: null,
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: "ByteLevel" },
    model: {
      type: "BPE",
      dropout: null,
      vocab,
      merges: ["a b", "ab c", "Ġ ab", "Ã ©"],
    },
  };
}

const BLOCKED = new Set([262]);
const TEXTS = ["abc ab a", "é café <|end|> <｜sep｜>", "\u00ff\u0100 🎉 x\ny", ""];
const SOURCE = "s".repeat(64);

function fromJson(): ByteLevelModel {
  return loadByteLevelModel(small(), { file: "small.json", blocked: BLOCKED });
}

function fromTables(
  bytes: Uint8Array,
  verified: boolean,
): { model: ByteLevelModel; used: boolean | undefined } {
  let used: boolean | undefined;
  const tables: ModelTables = { source: SOURCE, bytes, verified, report: (ok) => (used = ok) };
  const stored = readByteLevelTables(tables);
  if (stored === undefined) return { model: fromJson(), used: false };
  const model = loadByteLevelModel(stored.rest, { file: "small.json", blocked: BLOCKED, stored, tables });
  return { model, used };
}

/** Everything a caller sees of the model on TEXTS and every id. */
function observe(m: ByteLevelModel): unknown {
  const ids = TEXTS.map((t) => m.encode(t));
  const perId = Array.from({ length: m.vocabSize + 2 }, (_, id) => [
    m.idToPiece(id),
    Array.from(m.tokenBytes(id)),
    m.tokenByteLength?.(id),
  ]);
  const lookups = [...perId.map(([p]) => p), "zz", "<|end|>"].map((p) =>
    typeof p === "string" ? m.pieceToId(p) : undefined,
  );
  return { ids, decoded: ids.map((x) => m.decode(x)), perId, lookups };
}

describe("piece bytes", () => {
  const piece = fc.oneof(
    fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 6 }),
    fc.string({ unit: "binary", maxLength: 4 }),
  );
  const pieces = fc
    .tuple(fc.array(fc.option(piece, { nil: undefined, freq: 5 }), { maxLength: 60 }), piece)
    .map(([list, last]) => [...list, last]);

  it("read back, give every piece, its token bytes and byte count", () => {
    fc.assert(
      fc.property(pieces, (list) => {
        for (const verified of [true, false]) {
          const p = PieceBytes.of(pieceBytesArraysOf(list), verified) as PieceBytes;
          expect(p).toBeDefined();
          expect(p.count).toBe(list.length);
          list.forEach((s, id) => {
            expect(p.at(id)).toBe(s);
            expect(p.has(id)).toBe(s !== undefined);
            const want = s === undefined ? undefined : Array.from(byteLevelTokenBytes(s));
            expect(p.bytes(id) === undefined ? undefined : Array.from(p.bytes(id) as Uint8Array)).toEqual(
              want,
            );
            expect(p.byteLength(id)).toBe(want?.length ?? 0);
          });
          for (const id of [-1, list.length, 0.5, Number.NaN]) {
            expect(p.at(id)).toBeUndefined();
            expect(p.bytes(id)).toBeUndefined();
            expect(p.byteLength(id)).toBe(0);
          }
          expect(p.all()).toEqual(list);
          expect(PieceBytes.of(p.arrays(), verified)?.all()).toEqual(list);
        }
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });

  it("damaged arrays read unverified are refused, or read without a throw and inside the bytes", () => {
    fc.assert(
      fc.property(
        pieces,
        fc.constantFrom("offsets", "bytes", "otherIds") as fc.Arbitrary<"offsets" | "bytes" | "otherIds">,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (list, part, hits) => {
          const arrays = pieceBytesArraysOf(list);
          const damaged = { ...arrays, [part]: arrays[part].slice() };
          const a = damaged[part];
          if (a.length === 0) return;
          for (const [at, v] of hits) a[at % a.length] = v;
          const p = PieceBytes.of(damaged, false);
          if (p === undefined) return;
          for (let id = -1; id <= p.count; id++) {
            p.at(id);
            const b = p.bytes(id);
            if (b !== undefined) expect(b.length).toBeLessThanOrEqual(damaged.bytes.length);
          }
        },
      ),
      { numRuns: 300, seed: 20261207 },
    );
  });
});

describe("a byte-level model read back from its table file", () => {
  const ref = fromJson();
  const refObserved = observe(ref);
  const refTable = decodeTableDigest(ref.decodeTable);
  const file = exportModelTables(ref, SOURCE) as Uint8Array;

  it("is the model of the tokenizer.json, verified or not", () => {
    expect(file).toBeDefined();
    for (const verified of [true, false]) {
      const { model, used } = fromTables(file, verified);
      expect(used).toBe(true);
      expect(observe(model)).toEqual(refObserved);
      expect(decodeTableDigest(model.decodeTable)).toEqual(refTable);
    }
    // The cases the file covers: a Bytes id, a piece outside the alphabet, an id without a piece.
    expect(ref.decodeTable.kind[0xc3]).toBe(TokenKind.Bytes);
    expect(ref.idToPiece(260)).toBe("<｜sep｜>");
    expect(ref.idToPiece(259)).toBeUndefined();
  });

  it("makes an ID's decode text when it is read, not before", () => {
    const { model } = fromTables(file, true);
    const lazy = model.decodeTable.lazyText;
    expect(lazy).toBeDefined();
    const filled = (): number[] => (lazy?.text ?? []).flatMap((s, id) => (s === undefined ? [] : [id]));
    expect(filled()).toEqual([]);
    lazy?.fill(258);
    lazy?.fill(0xc3);
    expect(filled()).toEqual([0xc3, 258]);
    expect(lazy?.text[258]).toBe(" ab");
    expect(lazy?.text[0xc3]).toBe("");
    // Reading the whole array makes every one.
    expect(model.decodeTable.text).toHaveLength(model.vocabSize);
    expect(filled()).toHaveLength(model.vocabSize);
  });

  it("a file of the earlier layout (piece strings, no piece bytes) is not used", () => {
    const read = readTableFile(file);
    expect(read).toBeDefined();
    const meta = read?.meta ?? {};
    const arrays: { [name: string]: TableArray } = {};
    for (const name of ["vocabSlots", "dec.bytesIds", "mergeTable.slots", "mergeTable.small"]) {
      const a = read?.array(name, "i32");
      if (a !== undefined) arrays[name] = a;
    }
    const kind = read?.array("dec.kind", "u8");
    if (kind !== undefined) arrays["dec.kind"] = kind;
    const old = writeTableFile({
      meta,
      arrays,
      strings: { pieces: ref.decodeTable.text.map((_, id) => ref.idToPiece(id)) },
    });
    expect(readByteLevelTables({ source: SOURCE, bytes: old, verified: true })).toBeUndefined();
  });

  it("random damage to the file read unverified never makes an encode or a decode throw (a load: a typed error at most)", () => {
    fc.assert(
      fc.property(damagedCopies(file, true), (damaged) => {
        let model: ByteLevelModel;
        try {
          model = fromTables(damaged, false).model;
        } catch (e) {
          // The file's rest is the tokenizer.json's: damage there is the file's own error.
          expect(TokenizerError.isInstance(e)).toBe(true);
          return;
        }
        for (const t of TEXTS) model.decode(model.encode(t));
        const table = model.decodeTable;
        for (let id = 0; id < table.size; id++) table.lazyText?.fill(id);
      }),
      { numRuns: 200, seed: 20261208 },
    );
  });
});
