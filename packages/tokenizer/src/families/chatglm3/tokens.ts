// The ChatGLM3 tokens by key: the text model's control pieces and the commands its vendor code
// appends after the SentencePiece vocabulary (their IDs are fixed in ./definition.ts).
export const CHATGLM3_TOKENS = {
  unk: "<unk>",
  eos: "</s>",
  mask: "[MASK]",
  gmask: "[gMASK]",
  smask: "[sMASK]",
  sop: "sop",
  eop: "eop",
  system: "<|system|>",
  user: "<|user|>",
  assistant: "<|assistant|>",
  observation: "<|observation|>",
} as const;

export type ChatGLM3Key = keyof typeof CHATGLM3_TOKENS;
