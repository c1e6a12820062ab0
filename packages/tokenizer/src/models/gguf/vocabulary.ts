// A GGUF's tokenizer metadata (tokenizer.ggml.*, tokenizer.chat_template*) as the tokenizer files
// the loaders already read (../../load/load.ts TokenizerFiles), so a GGUF goes through the same text
// models, family detection, reserved-ID verification and template path as a model directory:
//   gpt2  -> tokenizer.json: byte-level BPE (vocab, merges, the split regexes llama.cpp uses for
//            tokenizer.ggml.pre: ./pre-tokenizers.ts, ignore_merges), CONTROL and USER_DEFINED
//            tokens as added tokens
//   llama -> tokenizer.model: a SentencePiece BPE ModelProto (./spm-proto.ts)
//   both  -> tokenizer_config.json (special tokens, add_bos/add_eos, added_tokens_decoder: every
//            CONTROL and USER_DEFINED token, chat_template and named templates) and
//            generation_config.json (eos, eot and eom IDs: stop IDs).
// Other tokenizer.ggml.model values (bert, t5, rwkv, plamo2, gemma4, ...) are refused with
// unsupported-vocabulary naming the type; so is an unknown pre-tokenizer name.
//
// Token types follow llama.cpp (LLAMA_TOKEN_TYPE_*), the same numbers as SentencePiece's.

import { TokenizerError } from "../../errors.ts";
import { CHAR_TO_BYTE } from "../bytelevel/byte-alphabet.ts";
import { PieceIndex } from "../sentencepiece/piece-index.ts";
import { ggufPreTokenizer } from "./pre-tokenizers.ts";
import type { GgufMetadata, GgufValue } from "./reader.ts";
import { writeSpmProto } from "./spm-proto.ts";
import { Utf8Writer } from "./utf8-writer.ts";

const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const USER_DEFINED = 4;
const UNUSED = 5;
const BYTE = 6;

export type GgufVocabularyType = "gpt2" | "llama";

export interface GgufTokenizerFiles {
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  /** tokenizer.ggml.model. */
  readonly type: GgufVocabularyType;
  /** tokenizer.ggml.pre (gpt2 only; undefined when absent: llama.cpp's "default"). */
  readonly pre: string | undefined;
  readonly vocabSize: number;
  /** The token strings by ID (for comparing vocabularies). */
  readonly tokens: readonly string[];
  /** bos/eos/eot/eom/unk/pad IDs the file sets (in range), by name. */
  readonly special: Readonly<Record<string, number>>;
  readonly addBos: boolean;
  readonly addEos: boolean;
}

/** Metadata accessors with typed errors (the key and what it should be). */
class Keys {
  constructor(
    private readonly meta: GgufMetadata,
    private readonly file: string,
  ) {}

  fail(key: string, what: string): never {
    throw new TokenizerError("bad-gguf-file", `${this.file}: ${key} ${what}`, {
      file: this.file,
      field: key,
    });
  }

  get(key: string): GgufValue | undefined {
    return this.meta.kv.get(key);
  }

  string(key: string): string | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    return v.type === "string" ? v.value : this.fail(key, `must be a string, not ${v.type}`);
  }

  bool(key: string): boolean | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    return v.type === "bool" ? v.value : this.fail(key, `must be a bool, not ${v.type}`);
  }

  /** An unsigned integer key (any integer type) as a number; out of [0, 2^32) fails. */
  id(key: string): number | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (
      v.type === "array" ||
      v.type === "string" ||
      v.type === "bool" ||
      v.type === "f32" ||
      v.type === "f64"
    )
      return this.fail(key, `must be an integer, not ${v.type}`);
    const n = Number(v.value);
    if (!Number.isSafeInteger(n) || n < 0 || n >= 2 ** 32) return this.fail(key, `${n} is not a token ID`);
    return n;
  }

  strings(key: string): readonly string[] | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (v.type !== "array" || v.array.type !== "string") return this.fail(key, "must be an array of strings");
    return v.array.items;
  }

  /** A numeric array of one of `types`, at least `min` items long. */
  numbers(key: string, types: readonly string[], min: number): ArrayLike<number> | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (v.type !== "array" || !types.includes(v.array.type))
      return this.fail(key, `must be an array of ${types.join(" or ")}`);
    const items = v.array.items as ArrayLike<number>;
    if (items.length < min)
      return this.fail(key, `has ${items.length} entries, fewer than the ${min} tokens`);
    return items;
  }
}

/** The special-token keys llama.cpp reads, by the name they get here. */
const SPECIAL_KEYS: readonly (readonly [string, string])[] = [
  ["bos", "tokenizer.ggml.bos_token_id"],
  ["eos", "tokenizer.ggml.eos_token_id"],
  ["eot", "tokenizer.ggml.eot_token_id"],
  ["eom", "tokenizer.ggml.eom_token_id"],
  ["unk", "tokenizer.ggml.unknown_token_id"],
  ["pad", "tokenizer.ggml.padding_token_id"],
];

/** The tokenizer files of a GGUF's metadata (see the file comment). */
export function ggufTokenizerFiles(meta: GgufMetadata, file: string): GgufTokenizerFiles {
  const k = new Keys(meta, file);
  const model = k.string("tokenizer.ggml.model");
  if (model === undefined)
    throw new TokenizerError(
      "bad-gguf-file",
      `${file}: no tokenizer.ggml.model (the file holds no tokenizer)`,
      {
        file,
        field: "tokenizer.ggml.model",
      },
    );
  if (model !== "gpt2" && model !== "llama")
    throw new TokenizerError(
      "unsupported-vocabulary",
      `${file}: tokenizer.ggml.model "${model}" is not supported (supported: gpt2 = byte-level BPE, llama = SentencePiece)`,
      { file, field: "tokenizer.ggml.model", vocabulary: model },
    );
  const tokens = k.strings("tokenizer.ggml.tokens") ?? k.fail("tokenizer.ggml.tokens", "is missing");
  const n = tokens.length;
  if (n === 0) k.fail("tokenizer.ggml.tokens", "is empty");
  const types = k.numbers("tokenizer.ggml.token_type", ["i32"], n) ?? new Int32Array(n).fill(NORMAL);
  // The integer-hash index finds equal strings several times faster than a Map of every token.
  const twice = new PieceIndex(tokens).duplicates;
  if (twice.length > 0) {
    const [prev, i] = twice as [number, number];
    k.fail("tokenizer.ggml.tokens", `holds ${JSON.stringify(tokens[i])} twice (IDs ${prev} and ${i})`);
  }
  const special: Record<string, number> = {};
  const defaults: Record<string, number> = model === "llama" ? { bos: 1, eos: 2, unk: 0 } : {};
  for (const [name, key] of SPECIAL_KEYS) {
    // Out of range: ignored, as llama.cpp does (it warns and keeps its default).
    const id = k.id(key) ?? defaults[name];
    if (id !== undefined && id < n) special[name] = id;
  }
  const preName = model === "gpt2" ? k.string("tokenizer.ggml.pre") : undefined;
  const pre = model === "gpt2" ? ggufPreTokenizer(preName) : undefined;
  if (model === "gpt2" && pre === undefined)
    throw new TokenizerError(
      "unsupported-vocabulary",
      `${file}: tokenizer.ggml.pre "${preName}" is not a supported pre-tokenizer`,
      { file, field: "tokenizer.ggml.pre", vocabulary: `gpt2/${preName}` },
    );
  const addBos = k.bool("tokenizer.ggml.add_bos_token") ?? (model === "llama" || pre?.ignoreMerges === true);
  const addEos = k.bool("tokenizer.ggml.add_eos_token") ?? false;

  const added: { id: number; content: string; special: boolean }[] = [];
  for (let i = 0; i < n; i++) {
    const t = types[i];
    const content = tokens[i] as string;
    // SentencePiece has one unknown piece; other UNKNOWN-typed tokens (Phi-3's [PAD...]) are
    // placeholders nothing encodes to: control tokens.
    if (model === "llama" && i === special.unk) continue;
    const extraUnknown = model === "llama" && t === UNKNOWN;
    if (t === CONTROL || extraUnknown || t === USER_DEFINED)
      added.push({ id: i, content, special: t !== USER_DEFINED });
  }
  const files: Record<string, string | Uint8Array> = {};
  if (model === "gpt2") {
    const merges = k.strings("tokenizer.ggml.merges") ?? k.fail("tokenizer.ggml.merges", "is missing");
    files["tokenizer.json"] = byteLevelJson(
      tokens,
      added,
      merges,
      pre?.regexes ?? [],
      pre?.ignoreMerges === true,
    );
  } else {
    const scores = k.numbers("tokenizer.ggml.scores", ["f32", "i32"], n);
    const spmTypes = new Int32Array(n);
    let byteFallback = false;
    for (let i = 0; i < n; i++) {
      const t = types[i] ?? NORMAL;
      spmTypes[i] =
        i === special.unk ? UNKNOWN : t === UNKNOWN ? CONTROL : t >= NORMAL && t <= BYTE ? t : NORMAL;
      if (t === BYTE) byteFallback = true;
    }
    files["tokenizer.model"] = writeSpmProto({
      pieces: tokens,
      scores,
      types: spmTypes,
      addSpacePrefix: k.bool("tokenizer.ggml.add_space_prefix") ?? true,
      removeExtraWhitespaces: k.bool("tokenizer.ggml.remove_extra_whitespaces") ?? false,
      byteFallback,
      unkId: special.unk ?? 0,
      bosId: special.bos ?? -1,
      eosId: special.eos ?? -1,
      padId: special.pad ?? -1,
    });
  }
  files["tokenizer_config.json"] = JSON.stringify(configJson(k, tokens, special, added, addBos, addEos));
  const stops = ["eos", "eot", "eom"].flatMap((s) =>
    special[s] === undefined ? [] : [special[s] as number],
  );
  if (stops.length > 0)
    files["generation_config.json"] = JSON.stringify({ eos_token_id: [...new Set(stops)] });
  return { files, type: model, pre: preName, vocabSize: n, tokens, special, addBos, addEos };
}

function configJson(
  k: Keys,
  tokens: readonly string[],
  special: Readonly<Record<string, number>>,
  added: readonly { id: number; content: string; special: boolean }[],
  addBos: boolean,
  addEos: boolean,
): Record<string, unknown> {
  const config: Record<string, unknown> = { add_bos_token: addBos, add_eos_token: addEos };
  for (const [name, key] of [
    ["bos", "bos_token"],
    ["eos", "eos_token"],
    ["unk", "unk_token"],
    ["pad", "pad_token"],
  ] as const) {
    const id = special[name];
    if (id !== undefined) config[key] = tokens[id];
  }
  const decl: Record<string, unknown> = {};
  for (const t of added)
    decl[String(t.id)] = {
      content: t.content,
      special: t.special,
      lstrip: false,
      rstrip: false,
      normalized: false,
      single_word: false,
    };
  config.added_tokens_decoder = decl;
  const template = k.string("tokenizer.chat_template");
  // Named templates: tokenizer.chat_templates lists the names, tokenizer.chat_template.NAME holds each.
  const names = k.strings("tokenizer.chat_templates") ?? [];
  const named = names.flatMap((name) => {
    const t = k.string(`tokenizer.chat_template.${name}`);
    return t === undefined ? [] : [{ name, template: t }];
  });
  if (named.length > 0 && template !== undefined)
    config.chat_template = [{ name: "default", template }, ...named.filter((t) => t.name !== "default")];
  else if (template !== undefined) config.chat_template = template;
  return config;
}

/**
 * tokenizer.json of a byte-level vocabulary, as UTF-8 bytes written in one buffer (template
 * strings per token joined into one text cost several times more; the loaders decode the bytes
 * in one call and the fast reader scans them). Its model carries chatwire_llama_cpp_symbols: a
 * byte or merge piece missing from the vocabulary follows llama.cpp's rule
 * (../bytelevel/llama-cpp-symbols.ts), as for Falcon's and StarCoder's files, which lack some
 * byte symbols.
 */
function byteLevelJson(
  tokens: readonly string[],
  added: readonly { id: number; content: string; special: boolean }[],
  merges: readonly string[],
  regexes: readonly string[],
  ignoreMerges: boolean,
): Uint8Array {
  const addedIds = new Set(added.map((t) => t.id));
  const pre = {
    type: "Sequence",
    pretokenizers: [
      ...regexes.map((r) => ({ type: "Split", pattern: { Regex: r }, behavior: "Isolated", invert: false })),
      { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false },
    ],
  };
  const addedJson = added.map((t) => ({
    id: t.id,
    content: t.content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: t.special,
  }));
  let chars = 0;
  for (const t of tokens) chars += t.length;
  for (const m of merges) chars += m.length;
  const w = new Utf8Writer(2 * chars + 16 * (tokens.length + merges.length) + 4096);
  // JSON.stringify for the small parts, which may hold any character (JSON text is UTF-8).
  w.text(
    `{"version":"1.0","truncation":null,"padding":null,"added_tokens":${JSON.stringify(addedJson)},"normalizer":null,"pre_tokenizer":${JSON.stringify(pre)},"post_processor":null,"decoder":{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false,"use_regex":false},"model":{"type":"BPE","dropout":null,"unk_token":null,"continuing_subword_prefix":null,"end_of_word_suffix":null,"fuse_unk":false,"byte_fallback":false,"ignore_merges":${ignoreMerges},"chatwire_llama_cpp_symbols":true,"vocab":{`,
  );
  // Added tokens stay out of the vocabulary (the encoder never produces them), except a lone
  // symbol of a byte UTF-8 never holds: part of the byte alphabet, and unreachable from text.
  let first = true;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    if (addedIds.has(i) && !impossibleByte(t)) continue;
    if (!first) w.byte(0x2c); // ,
    first = false;
    w.jsonString(t);
    w.byte(0x3a); // :
    w.ascii(String(i));
  }
  w.ascii(`},"merges":[`);
  first = true;
  for (const m of merges) {
    // llama.cpp splits at the first space after the first character; a merge without one
    // becomes ("", "") there, which never applies: skipped here (the others keep their order).
    const at = m.indexOf(" ", 1);
    if (at < 0) continue;
    if (!first) w.byte(0x2c);
    first = false;
    // "a b" when that is unambiguous (the fast reader's common case), else [a, b].
    if (m.indexOf(" ", at + 1) < 0 && m.indexOf(" ") === at) w.jsonString(m);
    else {
      w.byte(0x5b); // [
      w.jsonString(m.slice(0, at));
      w.byte(0x2c);
      w.jsonString(m.slice(at + 1));
      w.byte(0x5d); // ]
    }
  }
  w.ascii("]}}");
  return w.result();
}

/**
 * A byte-level symbol of a byte that never occurs in UTF-8 (0xC0, 0xC1, 0xF5-0xFF). DeepSeek's
 * files type these USER_DEFINED; byte-level BPE never produces them from text, so they stay
 * ordinary vocabulary pieces (blocking them would leave the alphabet incomplete).
 */
function impossibleByte(content: string): boolean {
  if (content.length !== 1) return false;
  const b = CHAR_TO_BYTE[content.charCodeAt(0)] ?? -1;
  return b === 0xc0 || b === 0xc1 || b >= 0xf5;
}

export { BYTE, CONTROL, NORMAL, UNKNOWN, UNUSED, USER_DEFINED };
