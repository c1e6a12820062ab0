// The XML-parameter and key/value tool-call recognizers (src/template/output/recognizers/
// xml-parameters.ts, arg-key-value.ts) over every chat template of ../shared/templates and
// ../shared/templates-extra: each template is probed once with one vocabulary (Qwen3's, with
// every marker string of test-vectors/peer-parse/formats.json added as a special token, so a
// template's own control strings are reserved where its model reserves them) and the tool-call
// part recognized is asserted per template: the formats these recognizers own are claimed with
// the body syntax and wrapper their renderings show, and no other template is claimed. Which
// template is which format was read from the template files themselves (their tool-call tags).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { probeTemplate, type TemplateProbe, type TemplateTokenizer } from "../src/index.ts";
import { loadTemplateTokenizerSync, qwen3Dir } from "../src/node.ts";
import { overBase } from "./output-claims-support.ts";
import { repoRoot } from "./template-support.ts";

const dirs = {
  templates: resolve(repoRoot, process.env.CHATWIRE_TEMPLATES || "../shared/templates"),
  "templates-extra": resolve(repoRoot, process.env.CHATWIRE_TEMPLATES_EXTRA || "../shared/templates-extra"),
};
const present = existsSync(dirs.templates) && existsSync(dirs["templates-extra"]);

/** Template -> [recognizer, body syntax, open wrapper, close wrapper, wrapper is text]. */
const OWNED: Readonly<Record<string, readonly [string, string, string, string, boolean]>> = {
  "templates/qwen3-coder-30b-a3b-instruct.jinja": [
    "xml-parameters",
    "xml-call",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
  "templates-extra/hfjs-Qwen-Qwen3.5-4B.jinja": [
    "xml-parameters",
    "xml-call",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
  "templates-extra/llamacpp-Qwen3.5-4B.jinja": [
    "xml-parameters",
    "xml-call",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
  "templates-extra/llamacpp-Qwen3-Coder.jinja": [
    "xml-parameters",
    "xml-call",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
  "templates-extra/llamacpp-NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja": [
    "xml-parameters",
    "xml-call",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
  "templates-extra/llamacpp-StepFun3.5-Flash.jinja": [
    "xml-parameters",
    "xml-call",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
  "templates-extra/llamacpp-ByteDance-Seed-OSS.jinja": [
    "xml-parameters",
    "xml-call",
    "<seed:tool_call>",
    "</seed:tool_call>",
    false,
  ],
  "templates-extra/llamacpp-MiniMax-M2.jinja": [
    "xml-parameters",
    "xml-invoke-list",
    "<minimax:tool_call>",
    "</minimax:tool_call>",
    false,
  ],
  "templates-extra/llamacpp-deepseek-ai-DeepSeek-V3.2.jinja": [
    "xml-parameters",
    "dsml-invoke-list",
    "<｜DSML｜function_calls>",
    "</｜DSML｜function_calls>",
    true,
  ],
  "templates-extra/llamacpp-GLM-4.6.jinja": [
    "arg-key-value",
    "arg-key-value",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
  "templates-extra/llamacpp-GLM-4.7-Flash.jinja": [
    "arg-key-value",
    "arg-key-value",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
  "templates-extra/hfjs-zai-org-GLM-5.1.jinja": [
    "arg-key-value",
    "arg-key-value",
    "<tool_call>",
    "</tool_call>",
    false,
  ],
};
const MINE = ["xml-parameters", "arg-key-value"];

function markerStrings(): string[] {
  const file = join(repoRoot, "test-vectors/peer-parse/formats.json");
  const fm = JSON.parse(readFileSync(file, "utf8")) as {
    templates: Record<string, { vocabulary: { markers: string[] } }>;
  };
  return [...new Set(Object.values(fm.templates).flatMap((e) => e.vocabulary.markers))];
}

/** One template per call, over Qwen3's text model and the marker strings as added tokens. */
function tokenizerMaker(): (template: string) => TemplateTokenizer {
  const base = loadTemplateTokenizerSync(qwen3Dir());
  const added = [
    ...[...base.reserved].map(([content, id]) => ({ id, content, special: true })),
    ...[...base.textPieces].map(([content, id]) => ({ id, content, special: false })),
  ];
  const have = new Set(added.map((a) => a.content));
  let next = Math.max(...added.map((a) => a.id)) + 1;
  for (const m of markerStrings()) if (!have.has(m)) added.push({ id: next++, content: m, special: true });
  return (template) => overBase(base, added, template);
}

/** The recognizer that gave the tool-call part (its evidence lines are prefixed by its name). */
function toolRecognizer(p: TemplateProbe): string | undefined {
  for (const e of p.output.evidence) {
    const r = e.slice(0, e.indexOf(":"));
    if (r !== "reasoning-pair") return r;
  }
  return undefined;
}

describe.skipIf(!present)("XML-parameter and key/value recognizers over every shared template", () => {
  const make = tokenizerMaker();
  const probes = new Map<string, TemplateProbe | null>();
  for (const [dir, path] of Object.entries(dirs))
    for (const f of readdirSync(path)
      .filter((x) => x.endsWith(".jinja"))
      .sort()) {
      let p: TemplateProbe | null = null;
      try {
        p = probeTemplate(make(readFileSync(join(path, f), "utf8")));
      } catch {
        p = null; // a template this vocabulary cannot render (no bos_token ...): claimed by nobody
      }
      probes.set(`${dir}/${f}`, p);
    }

  it("finds every template this suite expects", () => {
    for (const t of Object.keys(OWNED)) expect(probes.get(t), t).toBeTruthy();
  });

  for (const [t, [rec, body, open, close, text]] of Object.entries(OWNED))
    it(`${t}: ${body} wrapped by ${open}…${close}`, () => {
      const p = probes.get(t) as TemplateProbe;
      expect(toolRecognizer(p)).toBe(rec);
      const g = p.output.grammar;
      expect(g.blocks?.find((b) => b.emits === "action")).toMatchObject({ emits: "action", body });
      const moves = text ? g.textMarkers : g.markers;
      expect(moves?.[open]).toEqual({ move: "block-open", block: "tool_call" });
      expect(moves?.[close]).toEqual({ move: "block-close", block: "tool_call" });
      if (rec === "arg-key-value")
        for (const s of ["<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>"])
          expect(g.markers[s]).toEqual({ move: "separator", block: "tool_call" });
    });

  it("claims no other template", () => {
    const claimed = [...probes]
      .filter(([, p]) => p !== null && MINE.includes(toolRecognizer(p) ?? ""))
      .map(([t]) => t)
      .sort();
    expect(claimed).toEqual(Object.keys(OWNED).sort());
  });
});
