// The "reasoning-prompt-text" recognizer (Apriel 1.6: reasoning opened by the generation prompt's
// `Here are my reasoning steps:\n`, closed by the literal `[BEGIN FINAL RESPONSE]`): the close from a
// reasoning rendering, the start text from the generation prompt (what it claims:
// ./output-claims.test.ts). The templates are read from ../shared (CHATWIRE_TEMPLATES,
// CHATWIRE_TEMPLATES_EXTRA); the suite is skipped without them.
import { describe, expect, it } from "vitest";
import { entryPresent, probeEntry } from "./output-claims-support.ts";

const KEY = "models/templates/Apriel-1.6-15b-Thinker-fixed.jinja";

describe.skipIf(!entryPresent(KEY))("reasoning-prompt-text recognizer (Apriel 1.6)", () => {
  it("derives the close text, its newline rules and the prompt's start text", () => {
    const { probe } = probeEntry(KEY);
    const g = probe.output.grammar;
    expect(g.textMarkers?.["[BEGIN FINAL RESPONSE]"]).toEqual({ move: "block-close", block: "think" });
    expect(g.blocks).toContainEqual({
      name: "think",
      emits: "reasoning",
      newlines: { beforeClose: "one", afterClose: "one" },
    });
    expect(g.startBlock).toBe("think");
    expect(g.startText).toBe("Here are my reasoning steps:\n");
    // The generation prompt ends with the start text: decoding starts in the reasoning.
    expect(probe.startInReasoning).toBe(true);
    expect(probe.output.evidence).toContain(
      'reasoning-prompt-text: the generation prompt writes "Here are my reasoning steps:\\n" where a turn writes its reasoning: the reasoning\'s start',
    );
  });
});
