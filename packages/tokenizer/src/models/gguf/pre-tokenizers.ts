// `tokenizer.ggml.pre` -> the split regexes llama.cpp runs for that name before byte-level BPE
// (src/llama-vocab.cpp: the name -> LLAMA_VOCAB_PRE_TYPE_* mapping in llama_vocab::impl::load and
// the regex_exprs of llm_tokenizer_bpe, copied as data). Each regex splits every piece the
// previous ones produced, keeping matches and the text between them (HF's Split "Isolated"),
// which is how the byte-level pipeline runs them (../bytelevel/pipeline-spec.ts). `ignoreMerges`:
// a piece that is a whole vocabulary token maps to it directly. Names llama.cpp gives a custom
// splitter (kimi-k2, afmoe, superbpe) or no byte-level encoding (gemma4, whitespace) are absent:
// unsupported-vocabulary naming the pre-tokenizer. Characters that Unicode normalization would
// change (U+1F7D, U+1FBE, U+2126, U+212A, ...) are written as escapes so no editor rewrites them.

export interface GgufPreTokenizer {
  readonly regexes: readonly string[];
  readonly ignoreMerges: boolean;
}

const GPT2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)";
const CONTRACTIONS = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const LLAMA3 = `${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`;
const QWEN2 = `${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`;

const PRE: Readonly<Record<string, readonly string[]>> = {
  DEFAULT: ["[\\p{P}\\$\\+<=>\\^~\\|]+", GPT2, "\\p{N}+", "[0-9][0-9][0-9]"],
  LLAMA3: [LLAMA3],
  DEEPSEEK_LLM: [
    "[\r\n]",
    "\\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-\u{1F7D}ᾀ-ᾴᾶ-ᾼ\u{1FBE}ῂ-ῄῆ-ῌῐ-\u{1FD3}ῖ-\u{1FDB}ῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤ\u{2126}ℨ\u{212A}-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+",
    "\\s?[!-/:-~！-／：-～‘-‟　-。]+",
    "\\s+$",
    "[一-龥ࠀ-一가-퟿]+",
    "\\p{N}+",
  ],
  DEEPSEEK3_LLM: [
    "\\p{N}{1,3}",
    "[一-龥぀-ゟ゠-ヿ]+",
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
  ],
  DEEPSEEK_CODER: ["[\r\n]", "\\s?\\p{L}+", "\\s?\\p{P}+", "[一-龥ࠀ-一가-퟿]+", "\\p{N}"],
  FALCON: ["[\\p{P}\\$\\+<=>\\^~\\|`]+", GPT2, "[0-9][0-9][0-9]"],
  STARCODER: ["\\p{N}", GPT2],
  GPT2: [GPT2],
  QWEN2: [QWEN2],
  QWEN35: [
    `${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?[\\p{L}\\p{M}]+|\\p{N}| ?[^\\s\\p{L}\\p{M}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`,
  ],
  PORO: [" ?[^(\\s|.,!?…。，、।۔،)]+"],
  CHATGLM4: [LLAMA3],
  VIKING: [" ?[^(\\s|.,!?…。，、।۔،)]+", "\\p{N}"],
  SEED_CODER: [
    `${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1}| ?[^\\s\\p{L}\\p{N}\\r\\n]+|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`,
  ],
  BAILINGMOE: [
    "'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+",
  ],
  MINICPM5: [
    "\\p{N}{1,3}",
    `${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}+| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`,
  ],
};

/** name -> [pre type, ignore_merges] (llama_vocab::impl::load). */
const NAMES: Readonly<Record<string, readonly [keyof typeof PRE, boolean]>> = {
  default: ["DEFAULT", false],
  llama3: ["LLAMA3", true],
  "llama-v3": ["LLAMA3", true],
  "llama-bpe": ["LLAMA3", true],
  falcon3: ["LLAMA3", true],
  "falcon-h1": ["LLAMA3", true],
  pixtral: ["LLAMA3", true],
  "midm-2.0": ["LLAMA3", true],
  lfm2: ["LLAMA3", true],
  "jina-v5-nano": ["LLAMA3", true],
  dbrx: ["LLAMA3", false],
  "smaug-bpe": ["LLAMA3", false],
  "deepseek-llm": ["DEEPSEEK_LLM", false],
  "deepseek-coder": ["DEEPSEEK_CODER", false],
  "deepseek-v3": ["DEEPSEEK3_LLM", false],
  "hunyuan-dense": ["DEEPSEEK3_LLM", false],
  "joyai-llm": ["DEEPSEEK3_LLM", false],
  hy_v4: ["DEEPSEEK3_LLM", false],
  falcon: ["FALCON", false],
  mpt: ["GPT2", false],
  starcoder: ["STARCODER", false],
  refact: ["STARCODER", false],
  "command-r": ["STARCODER", false],
  smollm: ["STARCODER", false],
  codeshell: ["STARCODER", false],
  exaone: ["STARCODER", false],
  "minerva-7b": ["STARCODER", false],
  mellum2: ["STARCODER", false],
  "gpt-2": ["GPT2", false],
  "phi-2": ["GPT2", false],
  "jina-es": ["GPT2", false],
  "jina-de": ["GPT2", false],
  gigachat: ["GPT2", false],
  "jina-v2-es": ["GPT2", false],
  "jina-v2-de": ["GPT2", false],
  "a.x-4.0": ["GPT2", false],
  mellum: ["GPT2", false],
  "modern-bert": ["GPT2", false],
  "jina-v1-en": ["GPT2", false],
  "jina-v2-code": ["GPT2", false],
  "roberta-bpe": ["GPT2", false],
  olmo: ["GPT2", false],
  jais: ["GPT2", false],
  trillion: ["GPT2", false],
  "granite-docling": ["GPT2", false],
  exaone4: ["GPT2", false],
  qwen2: ["QWEN2", false],
  "deepseek-r1-qwen": ["QWEN2", false],
  kormo: ["QWEN2", false],
  f2llmv2: ["QWEN2", false],
  megrez: ["QWEN2", false],
  stablelm2: ["QWEN2", false],
  hunyuan: ["QWEN2", false],
  "solar-open": ["QWEN2", false],
  qwen35: ["QWEN35", false],
  "poro-chat": ["PORO", false],
  bloom: ["PORO", false],
  "gpt3-finnish": ["PORO", false],
  glm4: ["CHATGLM4", false],
  "chatglm-bpe": ["CHATGLM4", false],
  viking: ["VIKING", false],
  "seed-coder": ["SEED_CODER", false],
  bailingmoe: ["BAILINGMOE", false],
  bailingmoe2: ["BAILINGMOE", false],
  "llada-moe": ["BAILINGMOE", false],
  minicpm5: ["MINICPM5", true],
};

/** The pre-tokenizer llama.cpp uses for `name` (absent key: "default"), or undefined. */
export function ggufPreTokenizer(name: string | undefined): GgufPreTokenizer | undefined {
  const entry = Object.hasOwn(NAMES, name ?? "default") ? NAMES[name ?? "default"] : undefined;
  if (entry === undefined) return undefined;
  const regexes = PRE[entry[0]];
  return regexes === undefined ? undefined : { regexes, ignoreMerges: entry[1] };
}

/** Every supported `tokenizer.ggml.pre` name (for messages and docs). */
export const GGUF_PRE_TOKENIZER_NAMES: readonly string[] = Object.keys(NAMES);
