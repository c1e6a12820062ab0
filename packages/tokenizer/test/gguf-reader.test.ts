// The GGUF metadata reader on valid and hostile files: every malformed file is a TokenizerError
// ("bad-gguf-file", or "unsupported-vocabulary" / another typed error once the metadata reads),
// never a crash, and never an allocation sized by a count or length the bytes cannot hold.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fromGguf, readGgufMetadata, TokenizerError } from "../src/index.ts";
import { type Kv, tinyGpt2Kvs, writeGguf } from "./gguf-support.ts";

function u64le(v: bigint): number[] {
  return Array.from({ length: 8 }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));
}
function u32le(v: number): number[] {
  return Array.from({ length: 4 }, (_, i) => (v >>> (8 * i)) & 0xff);
}
const MAGIC = [0x47, 0x47, 0x55, 0x46];
function header(kvCount: bigint, version = 3): number[] {
  return [...MAGIC, ...u32le(version), ...u64le(0n), ...u64le(kvCount)];
}
/** A GGUF string of these bytes: its length, then the bytes. */
function raw(...bytes: number[]): number[] {
  return [...u64le(BigInt(bytes.length)), ...bytes];
}
function key(s: string): number[] {
  return raw(...new TextEncoder().encode(s));
}
/** A file of one key whose value is an array (type 9) of `count` items of type `item`, then `items`. */
function oneArray(name: string, item: number, count: bigint, items: readonly number[] = []): Uint8Array {
  return Uint8Array.from([
    ...header(1n),
    ...key(name),
    ...u32le(9),
    ...u32le(item),
    ...u64le(count),
    ...items,
  ]);
}

function expectTyped(f: () => unknown, type = "bad-gguf-file"): TokenizerError {
  try {
    f();
  } catch (e) {
    expect(TokenizerError.isInstance(e)).toBe(true);
    expect((e as TokenizerError).type).toBe(type);
    return e as TokenizerError;
  }
  throw new Error("expected a TokenizerError");
}

describe("GGUF reader", () => {
  test("reads typed values and arrays of a v3 file", () => {
    const bytes = writeGguf([
      { key: "a.str", type: "string", value: "héllo ✓" },
      { key: "a.u32", type: "u32", value: 4000000000 },
      { key: "a.i32", type: "i32", value: -5 },
      { key: "a.f32", type: "f32", value: 1.5 },
      { key: "a.bool", type: "bool", value: true },
      { key: "a.u64", type: "u64", value: 2n ** 60n },
      { key: "a.strs", type: "array", of: "string", value: ["x", "", "日本"] },
      { key: "a.i32s", type: "array", of: "i32", value: [1, -2, 3] },
      { key: "general.alignment", type: "u32", value: 64 },
    ]);
    const m = readGgufMetadata(bytes);
    expect(m.version).toBe(3);
    expect(m.alignment).toBe(64);
    expect(m.metadataEnd).toBe(bytes.length);
    expect(m.kv.get("a.str")).toEqual({ type: "string", value: "héllo ✓" });
    expect(m.kv.get("a.u32")).toEqual({ type: "u32", value: 4000000000 });
    expect(m.kv.get("a.i32")).toEqual({ type: "i32", value: -5 });
    expect(m.kv.get("a.f32")).toEqual({ type: "f32", value: 1.5 });
    expect(m.kv.get("a.bool")).toEqual({ type: "bool", value: true });
    expect(m.kv.get("a.u64")).toEqual({ type: "u64", value: 2n ** 60n });
    const strs = m.kv.get("a.strs");
    expect(strs?.type === "array" && [...strs.array.items]).toEqual(["x", "", "日本"]);
    const ints = m.kv.get("a.i32s");
    expect(ints?.type === "array" && [...(ints.array.items as Int32Array)]).toEqual([1, -2, 3]);
    expect(readGgufMetadata(writeGguf([], 2)).version).toBe(2);
  });

  test("every numeric type, as a scalar and as an array (little-endian bytes written by hand)", () => {
    // [type code, name, item bytes, value] per numeric type (ggml docs/gguf.md's type table).
    const cases: [number, string, number[], number | bigint][] = [
      [0, "u8", [0xfe], 254],
      [1, "i8", [0xfe], -2],
      [2, "u16", [0x34, 0xf2], 0xf234],
      [3, "i16", [0xfe, 0xff], -2],
      [4, "u32", u32le(0xfedcba98), 0xfedcba98],
      [5, "i32", u32le(-7 >>> 0), -7],
      [6, "f32", [0x00, 0x00, 0xc0, 0x3f], 1.5],
      [10, "u64", u64le(2n ** 64n - 2n), 2n ** 64n - 2n],
      [11, "i64", u64le(2n ** 64n - 3n), -3n],
      [12, "f64", [0, 0, 0, 0, 0, 0, 0x04, 0xc0], -2.5],
    ];
    const kvs: number[] = [];
    for (const [code, name, b] of cases) {
      kvs.push(...key(`s.${name}`), ...u32le(code), ...b);
      kvs.push(...key(`a.${name}`), ...u32le(9), ...u32le(code), ...u64le(3n), ...b, ...b, ...b);
    }
    const m = readGgufMetadata(Uint8Array.from([...header(BigInt(2 * cases.length)), ...kvs]));
    for (const [, name, , value] of cases) {
      expect(m.kv.get(`s.${name}`)).toEqual({ type: name, value });
      const a = m.kv.get(`a.${name}`);
      expect(a?.type === "array" && a.array.type).toBe(name);
      expect(a?.type === "array" && Array.from(a.array.items as ArrayLike<number | bigint>)).toEqual([
        value,
        value,
        value,
      ]);
    }
    // Cut inside the last array's items: typed, truncated.
    const cut = oneArray("k", 12, 2n, [0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(expectTyped(() => readGgufMetadata(cut)).fields.truncated).toBe(true);
  });

  test("string arrays: every UTF-8 length, empty and long strings, a leading U+FEFF; a string cut inside a character", () => {
    const items = [
      "\ufeffbom",
      "",
      "a",
      "é",
      "日本",
      "🦙x",
      "Ġthe",
      "x".repeat(40),
      `${"é".repeat(30)}🦙`,
      "\ufeff",
    ];
    const m = readGgufMetadata(writeGguf([{ key: "s", type: "array", of: "string", value: items }]));
    const v = m.kv.get("s");
    expect(v?.type === "array" && [...v.array.items]).toEqual(items);
    // "é" = C3 A9 split across two strings: the whole is valid UTF-8, each string is not.
    const split = oneArray("s", 8, 3n, [...raw(0x61, 0xc3), ...raw(0xa9, 0x62), ...raw(0x63)]);
    expect(expectTyped(() => readGgufMetadata(split)).message).toMatch(/s\[0\]: not valid UTF-8/);
    const scalar = readGgufMetadata(
      writeGguf([{ key: "t", type: "string", value: `\ufeff${"x".repeat(300)}` }]),
    );
    expect(scalar.kv.get("t")).toEqual({ type: "string", value: `\ufeff${"x".repeat(300)}` });
  });

  test("hostile headers are typed errors", () => {
    expectTyped(() => readGgufMetadata(new Uint8Array([1, 2, 3])));
    expectTyped(() => readGgufMetadata(Uint8Array.from([0x4c, 0x4c, 0x55, 0x46, ...u32le(3)])));
    expect(expectTyped(() => readGgufMetadata(Uint8Array.from(header(0n, 1)))).message).toMatch(/version 1/);
    expect(expectTyped(() => readGgufMetadata(Uint8Array.from(header(0n, 0x03000000)))).message).toMatch(
      /big-endian/,
    );
    // 2^64 - 1 keys in a 24-byte file.
    expectTyped(() => readGgufMetadata(Uint8Array.from(header(2n ** 64n - 1n))));
    // A key whose length is near 2^64.
    expectTyped(() => readGgufMetadata(Uint8Array.from([...header(1n), ...u64le(2n ** 64n - 8n), 0x41])));
    // A string value whose length is 2^63.
    expectTyped(() =>
      readGgufMetadata(Uint8Array.from([...header(1n), ...key("k"), ...u32le(8), ...u64le(2n ** 63n), 0x41])),
    );
    // A billion-entry string array and a 2^60-entry u64 array in a few bytes.
    for (const [item, count] of [
      [8, 1_000_000_000n],
      [10, 2n ** 60n],
      [0, 2n ** 64n - 1n],
    ] as const) {
      const e = expectTyped(() => readGgufMetadata(oneArray("k", item, count, [0, 0])));
      expect(e.fields.truncated).toBe(true);
    }
    // Nested arrays, unknown types, bad bools, duplicate keys, bad UTF-8 keys, bad alignment.
    expectTyped(() => readGgufMetadata(oneArray("k", 9, 1n)));
    expectTyped(() => readGgufMetadata(Uint8Array.from([...header(1n), ...key("k"), ...u32le(13)])));
    expectTyped(() => readGgufMetadata(Uint8Array.from([...header(1n), ...key("k"), ...u32le(7), 2])));
    expectTyped(() =>
      readGgufMetadata(
        Uint8Array.from([...header(2n), ...key("k"), ...u32le(0), 1, ...key("k"), ...u32le(0), 1]),
      ),
    );
    for (const bad of [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80]])
      expectTyped(() =>
        readGgufMetadata(
          Uint8Array.from([...header(1n), ...u64le(BigInt(bad.length)), ...bad, ...u32le(0), 1]),
        ),
      );
    expectTyped(() => readGgufMetadata(writeGguf([{ key: "general.alignment", type: "u32", value: 24 }])));
    expectTyped(() =>
      readGgufMetadata(writeGguf([{ key: "general.alignment", type: "string", value: "32" }])),
    );
  });

  test("every truncation of a valid file is bad-gguf-file with truncated: true", () => {
    const bytes = writeGguf(tinyGpt2Kvs());
    for (let n = 0; n < bytes.length; n += 1) {
      const e = expectTyped(() => readGgufMetadata(bytes.subarray(0, n)));
      if (n >= 4) expect(e.fields.truncated).toBe(true);
    }
  });

  test("fast-check: mutated files never throw anything but a TokenizerError", () => {
    const valid = writeGguf(tinyGpt2Kvs());
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.option(fc.nat(valid.length)),
        (edits, cut) => {
          const b = valid.slice(0, cut ?? valid.length);
          for (const [at, v] of edits) if (at < b.length) b[at] = v;
          try {
            const tok = fromGguf(b, { format: "template" });
            tok.encodeText("hello world <|im_end|>");
          } catch (e) {
            if (!TokenizerError.isInstance(e)) throw e;
          }
        },
      ),
      { seed: 35, numRuns: 300 },
    );
  });

  test("fast-check: length and count fields set to huge values stay bounded", () => {
    const valid = writeGguf(tinyGpt2Kvs());
    fc.assert(
      fc.property(
        fc.nat(valid.length - 8),
        fc.bigInt({ min: 1n << 32n, max: (1n << 64n) - 1n }),
        (at, big) => {
          const b = valid.slice();
          b.set(u64le(big), at);
          try {
            readGgufMetadata(b);
          } catch (e) {
            if (!TokenizerError.isInstance(e)) throw e;
          }
        },
      ),
      { seed: 36, numRuns: 300 },
    );
  });

  test("fast-check: well-formed files with hostile tokenizer values load or fail typed", () => {
    const base = tinyGpt2Kvs();
    const KEYS = [
      "tokenizer.ggml.model",
      "tokenizer.ggml.pre",
      "tokenizer.ggml.tokens",
      "tokenizer.ggml.token_type",
      "tokenizer.ggml.merges",
      "tokenizer.ggml.scores",
      "tokenizer.ggml.eos_token_id",
      "tokenizer.ggml.bos_token_id",
      "tokenizer.ggml.add_bos_token",
      "tokenizer.chat_template",
      "tokenizer.chat_templates",
      "general.alignment",
    ];
    const value = fc.oneof(
      fc.record({
        type: fc.constant("string" as const),
        value: fc.constantFrom("gpt2", "llama", "bert", "", "x"),
      }),
      fc.record({
        type: fc.constantFrom("u32" as const, "i32" as const),
        value: fc.integer({ min: -5, max: 1000 }),
      }),
      fc.record({ type: fc.constant("bool" as const), value: fc.boolean() }),
      fc.record({ type: fc.constant("u64" as const), value: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }) }),
      fc.record({
        type: fc.constant("array" as const),
        of: fc.constant("string" as const),
        value: fc.array(fc.string({ maxLength: 4 }), { maxLength: 300 }),
      }),
      fc.record({
        type: fc.constant("array" as const),
        of: fc.constantFrom("i32" as const, "f32" as const),
        value: fc.array(fc.integer({ min: -3, max: 8 }), { maxLength: 300 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...KEYS), value), { minLength: 1, maxLength: 4 }),
        (edits) => {
          const kvs = new Map<string, Kv>(base.map((kv) => [kv.key, kv]));
          for (const [key, v] of edits) kvs.set(key, { key, ...v } as Kv);
          try {
            const tok = fromGguf(writeGguf([...kvs.values()]), { format: "template" });
            const ids = tok.encodeText("hello world 你好 <|im_end|>").ids;
            tok.decode(ids);
          } catch (e) {
            if (!TokenizerError.isInstance(e)) throw e;
          }
        },
      ),
      { seed: 37, numRuns: 300 },
    );
  });
});
