// The control pieces of Mistral's SentencePiece tokenizers, per version, as mistral-common names
// them (its SpecialTokens): the same IDs in every .model file that has them (the pieces are
// CONTROL pieces, so SentencePiece never produces them from text; the loader still blocks them
// and checks each ID holds its piece).
export const TOKENS = {
  bos: "<s>",
  eos: "</s>",
  inst: "[INST]",
  instEnd: "[/INST]",
  toolCalls: "[TOOL_CALLS]",
  tools: "[AVAILABLE_TOOLS]",
  toolsEnd: "[/AVAILABLE_TOOLS]",
  toolResults: "[TOOL_RESULTS]",
  toolResultsEnd: "[/TOOL_RESULTS]",
  img: "[IMG]",
  prefix: "[PREFIX]",
  middle: "[MIDDLE]",
  suffix: "[SUFFIX]",
  imgBreak: "[IMG_BREAK]",
  imgEnd: "[IMG_END]",
  system: "[SYSTEM_PROMPT]",
  systemEnd: "[/SYSTEM_PROMPT]",
  toolContent: "[TOOL_CONTENT]",
  args: "[ARGS]",
  callId: "[CALL_ID]",
  think: "[THINK]",
  thinkEnd: "[/THINK]",
} as const;

export type MistralKey = keyof typeof TOKENS;

/** mistral-common's tokenizer versions this family renders. */
export type MistralVersion = 1 | 2 | 3 | 7 | 11 | 13;

/** The versions with SentencePiece files (the rest are tekken only). */
export type SpmVersion = 1 | 2 | 3 | 7;

/** The IDs of the SentencePiece files (mistral-common's data/, Mistral's Hugging Face repositories). */
export const SPM_IDS: Readonly<
  Record<Exclude<MistralKey, "args" | "callId" | "think" | "thinkEnd">, number>
> = {
  bos: 1,
  eos: 2,
  inst: 3,
  instEnd: 4,
  toolCalls: 5,
  tools: 6,
  toolsEnd: 7,
  toolResults: 8,
  toolResultsEnd: 9,
  img: 10,
  prefix: 11,
  middle: 12,
  suffix: 13,
  imgBreak: 14,
  imgEnd: 15,
  system: 16,
  systemEnd: 17,
  toolContent: 18,
};

/**
 * The keys each version's files hold, each version adding to the one before (v1: only <s> </s>;
 * [INST] is text there). v13 tekken files have [THINK] [/THINK] only where the model reasons
 * (Magistral), so those two are optional there.
 */
const ADDED: ReadonlyArray<readonly [MistralVersion, readonly MistralKey[]]> = [
  [1, ["bos", "eos"]],
  [2, ["inst", "instEnd", "toolCalls", "tools", "toolsEnd", "toolResults", "toolResultsEnd"]],
  [3, ["img", "prefix", "middle", "suffix"]],
  [7, ["imgBreak", "imgEnd", "system", "systemEnd", "toolContent"]],
  [11, ["args", "callId"]],
  [13, []],
];

export const KEYS_OF: Readonly<Record<MistralVersion, readonly MistralKey[]>> = (() => {
  const out: Partial<Record<MistralVersion, readonly MistralKey[]>> = {};
  let keys: readonly MistralKey[] = [];
  for (const [v, added] of ADDED) out[v] = keys = [...keys, ...added];
  return out as Record<MistralVersion, readonly MistralKey[]>;
})();
