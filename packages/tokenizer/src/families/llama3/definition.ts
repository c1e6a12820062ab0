// The Llama 3.x family as two definitions sharing tokens, grammar and render code
// (docs/families/llama3.md):
// - "llama3": the Llama 3.0 Instruct chat template (Meta-Llama-3-8B-Instruct, 389 chars; it
//   renders no tools and no tool calls). Picked for a Llama 3 vocabulary whose template is not a 3.1+ one (or has none).
// - "llama31": the Llama 3.1+ chat template (3.1/3.2/3.3: the system header with "Cutting
//   Knowledge Date", tools, JSON tool calls, ipython results; rendered as the 3.2 template).
//   Picked when the template contains "Cutting Knowledge Date" (wins by priority).
// Both load a Llama 3.0 vocabulary (<|eom_id|>/<|python_tag|>/<|finetune_right_pad_id|> absent:
// optional) and a Llama 3.1+ one. Every added token is reserved (all 256 are special).
import type { Detection, FamilyDefinition } from "../definition.ts";
import { LLAMA3_GRAMMAR } from "./grammar.ts";
import { renderLlama3, renderLlama31 } from "./render.ts";
import { LLAMA3_TOKENS, LLAMA31_ONLY, type Llama3Key } from "./tokens.ts";

const ADDED: Detection["addedTokens"] = [
  { id: 128000, content: "<|begin_of_text|>" },
  { id: 128006, content: "<|start_header_id|>" },
  { id: 128007, content: "<|end_header_id|>" },
  { id: 128009, content: "<|eot_id|>" },
];

export const definition: FamilyDefinition<Llama3Key> = {
  name: "llama3",
  title: "Llama 3.0 Instruct (Meta-Llama-3-8B-Instruct template)",
  tokens: LLAMA3_TOKENS,
  optionalTokens: LLAMA31_ONLY,
  // A template, when there is one, writes Llama 3's headers: fine-tunes of the vocabulary with
  // another template (ChatML, DeepSeek's <｜User｜>) are other formats, rendered as templates.
  detect: {
    addedTokens: ADDED,
    templateIfPresentIncludes: ["<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"],
    priority: 0,
  },
  reserved: { allAddedTokens: true },
  eos: ["eot", "endOfText"],
  render: renderLlama3,
  grammar: LLAMA3_GRAMMAR,
};

export const definition31: FamilyDefinition<Llama3Key> = {
  name: "llama31",
  title: "Llama 3.1 / 3.2 / 3.3 Instruct (tool-calling template, as Llama-3.2-3B-Instruct's)",
  tokens: LLAMA3_TOKENS,
  optionalTokens: LLAMA31_ONLY,
  detect: {
    addedTokens: ADDED,
    templateIncludes: ["<|start_header_id|>", "Cutting Knowledge Date"],
    priority: 1,
  },
  reserved: { allAddedTokens: true },
  eos: ["eot", "endOfText", "eom"],
  render: renderLlama31,
  grammar: LLAMA3_GRAMMAR,
};

/** Both Llama 3.x definitions (families/index.ts lists them on one line). */
export const definitions: readonly FamilyDefinition<Llama3Key>[] = [definition, definition31];
