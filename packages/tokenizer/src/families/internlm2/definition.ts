// InternLM2 (ChatML with actions): the family as data (../definition.ts). The role tokens are
// the SentencePiece pieces [UNUSED_TOKEN_141..146], renamed by tokenizer_config.json's
// added_tokens_decoder (so the config MUST declare them); the renderer is ./render.ts.
import type { FamilyDefinition } from "../definition.ts";
import { grammar } from "./grammar.ts";
import { renderInternLM2 } from "./render.ts";
import { INTERNLM2_TOKENS, type InternLM2Key } from "./tokens.ts";

export type { InternLM2Key } from "./tokens.ts";

export const definition: FamilyDefinition<InternLM2Key> = {
  name: "internlm2",
  title: "InternLM2",
  tokens: INTERNLM2_TOKENS,
  // SentencePiece's bos_id/eos_id, which the vendor tokenizer reads from the model (the config
  // may leave them undeclared); verified against the model's pieces at load.
  fixedIds: { bos: 1, eos: 2 },
  detect: {
    tokenizerClass: ["InternLM2Tokenizer"],
    alternatives: [{ addedTokens: [{ id: 92543, content: "<|im_start|>" }] }],
  },
  reserved: {
    allAddedTokens: true,
    expectPieces: [141, 142, 143, 144, 145, 146].map((n, i) => [92538 + i, `[UNUSED_TOKEN_${n}]`] as const),
    vocabSize: 92544,
  },
  eos: ["eos", "imEnd"],
  render: renderInternLM2,
  grammar,
};
