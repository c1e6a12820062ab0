// The gpt-oss (harmony, o200k_harmony) formatting tokens by key. IDs are never written here: they
// are resolved and verified against the loaded files.
export const GPT_OSS_TOKENS = {
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

export type GptOssKey = keyof typeof GPT_OSS_TOKENS;
