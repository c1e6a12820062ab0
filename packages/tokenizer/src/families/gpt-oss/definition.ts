// gpt-oss (harmony, o200k_harmony): the family as data (../definition.ts). The renderer is the
// existing ../../formats/gpt-oss.ts (owned by the harmony work), called through ./render.ts.
import type { FamilyDefinition } from "../definition.ts";
import { grammar } from "./grammar.ts";
import { renderGptOss } from "./render.ts";

const TOKENS = {
  startOfText: "<|startoftext|>",
  endOfText: "<|endoftext|>",
  return: "<|return|>",
  constrain: "<|constrain|>",
  channel: "<|channel|>",
  start: "<|start|>",
  end: "<|end|>",
  message: "<|message|>",
  call: "<|call|>",
  endOfPrompt: "<|endofprompt|>",
} as const;

export type GptOssKey = keyof typeof TOKENS;

export const definition: FamilyDefinition<GptOssKey> = {
  name: "gpt-oss",
  title: "gpt-oss (harmony)",
  tokens: TOKENS,
  detect: {
    addedTokens: [
      { id: 200006, content: "<|start|>" },
      { id: 200008, content: "<|message|>" },
    ],
  },
  reserved: { allAddedTokens: true },
  eos: ["return", "call", "endOfText"],
  render: renderGptOss,
  grammar,
};
