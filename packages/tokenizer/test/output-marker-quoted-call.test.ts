// The "marker-quoted-call" recognizer (Gemma 4): derived from the renderings of one call, two calls
// and values of each JSON type (what it claims: ./output-claims.test.ts). The templates are read from
// ../shared (CHATWIRE_TEMPLATES, CHATWIRE_TEMPLATES_EXTRA); the suite is skipped without them.
import { describe, expect, it } from "vitest";
import { entryPresent, expectBlock, probeEntry } from "./output-claims-support.ts";

const KEY = "models/templates/google-gemma-4-31B-it.jinja";

describe.skipIf(!entryPresent(KEY))("marker-quoted-call recognizer (Gemma 4)", () => {
  it("derives the call markers, the quote marker and the call turn's end from renderings", () => {
    const out = probeEntry(KEY).probe.output;
    expect(out.name).toMatch(/marker-quoted call$/u);
    expect(out.grammar.markers['<|"|>']).toEqual({ move: "separator", block: "tool_call" });
    expect(out.grammar.markers["<|tool_response>"]).toEqual({ move: "message-end" });
    expectBlock(out.grammar, "<|tool_call>", "<tool_call|>", {
      name: "tool_call",
      emits: "action",
      kind: "tool_call",
      body: "marker-quoted-call",
    });
    expect(out.evidence).toEqual(
      expect.arrayContaining([
        'marker-quoted-call: a one-call turn renders as <|tool_call>call:probe_tool{k:<|"|>v<|"|>}<tool_call|>',
        "marker-quoted-call: a call turn ends with <|tool_response>",
      ]),
    );
  });
});
