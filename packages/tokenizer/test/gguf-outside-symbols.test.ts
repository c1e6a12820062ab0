// Byte-level vocabularies with symbols outside the vocabulary (a byte without its symbol, merges
// through pieces that are not tokens): a GGUF follows llama.cpp's rule (exactness against
// llama.cpp itself: packages/server/test/gguf-differential.test.ts), the same vocabulary as an HF
// tokenizer.json is still refused, as HF tokenizers refuses it.
import { describe, expect, test } from "vitest";
import { fromFiles, fromGguf, ggufTokenizerFiles, readGgufMetadata, TokenizerError } from "../src/index.ts";
import { type Kv, outsideSymbolsGpt2Kvs, writeGguf } from "./gguf-support.ts";

const bytes = writeGguf(outsideSymbolsGpt2Kvs());

describe("symbols outside a byte-level vocabulary", () => {
  test("a GGUF: llama.cpp drops a byte with no symbol and spells a non-token from its ASCII tokens", () => {
    const tok = fromGguf(bytes, { format: "template", chatTemplate: "" });
    // llama.cpp's rule: "\x03" and "x" have no token; "abc" merges to a non-token, spelled a, b, c.
    expect(tok.encodeText("\u0003").ids).toEqual([]);
    expect(tok.encodeText("x").ids).toEqual([]);
    const a = tok.encodeText("a").ids;
    const abc = tok.encodeText("abc").ids;
    expect(abc).toHaveLength(3);
    expect(abc[0]).toBe(a[0]);
    expect(tok.decode(tok.encodeText("x a\u0003bc").ids)).toBe(" abc");
    // No stand-in ID leaks out: every ID is a token below <|endoftext|> (259), the last one.
    for (const id of tok.encodeText("\u0003a q\u0003 abcx dede").ids) expect(id).toBeLessThan(259);
  });

  test("a byte symbol typed as a reserved token is refused, not dropped (chatwire never encodes text to it)", () => {
    const kvs = outsideSymbolsGpt2Kvs().map((kv): Kv => {
      if (kv.key !== "tokenizer.ggml.token_type" || kv.type !== "array" || kv.of !== "i32") return kv;
      return { ...kv, value: kv.value.map((t, i) => (i === 0x61 - 1 ? 4 : t)) };
    });
    const tokens = kvs.find((kv) => kv.key === "tokenizer.ggml.tokens")?.value;
    expect(Array.isArray(tokens) && tokens[0x61 - 1]).toBe("a");
    expect(() => fromGguf(writeGguf(kvs), { format: "template", chatTemplate: "" })).toThrow(
      /lacks the byte-level symbol for byte 0x61/,
    );
  });

  test("the same vocabulary as an HF tokenizer.json is refused", () => {
    const { files } = ggufTokenizerFiles(readGgufMetadata(bytes), "outside.gguf");
    const derived = files["tokenizer.json"];
    const text = typeof derived === "string" ? derived : new TextDecoder().decode(derived);
    const json = text.replace('"chatwire_llama_cpp_symbols":true,', "");
    expect(json).not.toContain("chatwire_llama_cpp_symbols");
    let err: unknown;
    try {
      fromFiles({ ...files, "tokenizer.json": json }, { format: "template", chatTemplate: "" });
    } catch (e) {
      err = e;
    }
    expect(TokenizerError.isInstance(err)).toBe(true);
    expect((err as TokenizerError).message).toMatch(/lacks the byte-level symbol for byte 0x3\b/);
  });
});
