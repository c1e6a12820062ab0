// The tokenizer.json component configurations of popular models we do not have locally, for
// test/tokenizer-breadth.test.ts. We cannot download model files, so each configuration is
// rebuilt as JSON from public sources and swapped into a local vocabulary (Qwen3 or Llama 3.1
// byte-level BPE, Gemma 3 SentencePiece-converted BPE):
// - the Split regexes: ggml-org/llama.cpp src/llama-vocab.cpp `llm_tokenizer_bpe` (per
//   pre-tokenizer type; its "original regex from tokenizer.json" comments where it rewrote one),
//   the vendor files we have (Qwen3, Llama 3.1, DeepSeek V3, gpt-oss);
// - the component types and flags (Digits individual_digits, Punctuation behavior, ByteLevel
//   add_prefix_space/use_regex, Metaspace prepend_scheme/split, decoders): llama.cpp's table
//   (Digits = its "\p{N}" / "\p{N}+" steps, Punctuation = its "[\p{P}\$\+<=>\^~\|`]+"),
//   huggingface/transformers convert_slow_tokenizer.py (LlamaConverter legacy and non-legacy),
//   and the JSON our memory of the model repositories gives. They are RECONSTRUCTIONS of the
//   real files' components, labelled as such; the vocabulary is never the model's.
// `refused` entries are configurations the loader must refuse with a typed error naming the
// component (the regex must match the message).

export interface BreadthConfig {
  readonly name: string;
  /** Models whose tokenizer.json carries this configuration. */
  readonly models: string;
  readonly base: "qwen3" | "llama3";
  readonly normalizer?: object | null;
  readonly pre_tokenizer: object;
  readonly decoder?: object;
  readonly post_processor?: object | null;
  /** Labelled synthetic: a component combination no model we know of ships (component coverage). */
  readonly synthetic?: true;
  /**
   * Unicode normalizers other than NFC: inputs whose NFD/NFKC/NFKD differ between Node's ICU
   * (Unicode 17) and the reference's older tables are expected to differ (checked per input).
   */
  readonly unicodeTables?: true;
  readonly refused?: RegExp;
}

const byteLevel = (useRegex: boolean, addPrefixSpace = false): object => ({
  type: "ByteLevel",
  add_prefix_space: addPrefixSpace,
  trim_offsets: true,
  use_regex: useRegex,
});
const split = (regex: string, behavior = "Isolated"): object => ({
  type: "Split",
  pattern: { Regex: regex },
  behavior,
  invert: false,
});
const seq = (...pretokenizers: object[]): object => ({ type: "Sequence", pretokenizers });
const digits = (individual: boolean): object => ({ type: "Digits", individual_digits: individual });

export const LLAMA3_REGEX =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
export const QWEN2_REGEX =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
export const O200K_REGEX =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
export const TEKKEN_REGEX =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
export const DEEPSEEK3_REGEX =
  "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+";
// Written with \u escapes where a character has a singleton NFC decomposition (U+1F7D, U+1FBE,
// U+1FD3, U+1FDB, U+2126, U+212A): an editor or tool that normalizes text would change them.
export const DEEPSEEK_LLM_LETTERS =
  "\\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-\u1f7dᾀ-ᾴᾶ-ᾼ\u1fbeῂ-ῄῆ-ῌῐ-\u1fd3ῖ-\u1fdbῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤ\u2126ℨ\u212a-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+";
export const GPT2_REGEX =
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
export const BLOOM_REGEX = " ?[^(\\s|[.,!?…。，、।۔،])]+";
export const SEED_CODER_REGEX =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1}| ?[^\\s\\p{L}\\p{N}\r\n]+|\\s*[\r\n]+|\\s+(?!\\S)|\\s+";

export const BYTE_LEVEL_CONFIGS: readonly BreadthConfig[] = [
  {
    name: "gpt2",
    models: "GPT-2, GPT-J, OPT, Phi-1/2 (CodeGen), MPT, Jais, Granite-Docling",
    base: "qwen3",
    normalizer: null,
    pre_tokenizer: byteLevel(true),
    post_processor: byteLevel(true),
  },
  {
    name: "gpt-neox",
    models: "GPT-NeoX, Pythia, OLMo 1, StableLM-alpha (NFC + GPT-2 ByteLevel)",
    base: "qwen3",
    normalizer: { type: "NFC" },
    pre_tokenizer: byteLevel(true),
  },
  {
    name: "roberta",
    models: "RoBERTa/BART-style ByteLevel add_prefix_space: true (RobertaProcessing)",
    base: "qwen3",
    normalizer: null,
    pre_tokenizer: byteLevel(true, true),
    post_processor: {
      type: "RobertaProcessing",
      sep: ["</s>", 2],
      cls: ["<s>", 0],
      trim_offsets: true,
      add_prefix_space: true,
    },
  },
  {
    name: "llama3",
    models: "Llama 3.x, Phi-4 (cl100k), ChatGLM4, DBRX, Smaug",
    base: "qwen3",
    pre_tokenizer: seq(split(LLAMA3_REGEX), byteLevel(false)),
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "<|endoftext|>", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }],
      pair: [],
      special_tokens: { "<|endoftext|>": { id: "<|endoftext|>", ids: [151643], tokens: ["<|endoftext|>"] } },
    },
  },
  {
    name: "llama3-prefix-space",
    models: "Llama 3 fine-tunes saved with add_prefix_space: true on the ByteLevel step",
    base: "llama3",
    pre_tokenizer: seq(split(LLAMA3_REGEX), byteLevel(false, true)),
  },
  {
    name: "llama3-use-regex",
    models: "Llama 3 derivatives saved with ByteLevel use_regex: true after the Split (both regexes apply)",
    base: "qwen3",
    pre_tokenizer: seq(split(LLAMA3_REGEX), byteLevel(true)),
  },
  {
    name: "qwen2",
    models: "Qwen2/2.5/3, StableLM2, Grok-2, Hunyuan (NFC)",
    base: "llama3",
    normalizer: { type: "NFC" },
    pre_tokenizer: seq(split(QWEN2_REGEX), byteLevel(false)),
  },
  {
    name: "gpt-4o",
    models: "GPT-4o / o200k, gpt-oss, MiniMax-M2",
    base: "qwen3",
    pre_tokenizer: seq(split(O200K_REGEX), byteLevel(false)),
  },
  {
    name: "tekken",
    models: "Mistral Nemo / Pixtral / Mistral Small 3 (Tekken)",
    base: "llama3",
    pre_tokenizer: seq(split(TEKKEN_REGEX), byteLevel(false)),
  },
  {
    name: "deepseek-v3",
    models: "DeepSeek V3/R1, Hunyuan-dense",
    base: "qwen3",
    pre_tokenizer: seq(
      split("\\p{N}{1,3}"),
      split("[一-龥぀-ゟ゠-ヿ]+"),
      split(DEEPSEEK3_REGEX),
      byteLevel(false),
    ),
  },
  {
    name: "deepseek-llm",
    models: "DeepSeek LLM 7B/67B (v1)",
    base: "qwen3",
    pre_tokenizer: seq(
      split("[\r\n]"),
      split(DEEPSEEK_LLM_LETTERS),
      split("\\s?[!-/:-~！-／：-～‘-‟　-。]+"),
      split("\\s+$"),
      split("[一-龥ࠀ-一가-퟿]+"),
      digits(false),
      byteLevel(false),
    ),
  },
  {
    name: "deepseek-coder",
    models: "DeepSeek Coder v1 (1.3B/6.7B/33B)",
    base: "llama3",
    pre_tokenizer: seq(
      split("[\r\n]"),
      split("\\s?\\p{L}+"),
      split("\\s?\\p{P}+"),
      split("[一-龥ࠀ-一가-퟿]+"),
      digits(true),
      byteLevel(false),
    ),
  },
  {
    name: "starcoder",
    models: "StarCoder/StarCoder2, SmolLM/SmolLM2, Refact, CodeShell, EXAONE, Minerva",
    base: "qwen3",
    normalizer: null,
    pre_tokenizer: seq(digits(true), byteLevel(true)),
  },
  {
    name: "command-r",
    models: "Cohere Command-R / R+ / Aya (NFC + Digits + ByteLevel)",
    base: "llama3",
    normalizer: { type: "NFC" },
    pre_tokenizer: seq(digits(true), byteLevel(true)),
  },
  {
    name: "bloom",
    models: "BLOOM, Poro, GPT-3-Finnish",
    base: "qwen3",
    pre_tokenizer: seq(split(BLOOM_REGEX), byteLevel(false)),
  },
  {
    name: "viking",
    models: "Viking (BLOOM split + individual digits)",
    base: "llama3",
    pre_tokenizer: seq(split(" ?[^(\\s|.,!?…。，、।۔،)]+"), digits(true), byteLevel(false)),
  },
  {
    name: "seed-coder",
    models: "ByteDance Seed-Coder",
    base: "qwen3",
    pre_tokenizer: seq(split(SEED_CODER_REGEX), byteLevel(false)),
  },
  {
    name: "falcon",
    models: "Falcon 7B/40B/180B: Punctuation, ByteLevel, then Digits and Split AFTER ByteLevel",
    base: "qwen3",
    pre_tokenizer: seq(
      { type: "Punctuation", behavior: "Contiguous" },
      byteLevel(true),
      digits(false),
      split("[0-9][0-9][0-9]"),
    ),
    refused: /"Digits" after ByteLevel/,
  },
  {
    name: "bailing",
    models: "Ling / BailingMoE (possessive quantifiers)",
    base: "qwen3",
    pre_tokenizer: seq(
      split(
        "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+",
      ),
      byteLevel(false),
    ),
    refused: /unsupported pre_tokenizer regex|unsupported pre_tokenizer Split regex/,
  },
  {
    name: "superbpe",
    models: "SuperBPE (\\d lookahead groups)",
    base: "qwen3",
    pre_tokenizer: seq(split("\\p{N}+"), split("(?=(\\d{3})+(?!\\d))"), byteLevel(false)),
    refused: /unsupported escape "\\d"/,
  },
  {
    name: "metaspace-bytelevel",
    models: "a Metaspace pre-tokenizer on a byte-level vocabulary",
    base: "qwen3",
    pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
    // Metaspace marks the file SentencePiece-flavoured: that loader names the first component it lacks.
    refused: /unsupported normalizer "NFC"/,
  },
  // Component coverage, labelled synthetic: each supported component with a real vocabulary.
  {
    name: "synthetic-punctuation-isolated",
    models: "(synthetic) Punctuation Isolated + ByteLevel",
    base: "qwen3",
    pre_tokenizer: seq({ type: "Punctuation", behavior: "Isolated" }, byteLevel(true)),
    synthetic: true,
  },
  {
    name: "synthetic-whitespace",
    models: "(synthetic) Whitespace + ByteLevel(use_regex: false)",
    base: "qwen3",
    pre_tokenizer: seq({ type: "Whitespace" }, byteLevel(false)),
    synthetic: true,
  },
  {
    name: "synthetic-whitespace-split",
    models: "(synthetic) WhitespaceSplit + Digits + ByteLevel",
    base: "llama3",
    pre_tokenizer: seq({ type: "WhitespaceSplit" }, digits(false), byteLevel(true)),
    synthetic: true,
  },
  {
    name: "synthetic-split-behaviors",
    models: "(synthetic) String/Regex Splits with MergedWithPrevious/Next, Contiguous, Removed, invert",
    base: "qwen3",
    pre_tokenizer: seq(
      { type: "Split", pattern: { String: " " }, behavior: "MergedWithNext", invert: false },
      { type: "Split", pattern: { Regex: "[.,;]" }, behavior: "MergedWithPrevious", invert: false },
      { type: "Split", pattern: { Regex: "\\p{N}" }, behavior: "Contiguous", invert: false },
      { type: "Split", pattern: { String: "\t" }, behavior: "Removed", invert: false },
      { type: "Split", pattern: { String: "-<" }, behavior: "Isolated", invert: false },
      { type: "Split", pattern: { String: "(x)|" }, behavior: "MergedWithPrevious", invert: false },
      { type: "Split", pattern: { Regex: "\\p{L}+" }, behavior: "Isolated", invert: true },
      byteLevel(false),
    ),
    synthetic: true,
  },
  {
    name: "synthetic-normalizers",
    models: "(synthetic) NFKC, Lowercase, Strip, Replace, Prepend in one Sequence",
    base: "qwen3",
    normalizer: {
      type: "Sequence",
      normalizers: [
        { type: "NFKC" },
        { type: "Strip", strip_left: true, strip_right: true },
        { type: "Lowercase" },
        { type: "Replace", pattern: { String: "  " }, content: " " },
        { type: "Prepend", prepend: "Ġ" },
      ],
    },
    pre_tokenizer: byteLevel(true),
    synthetic: true,
    unicodeTables: true,
  },
  {
    name: "synthetic-nfd-nfkd",
    models: "(synthetic) NFD then NFKD",
    base: "llama3",
    normalizer: { type: "Sequence", normalizers: [{ type: "NFD" }, { type: "NFKD" }] },
    pre_tokenizer: seq(split(LLAMA3_REGEX), byteLevel(false)),
    synthetic: true,
    unicodeTables: true,
  },
  {
    name: "bert-normalizer",
    models: "BertNormalizer on a byte-level vocabulary",
    base: "qwen3",
    normalizer: { type: "BertNormalizer", clean_text: true, lowercase: true },
    pre_tokenizer: byteLevel(true),
    refused: /normalizer "BertNormalizer"/,
  },
  {
    name: "replace-regex",
    models: "a Replace normalizer with a Regex pattern",
    base: "qwen3",
    normalizer: { type: "Replace", pattern: { Regex: " {2,}" }, content: " " },
    pre_tokenizer: byteLevel(true),
    refused: /normalizer Replace pattern/,
  },
  {
    name: "decoder-metaspace",
    models: "a Metaspace decoder on a byte-level vocabulary",
    base: "qwen3",
    pre_tokenizer: byteLevel(true),
    decoder: { type: "Metaspace", replacement: "▁", prepend_scheme: "always" },
    refused: /unsupported normalizer "NFC"/,
  },
];

/** SentencePiece-converted configurations on the Gemma 3 vocabulary (BPE + byte_fallback). */
export interface SpBreadthConfig {
  readonly name: string;
  readonly models: string;
  readonly normalizer: object | null;
  readonly pre_tokenizer: object | null;
  readonly decoder: object;
  readonly refused?: RegExp;
}

/** The SentencePiece-converted decoder: ▁ to " ", byte fallback, fuse, optionally one leading " " stripped. */
export const spDecoder = (strip: boolean): object => ({
  type: "Sequence",
  decoders: [
    { type: "Replace", pattern: { String: "▁" }, content: " " },
    { type: "ByteFallback" },
    { type: "Fuse" },
    ...(strip ? [{ type: "Strip", content: " ", start: 1, stop: 0 }] : []),
  ],
});

/** The legacy LlamaConverter's normalizer (Llama 2, Phi-3): "▁" prepended, " " replaced by "▁". */
export const LLAMA2_NORMALIZER = {
  type: "Sequence",
  normalizers: [
    { type: "Prepend", prepend: "▁" },
    { type: "Replace", pattern: { String: " " }, content: "▁" },
  ],
} as const;

export const SP_CONFIGS: readonly SpBreadthConfig[] = [
  {
    name: "llama2-legacy",
    models: "Llama 2, Mistral v0.1/v0.2, TinyLlama, Phi-3 (legacy LlamaConverter)",
    normalizer: LLAMA2_NORMALIZER,
    pre_tokenizer: null,
    decoder: spDecoder(true),
  },
  {
    name: "gemma2",
    models: "Gemma 1/2, CodeGemma, RecurrentGemma (Replace normalizer, no pre-tokenizer)",
    normalizer: { type: "Replace", pattern: { String: " " }, content: "▁" },
    pre_tokenizer: null,
    decoder: spDecoder(false),
  },
  {
    name: "llama-metaspace-first",
    models: "Mistral v0.3, Mixtral, Llama 2 re-conversions (LlamaConverter legacy=False)",
    normalizer: null,
    pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "first", split: false },
    decoder: spDecoder(true),
  },
  {
    name: "metaspace-old-form",
    models: "tokenizers < 0.14 files: Metaspace {add_prefix_space: true} (pre-tokenizer and decoder)",
    normalizer: null,
    pre_tokenizer: { type: "Metaspace", replacement: "▁", add_prefix_space: true },
    decoder: {
      type: "Sequence",
      decoders: [
        { type: "Metaspace", replacement: "▁", add_prefix_space: true },
        { type: "ByteFallback" },
        { type: "Fuse" },
      ],
    },
  },
  {
    name: "metaspace-decoder-split",
    models: "SentencePieceBPETokenizer-trained files: Metaspace(always, split) + Metaspace decoder",
    normalizer: null,
    pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
    decoder: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
  },
  {
    name: "metaspace-decoder-after-fallback",
    models: "a Metaspace decoder after ByteFallback",
    normalizer: null,
    pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "first", split: false },
    decoder: {
      type: "Sequence",
      decoders: [{ type: "ByteFallback" }, { type: "Metaspace", replacement: "▁" }],
    },
    refused: /decoder Metaspace/,
  },
];
