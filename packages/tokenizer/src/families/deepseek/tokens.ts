// The token strings of the DeepSeek V3 / R1 families by key (both families share the V3
// vocabulary; R1 adds the <think> / </think> names its published tokenizer gives 128798 /
// 128799, placeholders in V3's). IDs are never written here: they are resolved and verified
// against the loaded files.
export const DEEPSEEK_TOKENS = {
  bos: "<｜begin▁of▁sentence｜>",
  eos: "<｜end▁of▁sentence｜>",
  user: "<｜User｜>",
  assistant: "<｜Assistant｜>",
  toolCallsBegin: "<｜tool▁calls▁begin｜>",
  toolCallsEnd: "<｜tool▁calls▁end｜>",
  toolCallBegin: "<｜tool▁call▁begin｜>",
  toolCallEnd: "<｜tool▁call▁end｜>",
  toolSep: "<｜tool▁sep｜>",
  toolOutputsBegin: "<｜tool▁outputs▁begin｜>",
  toolOutputsEnd: "<｜tool▁outputs▁end｜>",
  toolOutputBegin: "<｜tool▁output▁begin｜>",
  toolOutputEnd: "<｜tool▁output▁end｜>",
} as const;

export type DeepSeekKey = keyof typeof DEEPSEEK_TOKENS;

export const DEEPSEEK_R1_TOKENS = {
  ...DEEPSEEK_TOKENS,
  think: "<think>",
  thinkEnd: "</think>",
} as const;

export type DeepSeekR1Key = keyof typeof DEEPSEEK_R1_TOKENS;
