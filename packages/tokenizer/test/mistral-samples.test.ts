// mistral-common's own samples (tests/data/samples/*: a request, the token IDs and the piece
// text its InstructTokenizerV1/V2/V3 produce), through the native mistral family loaded from
// the vendor's SentencePiece files under the names Mistral's repositories use (detected from the
// file name alone, no tokenizer_config.json). Failures show the ID diff and the text diff.
import { describe, expect, it } from "vitest";
import { haveMistralSuite, mistralSamples, mistralSpm } from "../../../test-support/mistral-suite.ts";
import { type ChatRequest, fromFiles } from "../src/index.ts";

const suite = haveMistralSuite();

function pieces(tok: ReturnType<typeof fromFiles>, ids: readonly number[]): string {
  return ids.map((id) => tok.textModel.idToPiece(id) ?? `<${id}>`).join("");
}

describe.skipIf(!suite)("mistral-common samples", () => {
  const versions = [1, 2, 3] as const;
  const toks = new Map(
    versions.map((v) => [v, fromFiles({ [`tokenizer.model.v${v}`]: mistralSpm(v) })] as const),
  );
  it("detects each version from the file name", () => {
    for (const v of versions) expect(toks.get(v)?.format).toBe(`mistral-v${v}`);
  });
  for (const sample of suite ? mistralSamples() : []) {
    for (const [v, want] of sample.expected) {
      it(`${sample.name} v${v}`, () => {
        const tok = toks.get(v as 1 | 2 | 3);
        if (tok === undefined) throw new Error(`no tokenizer v${v}`);
        const request = { ...(sample.request as ChatRequest), add_generation_prompt: false };
        const got = tok.encodeChat(request).ids;
        // The samples' text files write the pieces' "▁" as "▁" or as " " (both occur).
        expect(pieces(tok, got).replaceAll("▁", " ")).toBe(want.text.replaceAll("▁", " "));
        expect(got).toEqual(want.tokens);
      });
    }
  }
});
