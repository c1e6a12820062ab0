// Qwen3-Coder (Qwen3-Coder-30B-A3B-Instruct and its siblings): the Qwen3 tokenizer with its own
// chat template, whose tool calls are XML-ish text inside <tool_call> (the family as data,
// ../definition.ts; docs/families/qwen3-coder.md). Detected by that template, before Qwen3
// (same tokenizer files). Every added token of tokenizer.json is reserved, special or not;
// the renderer is ./render.ts, the decoder grammar ./grammar.ts.
import type { Detection, FamilyDefinition } from "../definition.ts";
import { definition as qwen3 } from "../qwen3/definition.ts";
import { QWEN3_TOKENS } from "../qwen3/tokens.ts";
import { grammar } from "./grammar.ts";
import { renderQwen3Coder } from "./render.ts";

const TOKENS = QWEN3_TOKENS;

export type Qwen3CoderKey = keyof typeof TOKENS;

function withoutTemplateCondition(d: Detection): Detection {
  const { templateIfPresentIncludes: _, ...rest } = d;
  return rest;
}

export const definition: FamilyDefinition<Qwen3CoderKey> = {
  name: "qwen3-coder",
  title: "Qwen3-Coder",
  tokens: TOKENS,
  detect: {
    // Qwen3's files, without Qwen3's template condition (enable_thinking: the Coder template has none).
    ...withoutTemplateCondition(qwen3.detect),
    // Its tools prompt (no other Qwen template writes these).
    templateIncludes: ["<function=example_function_name>", "<parameter=example_parameter_1>"],
    priority: 10,
  },
  reserved: { allAddedTokens: true },
  eos: ["imEnd", "endOfText"],
  render: renderQwen3Coder,
  grammar,
};
