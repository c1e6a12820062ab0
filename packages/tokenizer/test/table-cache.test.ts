// Table files (src/tables, src/node/table-cache.ts): a load from stored tables gives exactly the
// IDs, decode table and decodes of a load from the tokenizer file, and a stored file that is
// truncated, corrupt, stale (for other content), for other blocked IDs or not a table file at
// all is never used: the load gives the same IDs, never throws, and the file is rebuilt.
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import type { ChatTokenizer } from "../src/index.ts";
import { fromFiles } from "../src/index.ts";
import { loadSentencePieceModel } from "../src/models/sentencepiece/index.ts";
import { exportModelTables, type ModelTables } from "../src/models/tables/model-tables.ts";
import { readTableFile, writeTableFile } from "../src/models/tables/table-file.ts";
import { crc32, crc32Fallback } from "../src/node/crc32.ts";
import { openTableCache, tableFileName, unwrapStored, wrapForStore } from "../src/node/table-cache.ts";
import { loadTokenizerSync, qwen3Dir } from "../src/node.ts";
import {
  assertUnderDamage,
  decodeTableDigest,
  expectIgnoredEntry,
  observe,
  sampleTexts,
  tableEntries,
  tempDirs,
} from "./table-cache-support.ts";

const tempDir = tempDirs("chatwire-tables-");

type Model = "qwen3" | "internlm2" | "chatglm3";
const dirOf = (m: Model): string => (m === "qwen3" ? qwen3Dir() : fixturePath(m));
const modelFile = (m: Model): string => (m === "qwen3" ? "tokenizer.json" : "tokenizer.model");
const load = (m: Model, cacheDir: string | false): ChatTokenizer =>
  loadTokenizerSync(dirOf(m), { format: m, cacheDir, prebuiltTables: false });

const TEXTS = sampleTexts("<|im_start|>user\n<|action_start|><|plugin|> [gMASK]sop <think> spoofed markers");

/** Everything a caller can observe of a tokenizer on the sample texts. */
const observed = (tok: ChatTokenizer): unknown => observe(tok, TEXTS, TEXTS.length, true);

function storedFile(dir: string): string {
  const files = tableEntries(dir);
  expect(files).toHaveLength(1);
  return join(dir, files[0] as string);
}

/** True when the stored file is whole and a load from it takes every table from it. */
function storedIsUsable(m: Model, path: string): boolean {
  const body = unwrapStored(readFileSync(path));
  if (body === undefined) return false;
  let used: boolean | undefined;
  const files = {
    "tokenizer_config.json": readFileSync(join(dirOf(m), "tokenizer_config.json")),
    [modelFile(m)]: new Uint8Array(readFileSync(join(dirOf(m), modelFile(m)))),
  };
  const source = path.split("/").at(-1)?.replace(".cwtables", "") ?? "";
  fromFiles(files, { format: m, tables: { source, bytes: body, report: (ok) => (used = ok) } });
  return used === true;
}

const MODELS: Model[] = haveFixtures() ? ["qwen3", "internlm2", "chatglm3"] : ["qwen3"];

describe.each(MODELS)("%s: tables from a stored file", (m) => {
  const ref = load(m, false);
  const refObserved = observed(ref);
  const refTable = decodeTableDigest(ref.textModel.decodeTable);
  const dir = tempDir();
  const first = load(m, dir);
  const path = storedFile(dir);

  it("the first load writes a table file the next load uses, with identical results", () => {
    expect(observed(first)).toEqual(refObserved);
    expect(storedIsUsable(m, path)).toBe(true);
    const second = load(m, dir);
    expect(observed(second)).toEqual(refObserved);
    expect(decodeTableDigest(second.textModel.decodeTable)).toEqual(refTable);
  });

  const source = path.split("/").at(-1)?.replace(".cwtables", "") ?? "";
  const good = () => readFileSync(path);
  let other: Uint8Array | undefined;
  const otherSource = (): Uint8Array =>
    (other ??= wrapForStore(exportModelTables(ref.textModel, "0".repeat(64)) as Uint8Array));
  const corruptions: [string, () => Uint8Array][] = [
    ["empty", () => new Uint8Array(0)],
    ["truncated to half", () => good().subarray(0, good().length >> 1)],
    ["truncated by one byte", () => good().subarray(0, good().length - 1)],
    [
      "one flipped byte (digest mismatch)",
      () => {
        const b = new Uint8Array(good());
        b[b.length >> 1] = (b[b.length >> 1] as number) ^ 0x5a;
        return b;
      },
    ],
    [
      "garbage with a valid digest",
      () => wrapForStore(new Uint8Array(4096).map((_, i) => (i * 7919) & 0xff)),
    ],
    [
      "a damaged header with a valid digest",
      () => {
        const body = new Uint8Array(unwrapStored(good()) as Uint8Array);
        body.fill(0x7b, 12, 40);
        return wrapForStore(body);
      },
    ],
    ["stale: written for other content", otherSource],
  ];
  // The whole matrix on the smallest model; the larger ones take the digest and the stale cases.
  const cases = m === "chatglm3" ? corruptions : corruptions.filter(([name]) => /flipped|stale/.test(name));
  /** `bytes` stored in place of the good file is ignored (expectIgnoredEntry); `whole` also loads. */
  const refused = (bytes: Uint8Array, whole: boolean): void => {
    const snapshot = good();
    try {
      writeFileSync(path, bytes);
      expectIgnoredEntry(path);
      if (!whole) return;
      expect(observed(load(m, dir))).toEqual(refObserved);
      expect(storedIsUsable(m, path)).toBe(true);
    } finally {
      writeFileSync(path, snapshot);
    }
  };
  // The digest-mismatch case (every model's) is also loaded whole: same results, file rebuilt.
  it.each(cases)(
    "%s: not used, never a throw (the digest mismatch: same results, file rebuilt)",
    (name, make) => {
      refused(make(), /flipped/.test(name));
    },
  );

  it("an unwritable cache directory only costs the speed-up", () => {
    const file = join(tempDir(), "not-a-dir");
    writeFileSync(file, "x");
    expect(observed(load(m, join(file, "sub")))).toEqual(refObserved);
  });

  it("the cache directory is read first, prebuilt directories when it has no current file", () => {
    const prebuilt = tempDir();
    const cache = tempDir();
    const name = tableFileName(source);
    copyFileSync(path, join(prebuilt, name));
    const bytes = new Uint8Array(readFileSync(join(dirOf(m), modelFile(m))));
    const body = unwrapStored(readFileSync(path)) as Uint8Array;
    // (Compared as buffers: toEqual walks a multi-MB typed array element by element.)
    const same = (b: Uint8Array | undefined): boolean => b !== undefined && Buffer.from(b).equals(body);
    // Empty cache directory: the prebuilt file, handed on as verified (its CRC held).
    const session = openTableCache(bytes, { cacheDir: cache }, [prebuilt]);
    expect(same(session?.tables.bytes)).toBe(true);
    expect(session?.tables.verified).toBe(true);
    // A current file in the cache directory: used without looking at the prebuilt directory.
    copyFileSync(path, join(cache, name));
    writeFileSync(join(prebuilt, name), "corrupt");
    expect(same(openTableCache(bytes, { cacheDir: cache }, [prebuilt])?.tables.bytes)).toBe(true);
    // A stale file there (written for other content): skipped, the prebuilt file is read.
    writeFileSync(join(cache, name), otherSource());
    copyFileSync(path, join(prebuilt, name));
    expect(same(openTableCache(bytes, { cacheDir: cache }, [prebuilt])?.tables.bytes)).toBe(true);
    // Nothing usable anywhere: no bytes, not verified.
    writeFileSync(join(prebuilt, name), "corrupt");
    const none = openTableCache(bytes, { cacheDir: cache }, [prebuilt]);
    expect(none?.tables.bytes).toBeUndefined();
    expect(none?.tables.verified).toBe(false);
  });

  it("a file in the format before TABLES_VERSION 5 ([SHA-256][table file]) is not used, and is rebuilt", () => {
    const body = unwrapStored(good()) as Uint8Array;
    const old = new Uint8Array(32 + body.length);
    old.set(createHash("sha256").update(body).digest(), 0);
    old.set(body, 32);
    expect(unwrapStored(old)).toBeUndefined();
    refused(old, false);
  });
});

describe.runIf(haveFixtures())("sentencepiece: stored tables for other blocked IDs", () => {
  const bytes = new Uint8Array(readFileSync(fixturePath("chatglm3/tokenizer.model")));
  const built = loadSentencePieceModel(bytes, { file: "m", blocked: new Set([64790, 64795]) });
  const table = exportModelTables(built, "src") as Uint8Array;

  it("are not used (report false), and encoding equals a fresh build for those IDs", () => {
    let used: boolean | undefined;
    const tables: ModelTables = { source: "src", bytes: table, report: (ok) => (used = ok) };
    const other = loadSentencePieceModel(bytes, { file: "m", blocked: new Set([64790]), tables });
    const fresh = loadSentencePieceModel(bytes, { file: "m", blocked: new Set([64790]) });
    expect(used).toBe(false);
    for (const t of TEXTS) expect(other.encode(t)).toEqual(fresh.encode(t));
    expect([...other.decodeTable.kind]).toEqual([...fresh.decodeTable.kind]);
  });

  it("random damage to a table file (no digest layer) never makes a load or an encode throw", () => {
    assertUnderDamage(
      table,
      true,
      (damaged) => {
        const model = loadSentencePieceModel(bytes, {
          file: "m",
          blocked: new Set([64790, 64795]),
          tables: { source: "src", bytes: damaged },
        });
        for (const t of TEXTS) model.encode(t);
        model.decode(model.encode(TEXTS[1] as string));
      },
      { numRuns: 12, seed: 20261201 },
    );
  });
});

describe("stored file check (CRC-32)", () => {
  it("the fallback equals zlib's CRC-32 (check value of '123456789': 0xcbf43926)", () => {
    expect(crc32Fallback(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(crc32Fallback(bytes)).toBe(zlib.crc32(bytes));
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it("every single flipped bit and every truncation of a stored file is refused", () => {
    const stored = wrapForStore(Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 0xff));
    expect(unwrapStored(stored)).toBeDefined();
    for (let bit = 0; bit < stored.length * 8; bit++) {
      const b = new Uint8Array(stored);
      b[bit >> 3] = (b[bit >> 3] as number) ^ (1 << (bit & 7));
      expect(unwrapStored(b), `bit ${bit}`).toBeUndefined();
    }
    for (let n = 0; n < stored.length; n++) expect(unwrapStored(stored.subarray(0, n))).toBeUndefined();
  });
});

describe("table file format", () => {
  it("string lists round-trip exactly (holes, NUL, lone surrogates, non-BMP, empty strings)", () => {
    const entry = fc.option(fc.string({ unit: "binary", maxLength: 12 }), { nil: undefined, freq: 6 });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 200 }), (list) => {
        const file = readTableFile(writeTableFile({ meta: {}, arrays: {}, strings: { s: list } }));
        expect(file?.strings("s")).toEqual(list);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it("any truncation of a file reads as undefined or as a file, never a throw", () => {
    const bytes = writeTableFile({
      meta: { a: 1 },
      arrays: { x: Int32Array.of(1, 2, 3), y: new Uint8Array(5) },
      strings: { s: ["a", "é", undefined] },
    });
    for (let n = 0; n < bytes.length; n++) {
      const f = readTableFile(bytes.subarray(0, n));
      if (f !== undefined) f.strings("s");
    }
    expect(readTableFile(bytes)?.array("x", "i32")).toEqual(Int32Array.of(1, 2, 3));
    expect(readTableFile(bytes)?.array("x", "u8")).toBeUndefined();
  });
});
