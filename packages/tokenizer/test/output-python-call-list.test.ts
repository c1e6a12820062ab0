// The "python-call-list" recognizer (LFM2 / LFM2.5): derived from the renderings of a template that
// writes an assistant's calls, known by its reserved markers for the LFM2 templates that drop them
// (what it claims: ./output-claims.test.ts). The templates are read from ../shared
// (CHATWIRE_TEMPLATES, CHATWIRE_TEMPLATES_EXTRA); the suite is skipped without them.
import { describe, expect, it } from "vitest";
import { formats } from "../../../test-vectors/peer-parse/score.ts";
import { entryPresent, expectBlock, probeEntry } from "./output-claims-support.ts";

const entries = Object.entries(formats().templates).filter(([, e]) => e.format === "LFM2");
const present = entries.every(([key]) => entryPresent(key));

describe.skipIf(!present)("python-call-list recognizer (LFM2)", () => {
  it("derives the list, its markers and the Python values from a template that writes calls", () => {
    const out = probeEntry("models/templates/LFM2.5-8B-A1B.jinja").probe.output;
    expect(out.name).toBe("reasoning <think>…</think>; Python call list");
    expectBlock(out.grammar, "<|tool_call_start|>", "<|tool_call_end|>", {
      name: "tool_calls",
      emits: "action",
      kind: "tool_call",
      body: "python-call-list",
    });
    expect(out.evidence).toContain(
      "python-call-list: a one-call turn renders as <|tool_call_start|>[probe_tool(k='v')]<|tool_call_end|>",
    );
    expect(out.evidence).toContain("python-call-list: values are Python literals (True, None)");
  });

  it("knows the format by its markers where the template drops the calls, and says so", () => {
    for (const stem of ["LFM2-8B-A1B", "LFM2.5-Instruct"]) {
      const out = probeEntry(`models/templates/${stem}.jinja`).probe.output;
      expect(out.name, stem).toMatch(/Python call list$/u);
      expect(out.evidence, stem).toContain(
        "python-call-list: the template drops an assistant's tool calls from its renderings",
      );
    }
  });
});
