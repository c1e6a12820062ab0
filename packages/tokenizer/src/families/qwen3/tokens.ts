// The Qwen3 tokenizer's structural tokens by key (also Qwen3-Coder's: the same files). IDs are
// never written here: they are resolved and verified against the loaded files.
export const QWEN3_TOKENS = {
  endOfText: "<|endoftext|>",
  imStart: "<|im_start|>",
  imEnd: "<|im_end|>",
  toolCall: "<tool_call>",
  toolCallEnd: "</tool_call>",
  toolResponse: "<tool_response>",
  toolResponseEnd: "</tool_response>",
  think: "<think>",
  thinkEnd: "</think>",
} as const;

export type Qwen3Key = keyof typeof QWEN3_TOKENS;
