// gpt-oss (harmony, o200k_harmony): the family as data (../definition.ts). The renderer is
// ./render.ts (the request mapping ./request.ts and the two harmony renderers).
import type { FamilyDefinition } from "../definition.ts";
import { grammar } from "./grammar.ts";
import { renderGptOss } from "./render.ts";
import { GPT_OSS_TOKENS, type GptOssKey } from "./tokens.ts";

export type { GptOssKey } from "./tokens.ts";

export const definition: FamilyDefinition<GptOssKey> = {
  name: "gpt-oss",
  title: "gpt-oss (harmony)",
  tokens: GPT_OSS_TOKENS,
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
