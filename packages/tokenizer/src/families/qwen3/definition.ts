// Qwen3 (ChatML with <think>, <tool_call>, <tool_response>): the family as data
// (../definition.ts). Every added token of tokenizer.json is reserved, special or not; the
// renderer is ./render.ts, the decoder grammar ./grammar.ts.
import type { FamilyDefinition } from "../definition.ts";
import { grammar } from "./grammar.ts";
import { renderQwen3 } from "./render.ts";
import { QWEN3_TOKENS, type Qwen3Key } from "./tokens.ts";

export { QWEN3_TOKENS, type Qwen3Key } from "./tokens.ts";

export const definition: FamilyDefinition<Qwen3Key> = {
  name: "qwen3",
  title: "Qwen3",
  tokens: QWEN3_TOKENS,
  detect: {
    tokenizerClass: ["Qwen2Tokenizer", ""],
    addedTokens: [{ id: 151644, content: "<|im_start|>" }],
    // The renderer is the hybrid-thinking template's (Qwen3-0.6B … 235B): a template without
    // enable_thinking (QwQ, Qwen3-*-2507, Qwen2.5) is another format, rendered as a template.
    templateIfPresentIncludes: ["enable_thinking"],
  },
  reserved: { allAddedTokens: true },
  eos: ["imEnd", "endOfText"],
  render: renderQwen3,
  grammar,
};
