// The "reasoning-prompt-text" recognizer (Apriel 1.6: reasoning opened by the generation prompt's
// `Here are my reasoning steps:\n`, closed by the literal `[BEGIN FINAL RESPONSE]`): the close from
// a reasoning rendering, the start text from the generation prompt, and claimed by no other
// template of ../shared. The templates are read from ../shared (CHATWIRE_TEMPLATES,
// CHATWIRE_TEMPLATES_EXTRA); the suite is skipped without them.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formats, loadFormat, templateDir } from "../../../test-vectors/peer-parse/score.ts";
import { probeTemplate } from "../src/index.ts";
import { derivedNames } from "./output-claims-support.ts";

const entry = formats().templates["models/templates/Apriel-1.6-15b-Thinker-fixed.jinja"];
const present = entry !== undefined && existsSync(join(templateDir(entry.template.dir), entry.template.file));

describe.skipIf(!present)("reasoning-prompt-text recognizer (Apriel 1.6)", () => {
  it("derives the close text, its newline rules and the prompt's start text", () => {
    if (entry === undefined) throw new Error("no Apriel 1.6 entry");
    const probe = probeTemplate(loadFormat(entry).tok);
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

  it("claims the Apriel 1.6 template of ../shared and no other", () => {
    const claimed = [...derivedNames()]
      .filter(([, name]) => name.includes("(opened by the generation prompt)"))
      .map(([f, name]) => `${f}: ${name}`);
    expect(claimed).toEqual([
      'templates-extra/llamacpp-Apriel-1.6-15b-Thinker-fixed.jinja: reasoning …"[BEGIN FINAL RESPONSE]" (opened by the generation prompt); "<tool_calls>" JSON list of calls (name, arguments)',
    ]);
  });
});
