// Round trip of the JSON call formats derived from chat templates (the tokenizer's json-calls
// recognizer): an assistant turn with content and two calls, rendered by the template itself
// into IDs (its generated part), decodes back to that content and those calls through the
// derived grammar, pushed whole and one ID at a time. The templates are read from ../shared
// with the peer-parse scorer's stand-in vocabularies (test-vectors/peer-parse/formats.json).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formats, loadFormat, templateDir } from "../../../test-vectors/peer-parse/score.ts";
import { probeTemplate } from "../../tokenizer/src/index.ts";
import { createProbeContext, type ProbeCall } from "../../tokenizer/src/template/output/context.ts";
import {
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  eventCollector,
} from "../src/index.ts";

/** Template file -> whether its calls carry ids it renders (Mistral v3/v11 ids; R7B numbers them). */
const TEMPLATES: Readonly<Record<string, "ids" | "numbered" | "none">> = {
  "mistralai-Mistral-Nemo-Instruct-2407.jinja": "ids",
  "llamacpp-Mistral-Small-3.2-24B-Instruct-2506.jinja": "ids",
  "llamacpp-unsloth-mistral-Devstral-Small-2507.jinja": "none",
  "llamacpp-mistralai-Ministral-3-14B-Reasoning-2512.jinja": "none",
  "llamacpp-CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja": "numbered",
  "llamacpp-NVIDIA-Nemotron-Nano-v2.jinja": "none",
  "llamacpp-Apertus-8B-Instruct.jinja": "none",
  "CohereLabs-c4ai-command-r-v01--tool_use.jinja": "none",
  "llamacpp-unsloth-Apriel-1.5.jinja": "none",
};

const CALLS: readonly ProbeCall[] = [
  { name: "get_weather", arguments: { city: "Paris", days: 3, metric: true }, id: "call00001" },
  { name: "lookup", arguments: { q: 'say "hi"\nbye', tags: ["a", null] }, id: "call00002" },
];

const entries = Object.values(formats().templates).filter(
  (e, i, all) =>
    e.template.file in TEMPLATES && all.findIndex((x) => x.template.file === e.template.file) === i,
);
const present = entries.every((e) => existsSync(join(templateDir(e.template.dir), e.template.file)));

function calls(events: readonly DecoderEvent[]): unknown[] {
  return events.flatMap((e) => (e.type === "action_end" ? [e.call ?? { error: e.error }] : []));
}

describe.runIf(present)("JSON call formats derived from templates: a rendered turn decodes back", () => {
  for (const entry of entries)
    it(entry.template.file, () => {
      const { tok } = loadFormat(entry);
      const probe = probeTemplate(tok);
      const ctx = createProbeContext(tok, probe.endOfTurn);
      // Templates that drop the calls of a turn with content (Nemotron Nano v2) or its content
      // (Mistral, R7B) are taken at their word: the rendering is what the model would write.
      let g = ctx.assistant({ content: "Checking.", calls: CALLS });
      if (g === null || !g.text.includes(CALLS[0]?.name ?? "")) g = ctx.assistant({ calls: CALLS });
      if (g === null) throw new Error("the template refuses the turn");
      const content = g.text.includes("Checking.") ? "Checking." : "";
      // Not the model's: a role token the prompt already wrote (Command-R repeats it for a call
      // turn), and what follows the first reserved ID the grammar does not know (a system turn
      // Command-R appends after a call turn).
      const promptIds = new Set(ctx.prompt({ calls: CALLS })?.ids ?? []);
      const reserved = new Set(tok.reserved.values());
      const known = new Set(Object.values(probe.output.ids));
      let ids = [...g.ids];
      while (ids.length > 0 && reserved.has(ids[0] as number) && promptIds.has(ids[0] as number))
        ids = ids.slice(1);
      const cut = ids.findIndex((id) => reserved.has(id) && !known.has(id));
      if (cut >= 0) ids = ids.slice(0, cut);
      // A past turn as the template renders it: its reasoning (if any) is not in it, so decoding
      // starts in content even where the generation prompt opens reasoning (Nemotron Nano v2).
      const spec = compileTemplateDecoderSpec(tok.textModel, probe, { startInReasoning: false });
      const tools = CALLS.map((c) => ({ type: "function", function: { name: c.name, parameters: {} } }));
      const run = (oneByOne: boolean): DecoderEvent[] => {
        const sink = eventCollector();
        const d = createDecoder(spec, sink, { tools, streamToolCalls: true });
        if (oneByOne) for (const id of ids) d.push(id);
        else d.pushMany(ids);
        d.end();
        return sink.events;
      };
      const whole = run(false);
      expect(run(true)).toEqual(whole);
      const kind = TEMPLATES[entry.template.file];
      const want = CALLS.map((c, i) => ({
        name: c.name,
        arguments: c.arguments,
        ...(kind === "ids" ? { id: c.id } : kind === "numbered" ? { id: String(i) } : {}),
      }));
      expect(calls(whole)).toEqual(want);
      const text = whole.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
      expect(text.trim()).toBe(content);
      // Streamed: each call's argument deltas concatenate to its arguments' JSON.
      let args = "";
      const perCall: unknown[] = [];
      for (const e of whole) {
        if (e.type === "tool_call_arguments") args += e.text;
        if (e.type === "action_end") {
          perCall.push(JSON.parse(args));
          args = "";
        }
      }
      expect(perCall).toEqual(CALLS.map((c) => c.arguments));
    });
});
