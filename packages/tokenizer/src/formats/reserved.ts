// The registry type, and the STATIC reserved-ID tables of the first four families, kept for
// code that still imports them (the loader no longer reads them: each family's definition,
// families/<name>/definition.ts, resolves its IDs from the files; ./registry.ts verifies them).

/**
 * A family name (families/index.ts lists the known ones; the loader refuses any other with
 * TokenizerError "unknown-format"). A string: families are data, not a closed union.
 */
export type FormatName = string;
/**
 * The four families that had static ID tables before families became data (issue 8); kept
 * for the code that still reads those tables (the static *_IDS / *_RESERVED below).
 */
export type LegacyFormatName = "internlm2" | "chatglm3" | "qwen3" | "gpt-oss";

/** InternLM2: SentencePiece pieces [UNUSED_TOKEN_141..146], renamed by tokenizer_config.json. */
export const INTERNLM2_IDS = {
  bos: 1,
  eos: 2,
  imStart: 92543,
  imEnd: 92542,
  actionStart: 92541,
  actionEnd: 92540,
  interpreter: 92539,
  plugin: 92538,
} as const;

/** InternLM2 reserved token strings (config names) -> ID. */
export const INTERNLM2_RESERVED: ReadonlyArray<readonly [string, number]> = [
  ["<s>", 1],
  ["</s>", 2],
  ["<|plugin|>", 92538],
  ["<|interpreter|>", 92539],
  ["<|action_end|>", 92540],
  ["<|action_start|>", 92541],
  ["<|im_end|>", 92542],
  ["<|im_start|>", 92543],
];
export const INTERNLM2_EOS: readonly number[] = [2, 92542];

/** ChatGLM3: appended after the SentencePiece vocabulary by the vendor code (get_command). */
export const CHATGLM3_IDS = {
  unk: 0,
  eos: 2,
  mask: 64789,
  gmask: 64790,
  smask: 64791,
  sop: 64792,
  eop: 64793,
  system: 64794,
  user: 64795,
  assistant: 64796,
  observation: 64797,
} as const;

export const CHATGLM3_RESERVED: ReadonlyArray<readonly [string, number]> = [
  ["[MASK]", 64789],
  ["[gMASK]", 64790],
  ["[sMASK]", 64791],
  ["sop", 64792],
  ["eop", 64793],
  ["<|system|>", 64794],
  ["<|user|>", 64795],
  ["<|assistant|>", 64796],
  ["<|observation|>", 64797],
];
/** Strings of CHATGLM3_RESERVED that are audited/rejected in caller text ("sop"/"eop" are ordinary words and are not). */
export const CHATGLM3_MARKER_STRINGS: readonly string[] = [
  "[MASK]",
  "[gMASK]",
  "[sMASK]",
  "<|system|>",
  "<|user|>",
  "<|assistant|>",
  "<|observation|>",
];
export const CHATGLM3_EOS: readonly number[] = [2, 64795, 64797];
export const CHATGLM3_VOCAB_END = 64798;

/** Qwen3: every added token of tokenizer.json is reserved (special or not). */
export const QWEN3_IDS = {
  endOfText: 151643,
  imStart: 151644,
  imEnd: 151645,
  toolCall: 151657,
  toolCallEnd: 151658,
  toolResponse: 151665,
  toolResponseEnd: 151666,
  think: 151667,
  thinkEnd: 151668,
} as const;
export const QWEN3_FIRST_ADDED = 151643;
export const QWEN3_LAST_ADDED = 151668;
export const QWEN3_EOS: readonly number[] = [151645, 151643];

/**
 * A verified, immutable registry for one loaded tokenizer + format. Built once by the loader.
 * `ids` is the set the text encoder blocks; `strings` maps every special-looking string the
 * audit looks for (config names AND raw piece names such as "[UNUSED_TOKEN_145]") to its ID.
 */
export interface ReservedRegistry {
  readonly format: FormatName;
  readonly ids: ReadonlySet<number>;
  readonly idByName: ReadonlyMap<string, number>;
  readonly nameById: ReadonlyMap<number, string>;
  readonly strings: ReadonlyMap<string, number>;
  readonly eosIds: readonly number[];
  /** Number of IDs decodable at all (text model + appended reserved IDs). */
  readonly vocabEnd: number;
}

/** Qwen3: the added tokens of tokenizer.json (151643..151668), in ID order. */
export const QWEN3_RESERVED: ReadonlyArray<readonly [string, number]> = [
  "<|endoftext|>",
  "<|im_start|>",
  "<|im_end|>",
  "<|object_ref_start|>",
  "<|object_ref_end|>",
  "<|box_start|>",
  "<|box_end|>",
  "<|quad_start|>",
  "<|quad_end|>",
  "<|vision_start|>",
  "<|vision_end|>",
  "<|vision_pad|>",
  "<|image_pad|>",
  "<|video_pad|>",
  "<tool_call>",
  "</tool_call>",
  "<|fim_prefix|>",
  "<|fim_middle|>",
  "<|fim_suffix|>",
  "<|fim_pad|>",
  "<|repo_name|>",
  "<|file_sep|>",
  "<tool_response>",
  "</tool_response>",
  "<think>",
  "</think>",
].map((s, i) => [s, QWEN3_FIRST_ADDED + i] as const);

/** InternLM2: the SentencePiece piece names of the reserved IDs 92538..92543 in tokenizer.model. */
export const INTERNLM2_RAW_PIECES: ReadonlyArray<readonly [string, number]> = [
  141, 142, 143, 144, 145, 146,
].map((n, i) => [`[UNUSED_TOKEN_${n}]`, 92538 + i] as const);
export const INTERNLM2_VOCAB_SIZE = 92544;
export const CHATGLM3_SP_VOCAB_SIZE = 64789;
