// The "function-tag" recognizer (Functionary v3.1): derived from renderings of one call, two calls
// and a call of python (what it claims: ./output-claims.test.ts). The templates are read from
// ../shared (CHATWIRE_TEMPLATES, CHATWIRE_TEMPLATES_EXTRA); the suite is skipped without them.
import { describe, expect, it } from "vitest";
import { entryPresent, probeEntry } from "./output-claims-support.ts";

const KEY = "models/templates/meetkai-functionary-medium-v3.1.jinja";

describe.skipIf(!entryPresent(KEY))("function-tag recognizer (Functionary v3.1)", () => {
  it("derives the text markers of the tag and the python code block from renderings", () => {
    const out = probeEntry(KEY).probe.output;
    expect(out.name).toBe("<function=…</function> call");
    expect(out.grammar.textMarkers).toEqual({
      "<function=": { move: "block-open", block: "function" },
      "</function>": { move: "block-close", block: "function" },
    });
    expect(out.grammar.markers["<|python_tag|>"]).toEqual({ move: "block-open", block: "python_tag" });
    expect(out.grammar.blocks).toEqual(
      expect.arrayContaining([
        { name: "function", emits: "action", kind: "tool_call", body: "tag-name-json" },
        { name: "python_tag", emits: "action", kind: "python", body: "raw" },
      ]),
    );
    expect(out.grammar.markers["<|eom_id|>"]).toEqual({ move: "message-end" });
    expect(out.evidence).toContain(
      'function-tag: a one-call turn renders as the text <function=probe_tool>{"k": "v"}</function>',
    );
  });
});
