// The DeepSeek V3 and R1 families (docs/families/deepseek.md): one vocabulary, two templates.
// R1 is picked when the chat template handles "</think>" (the R1 release template does); its
// <think> / </think> tokens are optional because the V3 vocabulary (and the local npm package)
// has placeholders at 128798 / 128799 instead: without them R1 reasoning is plain text.
// Both templates write a call's arguments in a ```json fence; the V3.1 / V3.2 / R1-0528
// templates (same vocabulary) do not, and are not these formats: a template without the fence
// matches neither family (the CLI's --format auto then renders that template itself).
import type { FamilyDefinition } from "../definition.ts";
import { DEEPSEEK_R1_GRAMMAR, DEEPSEEK_V3_GRAMMAR } from "./grammar.ts";
import { renderDeepSeek } from "./render.ts";
import { DEEPSEEK_R1_TOKENS, DEEPSEEK_TOKENS, type DeepSeekKey, type DeepSeekR1Key } from "./tokens.ts";

const JSON_FENCE = "```json";

const DETECT_TOKENS = [
  { content: DEEPSEEK_TOKENS.user },
  { content: DEEPSEEK_TOKENS.assistant },
  { content: DEEPSEEK_TOKENS.toolSep },
] as const;

export const deepseekV3: FamilyDefinition<DeepSeekKey> = {
  name: "deepseek-v3",
  title: "DeepSeek V3",
  tokens: DEEPSEEK_TOKENS,
  detect: { addedTokens: DETECT_TOKENS, templateIfPresentIncludes: [JSON_FENCE], priority: 1 },
  reserved: { allAddedTokens: true },
  eos: ["eos"],
  render: (request, sink, ids) => renderDeepSeek("deepseek-v3", request, sink, ids),
  grammar: DEEPSEEK_V3_GRAMMAR,
};

export const deepseekR1: FamilyDefinition<DeepSeekR1Key> = {
  name: "deepseek-r1",
  title: "DeepSeek R1",
  tokens: DEEPSEEK_R1_TOKENS,
  optionalTokens: ["think", "thinkEnd"],
  detect: {
    addedTokens: DETECT_TOKENS,
    templateIncludes: ["</think>"],
    templateIfPresentIncludes: [JSON_FENCE],
    priority: 2,
  },
  reserved: { allAddedTokens: true },
  eos: ["eos"],
  render: (request, sink, ids) => renderDeepSeek("deepseek-r1", request, sink, ids),
  grammar: DEEPSEEK_R1_GRAMMAR,
};

/** The folder's definitions (families/index.ts lists each on its own line). */
export const definition = deepseekV3;
