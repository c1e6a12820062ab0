// A SentencePiece model loaded from a table file (pieces as a UTF-8 arena decoded per ID, a
// lazily checked piece index, the pair table as a view of its stored slots, no decode sections:
// texts made per ID) against the golden vectors of Google SentencePiece 0.1.97
// (test-vectors/gen/sentencepiece_vectors.py) and, ID by ID, against the same model built from
// its .model file, with and without `verified` (value checks skipped). Also: a table file of
// another TABLES_VERSION is never used, and unverified bytes with a value out of range are not.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { loadSentencePieceModel, type SentencePieceModel } from "../src/models/sentencepiece/index.ts";
import { exportModelTables, TABLES_VERSION } from "../src/models/tables/model-tables.ts";
import { readTableFile, type TableArray, writeTableFile } from "../src/models/tables/table-file.ts";
import { readGolden, type TextVector, VECTORS } from "./golden-vectors.ts";

const SUITES = [
  { name: "tiny-ilm", path: () => resolve(VECTORS, "models/tiny-ilm.model"), always: true },
  { name: "tiny-glm", path: () => resolve(VECTORS, "models/tiny-glm.model"), always: true },
  { name: "internlm2", path: () => fixturePath("internlm2/tokenizer.model"), always: false },
  { name: "chatglm3", path: () => fixturePath("chatglm3/tokenizer.model"), always: false },
];

/**
 * Loads `bytes` from the table file `built` exported; fails unless every table came from it.
 * `verified`: as the Node cache passes bytes whose CRC it checked (value checks skipped).
 */
function fromTables(
  bytes: Uint8Array,
  built: SentencePieceModel,
  blocked: ReadonlySet<number>,
  verified = false,
) {
  const table = exportModelTables(built, "src") as Uint8Array;
  let used: boolean | undefined;
  const model = loadSentencePieceModel(bytes, {
    file: "m",
    blocked,
    tables: { source: "src", bytes: table, verified, report: (ok) => (used = ok) },
  });
  expect(used).toBe(true);
  return model;
}

for (const suite of SUITES) {
  describe.skipIf(!suite.always && !haveFixtures())(`SentencePiece from a table file: ${suite.name}`, () => {
    const doc = readGolden<{ reserved_ids: number[]; vectors: TextVector[] }>(`${suite.name}.text.json`);
    const bytes = new Uint8Array(readFileSync(suite.path()));
    const blocked = new Set(doc.reserved_ids);
    const refPlain = loadSentencePieceModel(bytes, { file: "m" });
    const refGuarded = loadSentencePieceModel(bytes, { file: "m", blocked });
    const plain = fromTables(bytes, refPlain, new Set());
    const guarded = fromTables(bytes, refGuarded, blocked);
    const plainVerified = fromTables(bytes, refPlain, new Set(), true);
    const guardedVerified = fromTables(bytes, refGuarded, blocked, true);

    it("encode and decode equal sp.encode / sp.decode on every golden vector, plain and blocked", () => {
      expect(doc.vectors.length).toBeGreaterThan(50);
      for (const v of doc.vectors) {
        expect(plain.encode(v.text), v.name).toEqual(v.ids);
        expect(guarded.encode(v.text), `${v.name} (blocked)`).toEqual(v.neutralized_ids);
        expect(plain.decode(v.ids), v.name).toBe(v.decoded);
        expect(plainVerified.encode(v.text), `${v.name} (verified)`).toEqual(v.ids);
        expect(guardedVerified.encode(v.text), `${v.name} (blocked, verified)`).toEqual(v.neutralized_ids);
        expect(guardedVerified.decode(v.neutralized_ids), `${v.name} (verified)`).toBe(
          refGuarded.decode(v.neutralized_ids),
        );
      }
    });

    it("every id: piece, type, score, byte length, pieceToId and decode table as built from the .model", () => {
      const n = refGuarded.vocabSize;
      expect(guarded.vocabSize).toBe(n);
      // One row per id (compared in bulk: an expect per field and id takes ~25 s on 92k ids).
      const rows = (m: SentencePieceModel): unknown[] => {
        const t = m.decodeTable;
        const out: unknown[] = [];
        for (let id = -1; id <= n; id++) {
          const piece = m.idToPiece(id);
          out.push([piece, m.pieceType(id), m.pieceScore(id)]);
          if (id < 0 || id >= n) continue;
          out.push([
            m.tokenByteLength?.(id),
            m.pieceToId(piece as string),
            t.kind[id],
            t.text[id],
            t.textAtStart[id],
            t.bytes[id] === undefined ? null : [...(t.bytes[id] as Uint8Array)],
            t.byteLength?.[id],
          ]);
        }
        return out;
      };
      const want = rows(refGuarded);
      for (const m of [guarded, guardedVerified]) {
        const got = rows(m);
        let at = 0;
        while (at < want.length && JSON.stringify(got[at]) === JSON.stringify(want[at])) at++;
        expect(got[at], `row ${at}`).toEqual(want[at]);
        expect(got.length).toBe(want.length);
      }
      for (const s of ["", "not a piece at all", "\u2581", "\u2581the", "<unk>", "\ud800"])
        expect(guarded.pieceToId(s), s).toBe(refGuarded.pieceToId(s));
      expect(guarded.idToPiece(1.5)).toBeUndefined();
      expect(guarded.proto.pieces).toEqual(refGuarded.proto.pieces);
      expect([...guarded.literalPieces]).toEqual([...refGuarded.literalPieces]);
    });
  });
}

describe("table file version", () => {
  const bytes = new Uint8Array(readFileSync(resolve(VECTORS, "models/tiny-ilm.model")));
  const built = loadSentencePieceModel(bytes, { file: "m" });
  const raw = exportModelTables(built, "src") as Uint8Array;
  const file = readTableFile(raw);
  const header = JSON.parse(
    new TextDecoder().decode(
      raw.subarray(12, 12 + new DataView(raw.buffer, raw.byteOffset).getUint32(8, true)),
    ),
  ) as { sections: [string, string, number, number][] };

  /** The exported file again (every section as stored) with meta.version replaced. */
  function withVersion(version: number): Uint8Array {
    const f = file as NonNullable<typeof file>;
    const arrays: { [name: string]: TableArray } = {};
    for (const [name, type] of header.sections) {
      const a = f.array(name, type as "u8");
      if (a !== undefined) arrays[name] = a;
    }
    return writeTableFile({ meta: { ...f.meta, version }, arrays, strings: {} });
  }

  it.each([TABLES_VERSION - 1, TABLES_VERSION + 1, 2])("a file of version %s is not used (rebuilt)", (v) => {
    let used: boolean | undefined;
    const model = loadSentencePieceModel(bytes, {
      file: "m",
      tables: { source: "src", bytes: withVersion(v), report: (ok) => (used = ok) },
    });
    expect(used).toBe(false);
    expect(model.encode("Hello world")).toEqual(built.encode("Hello world"));
  });

  it("the same sections under this version are used (the test above fails for the version alone)", () => {
    let used: boolean | undefined;
    loadSentencePieceModel(bytes, {
      file: "m",
      tables: { source: "src", bytes: withVersion(TABLES_VERSION), report: (ok) => (used = ok) },
    });
    expect(used).toBe(true);
  });
});

describe("table file values (unverified bytes are checked value by value)", () => {
  const bytes = new Uint8Array(readFileSync(resolve(VECTORS, "models/tiny-ilm.model")));
  const built = loadSentencePieceModel(bytes, { file: "m" });
  const n = built.vocabSize;

  /** A fresh export with one array entry set (the views of readTableFile share its bytes). */
  function damaged(
    name: string,
    type: "i32" | "u8",
    at: (a: TableArray) => number,
    value: number,
  ): Uint8Array {
    const raw = exportModelTables(built, "src") as Uint8Array;
    const a = readTableFile(raw)?.array(name, type as "i32") as TableArray;
    a[at(a)] = value;
    return raw;
  }
  const firstFilled = (): number => {
    const left = readTableFile(exportModelTables(built, "src") as Uint8Array)?.array("enc.pairLeft", "i32");
    return (left as Int32Array).findIndex((v) => v !== -1);
  };
  const cases: [string, () => Uint8Array][] = [
    ["a piece type out of range", () => damaged("types", "u8", () => 5, 9)],
    ["an output id out of range", () => damaged("enc.outId", "i32", () => 7, n + 3)],
    [
      "a BMP key that is neither a piece nor its character",
      () => damaged("enc.bmpKey", "i32", () => 0x41, n),
    ],
    ["a merge result out of range", () => damaged("enc.pairMerged", "i32", firstFilled, -2)],
    [
      "a pair table more than half full",
      () => {
        const raw = exportModelTables(built, "src") as Uint8Array;
        const left = readTableFile(raw)?.array("enc.pairLeft", "i32") as Int32Array;
        left.fill(1, 0, left.length - 1);
        return raw;
      },
    ],
  ];

  it.each(cases)("%s: not used (rebuilt, same IDs); the verified flag is what skips the check", (_, make) => {
    let used: boolean | undefined;
    const model = loadSentencePieceModel(bytes, {
      file: "m",
      tables: { source: "src", bytes: make(), report: (ok) => (used = ok) },
    });
    expect(used).toBe(false);
    expect(model.encode("Hello world, héllo")).toEqual(built.encode("Hello world, héllo"));
    let usedVerified: boolean | undefined;
    loadSentencePieceModel(bytes, {
      file: "m",
      tables: { source: "src", bytes: make(), verified: true, report: (ok) => (usedVerified = ok) },
    });
    expect(usedVerified).toBe(true);
  });

  it("a pair table without an empty slot (a probe would never end) is refused even when verified", () => {
    const raw = exportModelTables(built, "src") as Uint8Array;
    const left = readTableFile(raw)?.array("enc.pairLeft", "i32") as Int32Array;
    left.fill(1);
    let used: boolean | undefined;
    const model = loadSentencePieceModel(bytes, {
      file: "m",
      tables: { source: "src", bytes: raw, verified: true, report: (ok) => (used = ok) },
    });
    expect(used).toBe(false);
    expect(model.encode("Hello world")).toEqual(built.encode("Hello world"));
  });
});

describe("table file string lists", () => {
  /** A one-list file and the offset of its ASCII group's bytes (the `s#ascii` section). */
  function fileWith(list: (string | undefined)[]): { bytes: Uint8Array; at: number } {
    const bytes = writeTableFile({ meta: {}, arrays: {}, strings: { s: list } });
    const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as {
      sections: [string, string, number, number][];
    };
    const section = header.sections.find((x) => x[0] === "s#ascii") as [string, string, number, number];
    return { bytes, at: ((12 + headerLength + 7) & ~7) + section[2] };
  }

  it("a byte >= 0x80 in the ASCII group (valid UTF-8 or not) makes the list unreadable, never other strings", () => {
    for (const [b0, b1] of [
      [0x80, 0x61],
      [0xc3, 0xa9],
      [0xff, 0x61],
    ] as const) {
      const { bytes, at } = fileWith(["ab", "é", undefined, "cd"]);
      expect(readTableFile(bytes)?.strings("s")).toEqual(["ab", "é", undefined, "cd"]);
      bytes[at] = b0;
      bytes[at + 1] = b1;
      expect(readTableFile(bytes)?.strings("s"), `${b0} ${b1}`).toBeUndefined();
    }
  });

  it("an all-ASCII list reads back as one split, and a hole flag in it is refused", () => {
    const { bytes } = fileWith(["x", "", "yz"]);
    expect(readTableFile(bytes)?.strings("s")).toEqual(["x", "", "yz"]);
    const file = readTableFile(bytes);
    const flags = file?.array("s#flags", "u8") as Uint8Array;
    flags[1] = 2;
    expect(file?.strings("s")).toBeUndefined();
  });
});
