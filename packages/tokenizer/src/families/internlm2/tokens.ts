// The InternLM2 role and action tokens by key: the SentencePiece pieces [UNUSED_TOKEN_141..146]
// under the names tokenizer_config.json's added_tokens_decoder gives them, and <s> / </s>.
export const INTERNLM2_TOKENS = {
  bos: "<s>",
  eos: "</s>",
  imStart: "<|im_start|>",
  imEnd: "<|im_end|>",
  actionStart: "<|action_start|>",
  actionEnd: "<|action_end|>",
  interpreter: "<|interpreter|>",
  plugin: "<|plugin|>",
} as const;

export type InternLM2Key = keyof typeof INTERNLM2_TOKENS;
