// The "recipient-lines" recognizer (Functionary v3.2: `>>>RECIPIENT\n` then the message, `all` for
// content, a tool's name for its JSON arguments): derived from renderings of content, one call, two
// calls and content before a call (what it claims: ./output-claims.test.ts). The templates are read
// from ../shared (CHATWIRE_TEMPLATES, CHATWIRE_TEMPLATES_EXTRA); the suite is skipped without them.
import { describe, expect, it } from "vitest";
import { entryPresent, probeEntry } from "./output-claims-support.ts";

const KEY = "models/templates/meetkai-functionary-medium-v3.2.jinja";

describe.skipIf(!entryPresent(KEY))("recipient-lines recognizer (Functionary v3.2)", () => {
  it("derives the mark, the reader's recipient and the call body from renderings", () => {
    const out = probeEntry(KEY).probe.output;
    expect(out.name).toBe('">>>"RECIPIENT lines');
    expect(out.grammar.textMarkers).toEqual({ ">>>": { move: "role", role: "assistant" } });
    expect(out.grammar.header).toEqual({
      syntax: "role-metadata-line",
      actionRole: "assistant",
      actionBlock: "tool_calls",
      contentMetadata: ["all"],
      blockByMetadata: { python: "code" },
    });
    expect(out.grammar.blocks).toEqual([
      { name: "tool_calls", emits: "action", body: "json-arguments" },
      { name: "code", emits: "action", kind: "python", body: "raw" },
    ]);
    expect(out.grammar.markers.endOfTurn).toEqual({ move: "message-end" });
    expect(out.evidence).toContain('recipient-lines: content is addressed to "all": "all\\nprobe content"');
  });
});
