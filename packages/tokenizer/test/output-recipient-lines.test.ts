// The "recipient-lines" recognizer (Functionary v3.2: `>>>RECIPIENT\n` then the message, `all`
// for content, a tool's name for its JSON arguments): derived from renderings of content, one
// call, two calls and content before a call, and claimed by no other template of ../shared. The
// templates are read from ../shared (CHATWIRE_TEMPLATES, CHATWIRE_TEMPLATES_EXTRA); the suite is
// skipped without them.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formats, loadFormat, templateDir } from "../../../test-vectors/peer-parse/score.ts";
import { probeTemplate } from "../src/index.ts";
import { derivedNames } from "./output-claims-support.ts";

const entry = formats().templates["models/templates/meetkai-functionary-medium-v3.2.jinja"];
const present = entry !== undefined && existsSync(join(templateDir(entry.template.dir), entry.template.file));

describe.skipIf(!present)("recipient-lines recognizer (Functionary v3.2)", () => {
  it("derives the mark, the reader's recipient and the call body from renderings", () => {
    if (entry === undefined) throw new Error("no Functionary v3.2 entry");
    const out = probeTemplate(loadFormat(entry).tok).output;
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

  it("claims the Functionary v3.2 template of ../shared and no other", () => {
    const claimed = [...derivedNames()]
      .filter(([, name]) => name.includes("RECIPIENT lines"))
      .map(([f]) => f);
    expect(claimed).toEqual(["templates-extra/minja-meetkai-functionary-medium-v3.2.jinja"]);
  });
});
