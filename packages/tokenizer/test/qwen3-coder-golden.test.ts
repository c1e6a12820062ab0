// Qwen3-Coder against its goldens (test-vectors/golden/families/qwen3-coder.request.json: the
// template in Python jinja2 as transformers renders it, HF's Rust tokenizers): the files are
// detected as qwen3-coder (and the same tokenizer with Qwen3's own template stays qwen3), every
// request encodes to the reference IDs and renders to the reference text, and the requests the
// template refuses are invalid-conversation. A failure prints the ID diff and the text diff.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { idDiff } from "../../../test-support/id-diff.ts";
import { fromFiles } from "../src/index.ts";
import { coderFiles, coderTokenizer, repoRoot } from "./qwen3-coder-support.ts";

interface Vector {
  readonly name: string;
  readonly request: unknown;
  readonly rendered?: string;
  readonly ids?: readonly number[];
  readonly error?: string;
}
const golden = JSON.parse(
  readFileSync(join(repoRoot, "test-vectors/golden/families/qwen3-coder.request.json"), "utf8"),
) as { readonly vectors: readonly Vector[]; readonly errors: readonly Vector[] };

describe("qwen3-coder: detection", () => {
  it("the Qwen3 files with the Qwen3-Coder template are qwen3-coder; with Qwen3's template, qwen3", () => {
    const tok = coderTokenizer();
    expect(tok.format).toBe("qwen3-coder");
    expect(tok.family.name).toBe("qwen3-coder");
    expect(tok.tokenIds).toMatchObject({
      imStart: 151644,
      imEnd: 151645,
      toolCall: 151657,
      toolCallEnd: 151658,
    });
    expect(tok.registry.eosIds).toEqual(expect.arrayContaining([151645, 151643]));
    const files = coderFiles();
    const plain = JSON.parse(files["tokenizer_config.json"]) as Record<string, unknown>;
    delete plain.chat_template;
    expect(fromFiles({ ...files, "tokenizer_config.json": JSON.stringify(plain) }).format).toBe("qwen3");
  });
});

describe("qwen3-coder: the reference goldens", () => {
  it("holds the cases the issue names", () => {
    expect(golden.vectors.length).toBeGreaterThanOrEqual(20);
    expect(golden.errors.length).toBe(2);
  });
  for (const v of [...golden.vectors, ...golden.errors]) {
    it(v.name, () => {
      const tok = coderTokenizer();
      if (v.error !== undefined) {
        expect(() => tok.encodeChat(v.request as never)).toThrow(
          expect.objectContaining({ type: "invalid-conversation" }),
        );
        return;
      }
      const { ids } = tok.encodeChat(v.request as never);
      const want = v.ids ?? [];
      if (ids.join(",") !== want.join(","))
        throw new Error(
          idDiff(
            want,
            ids,
            (id) => tok.decode([id], { specialTokens: "show" }),
            (x) => tok.decode(x, { specialTokens: "show" }),
          ),
        );
      expect(tok.renderChat(v.request as never)).toBe(v.rendered);
    });
  }
});
