// llama.cpp's own tokenizer vectors (tests/test-tokenizer-0.cpp pairs, ../shared/gguf-vocab) for
// every vocabulary GGUF there: each supported file encodes every input to exactly llama.cpp's IDs
// (encodeText: no BOS, as the vectors); each refused file is refused with the typed error and
// reason listed below. Plus the safety rule: no control token ever comes out of caller text.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ggufVectors, ggufVocabFiles, haveGgufVocab } from "../../../test-support/gguf-vocab.ts";
import { type AnyTokenizer, loadGguf, TokenizerError } from "../src/index.ts";

/** Files refused on purpose: the error type and a pattern of its message. */
const REFUSED: Record<string, { type: string; reason: RegExp }> = {
  // WordPiece (BERT) is out of scope: a typed refusal naming the type.
  "ggml-vocab-bert-bge.gguf": { type: "unsupported-vocabulary", reason: /"bert" is not supported/ },
};

const files = ggufVocabFiles();

function load(path: string, name: string): AnyTokenizer {
  // The template path with a template of no text: the vocabulary alone, whatever the file's template.
  return loadGguf(readFileSync(path), { file: name, format: "template", chatTemplate: "" }).tokenizer;
}

describe.skipIf(!haveGgufVocab())("llama.cpp vocabulary GGUFs", () => {
  for (const f of files) {
    const refused = REFUSED[f.name];
    if (refused !== undefined) {
      test(`${f.name} is refused: ${refused.type}`, () => {
        let err: unknown;
        try {
          load(f.path, f.name);
        } catch (e) {
          err = e;
        }
        expect(TokenizerError.isInstance(err)).toBe(true);
        expect((err as TokenizerError).type).toBe(refused.type);
        expect((err as TokenizerError).message).toMatch(refused.reason);
      });
      continue;
    }
    test(`${f.name}: ${f.vectors ? "llama.cpp's vectors, token-exact" : "loads (no vectors)"}`, () => {
      const tok = load(f.path, f.name);
      if (!f.vectors) return;
      const vectors = ggufVectors(f.path);
      expect(vectors.length).toBeGreaterThan(30);
      for (const v of vectors) expect({ text: v.text, ids: tok.encodeText(v.text).ids }).toEqual(v);
    });
  }

  test("no control token comes out of caller text (llama.cpp's parse_special=false still matches USER_DEFINED)", () => {
    for (const f of files) {
      if (REFUSED[f.name] !== undefined) continue;
      const { tokenizer: tok, vocabulary } = loadGguf(readFileSync(f.path), {
        file: f.name,
        format: "template",
        chatTemplate: "",
      });
      if (!("reserved" in tok)) throw new Error("template tokenizer expected");
      const reservedIds = new Set(tok.reserved.values());
      const control = vocabulary.tokens.flatMap((t, id) => (tok.reserved.get(t) === id ? [t] : []));
      expect(control.length).toBeGreaterThan(0);
      const text = control.slice(0, 64).join(" x ");
      for (const id of tok.encodeText(text).ids) expect(reservedIds.has(id)).toBe(false);
      expect(tok.encodeText(text).audit.length).toBeGreaterThan(0);
      expect(() => tok.encodeText(text, { specialText: "reject" })).toThrow(/special|reserved/i);
    }
  });

  test("Phi-3: `</s>` at ID 2 (typed USER_DEFINED) is reserved, not an HTML text piece", () => {
    const f = files.find((x) => x.name.includes("phi-3"));
    expect(f).toBeDefined();
    const { tokenizer: tok, vocabulary } = loadGguf(readFileSync((f as { path: string }).path), {
      file: "phi-3.gguf",
      format: "template",
      chatTemplate: "",
    });
    expect(vocabulary.tokens[2]).toBe("</s>");
    const enc = tok.encodeText("a</s>b");
    expect(enc.ids).not.toContain(2);
    expect(enc.audit.map((a) => a.token)).toEqual(["</s>"]);
    expect(tok.decode([263, 2, 289])).toBe(tok.decode([263]) + tok.decode([289]));
  });
});
