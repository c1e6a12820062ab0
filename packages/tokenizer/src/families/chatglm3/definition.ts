// ChatGLM3: the family as data (../definition.ts). Its commands are appended after the
// SentencePiece vocabulary by the vendor code (tokenization_chatglm.py get_command), so their
// IDs are fixed here, not read from the files; "sop"/"eop" are ordinary words in caller text.
import type { FamilyDefinition } from "../definition.ts";
import { grammar } from "./grammar.ts";
import { renderChatGLM3 } from "./render.ts";
import { CHATGLM3_TOKENS, type ChatGLM3Key } from "./tokens.ts";

export type { ChatGLM3Key } from "./tokens.ts";

const TEXT_VOCAB = 64789;

export const definition: FamilyDefinition<ChatGLM3Key> = {
  name: "chatglm3",
  title: "ChatGLM3",
  tokens: CHATGLM3_TOKENS,
  fixedIds: {
    mask: TEXT_VOCAB,
    gmask: TEXT_VOCAB + 1,
    smask: TEXT_VOCAB + 2,
    sop: TEXT_VOCAB + 3,
    eop: TEXT_VOCAB + 4,
    system: TEXT_VOCAB + 5,
    user: TEXT_VOCAB + 6,
    assistant: TEXT_VOCAB + 7,
    observation: TEXT_VOCAB + 8,
  },
  detect: { tokenizerClass: ["ChatGLMTokenizer"] },
  reserved: {
    allAddedTokens: true,
    notAudited: ["sop", "eop"],
    appended: { firstId: TEXT_VOCAB, textVocabSize: TEXT_VOCAB },
    notReserved: ["unk", "eos"],
  },
  eos: ["eos", "user", "observation"],
  render: renderChatGLM3,
  grammar,
};
