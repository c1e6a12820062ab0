// The "reasoning-open-text" recognizer (Gemma 4's `<|channel>thought\n…\n<channel|>`): the close from
// a reasoning rendering, the open marker and its fixed text from the generation prompt's empty block
// (what it claims: ./output-claims.test.ts). The templates are read from ../shared
// (CHATWIRE_TEMPLATES, CHATWIRE_TEMPLATES_EXTRA); the suite is skipped without them.
import { describe, expect, it } from "vitest";
import { entryPresent, expectBlock, probeEntry } from "./output-claims-support.ts";

const KEY = "models/templates/google-gemma-4-31B-it.jinja";

describe.skipIf(!entryPresent(KEY))("reasoning-open-text recognizer (Gemma 4)", () => {
  it("derives the open marker, its text, the close and the newline rules", () => {
    const { probe } = probeEntry(KEY);
    const out = probe.output;
    expect(out.name).toBe("reasoning <|channel>thought…<channel|>; marker-quoted call");
    expectBlock(out.grammar, "<|channel>", "<channel|>", {
      name: "think",
      emits: "reasoning",
      openText: "thought",
      newlines: { afterOpen: "one", beforeClose: "one" },
    });
    expect(out.grammar.startBlock).toBe("think");
    // The default prompt closes its empty reasoning block: decoding starts in content.
    expect(probe.startInReasoning).toBe(false);
    expect(out.evidence).toContain(
      "reasoning-open-text: the generation prompt ends with an empty reasoning block <|channel>thought\\n<channel|>",
    );
  });
});
