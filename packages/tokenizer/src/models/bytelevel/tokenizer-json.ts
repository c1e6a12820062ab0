// Parse and validate a tokenizer.json for a byte-level BPE model (GPT-2 / Qwen / Llama-3 style).
// Exactly the components such models use are accepted; anything else is a "bad-tokenizer-file"
// error naming the component, so an unsupported file never encodes differently in silence.

import {
  addedTokenEntries,
  type Fail,
  fileFail,
  isObject,
  type Json,
  type JsonObject,
  TOKEN_ID_LIMIT,
  typeOf,
} from "../tokenizer-json-fields.ts";
import type { ScannedTokenizerJson } from "./json-scan.ts";
import { GPT2_PATTERN, RegexTranslateError, translateOnigPattern } from "./regex-translate.ts";
import { Vocab } from "./vocab.ts";

export interface AddedTokenSpec {
  readonly id: number;
  readonly content: string;
  readonly special: boolean;
}

export interface ByteLevelBpeSpec {
  /** NFC normalization before pre-tokenization. */
  readonly nfc: boolean;
  /** JS source of the pre-tokenizer regex (Isolated split), for `new RegExp(src, "gv")`. */
  readonly splitPattern: string;
  /** The original (Oniguruma) pattern, for messages. */
  readonly onigPattern: string;
  /** Vocabulary piece <-> id. */
  readonly vocab: Vocab;
  /**
   * Merges in rank order as ids: [3r] = left, [3r + 1] = right, [3r + 2] = merged (-1 = the
   * piece is missing from the vocabulary; the model reports the first such merge). Undefined
   * only for a table file that holds the merge table instead (StoredVocabulary).
   */
  readonly merges: Int32Array | undefined;
  /** Number of merges (ranks). */
  readonly mergeCount: number;
  /** The [left, right] strings of merge `rank` (for messages). */
  mergeStrings(rank: number): readonly [string, string];
  /** BPE ignore_merges: a pre-token that is a whole vocabulary piece maps to it directly. */
  readonly ignoreMerges: boolean;
  /**
   * chatwire's own model key `chatwire_llama_cpp_symbols: true`, which only the GGUF converter
   * writes (../gguf/vocabulary.ts): symbols outside the vocabulary follow llama.cpp's rule
   * (./llama-cpp-symbols.ts) instead of failing the load. HF files never carry it.
   */
  readonly llamaCppSymbols: boolean;
  readonly addedTokens: readonly AddedTokenSpec[];
}

/**
 * Parse (when given a string) and validate a tokenizer.json. `file` names it in errors. With
 * `scanned` (json-scan.ts), `json` is its `rest` and the vocabulary and merges come from it.
 */
export function parseByteLevelTokenizerJson(
  json: string | object,
  file: string,
  scanned?: ScannedTokenizerJson,
  stored?: StoredVocabulary,
): ByteLevelBpeSpec {
  const fail = fileFail(file);
  let root: unknown = json;
  if (typeof json === "string") {
    try {
      root = JSON.parse(json);
    } catch (e) {
      fail(`not valid JSON (truncated or corrupt): ${(e as Error).message}`);
    }
  }
  if (!isObject(root)) return fail("top level is not a JSON object");

  for (const key of ["truncation", "padding"]) {
    if (root[key] !== undefined && root[key] !== null) fail(`unsupported ${key} (must be null)`, key);
  }
  const nfc = parseNormalizer(root.normalizer ?? null, fail);
  const onigPattern = parsePreTokenizer(root.pre_tokenizer ?? null, fail);
  let splitPattern = "";
  try {
    splitPattern = translateOnigPattern(onigPattern);
    new RegExp(splitPattern, "gv");
  } catch (e) {
    const why = e instanceof RegexTranslateError || e instanceof SyntaxError ? e.message : String(e);
    fail(`unsupported pre_tokenizer regex ${JSON.stringify(onigPattern)}: ${why}`, "pre_tokenizer");
  }
  parsePostProcessor(root.post_processor ?? null, fail);
  parseDecoder(root.decoder ?? null, fail);
  const { vocab, merges, mergeCount, mergeStrings, ignoreMerges } = parseModel(
    root.model,
    fail,
    scanned,
    stored,
  );
  const addedTokens = parseAddedTokens(root.added_tokens ?? [], fail);
  const llamaCppSymbols = isObject(root.model) && root.model.chatwire_llama_cpp_symbols === true;
  return {
    nfc,
    splitPattern,
    onigPattern,
    vocab,
    merges,
    mergeCount,
    mergeStrings,
    ignoreMerges,
    llamaCppSymbols,
    addedTokens,
  };
}

function parseNormalizer(n: Json, fail: Fail): boolean {
  if (n === null) return false;
  const type = typeOf(n, fail, "normalizer");
  if (type === "NFC") return true;
  if (type === "Sequence" && isObject(n) && Array.isArray(n.normalizers)) {
    let nfc = false;
    for (const inner of n.normalizers) nfc = parseNormalizer(inner, fail) || nfc;
    return nfc;
  }
  return fail(`unsupported normalizer "${type}" (supported: NFC, Sequence of NFC, null)`, "normalizer");
}

function parseByteLevelFlags(p: JsonObject, fail: Fail, field: string): boolean {
  if (p.add_prefix_space === true) fail(`unsupported ${field} ByteLevel add_prefix_space: true`, field);
  return p.use_regex !== false;
}

/** Returns the Oniguruma split pattern. */
function parsePreTokenizer(p: Json, fail: Fail): string {
  if (p === null) return fail("missing pre_tokenizer (byte-level BPE needs ByteLevel)", "pre_tokenizer");
  const type = typeOf(p, fail, "pre_tokenizer");
  if (type === "ByteLevel" && isObject(p)) {
    if (!parseByteLevelFlags(p, fail, "pre_tokenizer")) {
      fail("unsupported pre_tokenizer ByteLevel with use_regex: false and no Split", "pre_tokenizer");
    }
    return GPT2_PATTERN;
  }
  if (type === "Sequence" && isObject(p) && Array.isArray(p.pretokenizers) && p.pretokenizers.length === 2) {
    const [split, byteLevel] = p.pretokenizers as [Json, Json];
    const st = typeOf(split, fail, "pre_tokenizer");
    const bt = typeOf(byteLevel, fail, "pre_tokenizer");
    if (st === "Split" && bt === "ByteLevel" && isObject(split) && isObject(byteLevel)) {
      if (parseByteLevelFlags(byteLevel, fail, "pre_tokenizer")) {
        fail("unsupported pre_tokenizer ByteLevel use_regex: true after Split", "pre_tokenizer");
      }
      if (split.behavior !== "Isolated")
        fail(`unsupported pre_tokenizer Split behavior ${JSON.stringify(split.behavior)}`, "pre_tokenizer");
      if (split.invert === true) fail("unsupported pre_tokenizer Split invert: true", "pre_tokenizer");
      const pattern = split.pattern;
      if (!isObject(pattern) || typeof pattern.Regex !== "string") {
        return fail("unsupported pre_tokenizer Split pattern (only {Regex: ...})", "pre_tokenizer");
      }
      return pattern.Regex;
    }
  }
  return fail(
    `unsupported pre_tokenizer "${type}" (supported: Sequence[Split(Regex, Isolated), ByteLevel] or ByteLevel)`,
    "pre_tokenizer",
  );
}

function parsePostProcessor(p: Json, fail: Fail): void {
  if (p === null) return;
  const type = typeOf(p, fail, "post_processor");
  if (type !== "ByteLevel")
    fail(`unsupported post_processor "${type}" (supported: ByteLevel, null)`, "post_processor");
}

function parseDecoder(d: Json, fail: Fail): void {
  if (d === null) fail("missing decoder (byte-level BPE needs ByteLevel)", "decoder");
  const type = typeOf(d, fail, "decoder");
  if (type !== "ByteLevel") fail(`unsupported decoder "${type}" (supported: ByteLevel)`, "decoder");
}

/** The vocabulary and merges of an earlier load (a table file, model-tables.ts); `json` is then the rest. */
export interface StoredVocabulary {
  readonly vocab: Vocab;
  /** Undefined when the file holds the merge table instead. */
  readonly merges: Int32Array | undefined;
  /** Number of merges. */
  readonly ranks: number;
}

function parseModel(
  m: Json | undefined,
  fail: Fail,
  scanned: ScannedTokenizerJson | undefined,
  stored?: StoredVocabulary,
): {
  vocab: Vocab;
  merges: Int32Array | undefined;
  mergeCount: number;
  mergeStrings: (rank: number) => readonly [string, string];
  ignoreMerges: boolean;
} {
  if (m === undefined || !isObject(m)) return fail("missing model", "model");
  if (m.type !== "BPE")
    fail(`unsupported model type ${JSON.stringify(m.type ?? null)} (supported: BPE)`, "model");
  if (m.dropout !== undefined && m.dropout !== null)
    fail("unsupported model dropout (must be null)", "model.dropout");
  if (m.byte_fallback === true) fail("unsupported model byte_fallback: true", "model.byte_fallback");
  for (const key of ["continuing_subword_prefix", "end_of_word_suffix"]) {
    const v = m[key];
    if (v !== undefined && v !== null && v !== "")
      fail(`unsupported model ${key} ${JSON.stringify(v)}`, `model.${key}`);
  }
  if (!isObject(m.vocab)) return fail("model.vocab is missing or not an object", "model.vocab");
  if (stored !== undefined) {
    if (!Array.isArray(m.merges)) return fail("model.merges is missing or not an array", "model.merges");
    // Every merge id was checked against the vocabulary when the table file was read.
    const merges = stored.merges;
    const mergeStrings = (rank: number): readonly [string, string] => [
      (merges && stored.vocab.piece(merges[3 * rank]!)) ?? "",
      (merges && stored.vocab.piece(merges[3 * rank + 1]!)) ?? "",
    ];
    return {
      vocab: stored.vocab,
      merges,
      mergeCount: stored.ranks,
      mergeStrings,
      ignoreMerges: m.ignore_merges === true,
    };
  }
  if (scanned !== undefined) {
    if (!Array.isArray(m.merges)) return fail("model.merges is missing or not an array", "model.merges");
    const resolved = resolveScannedMerges(scanned);
    return { ...resolved, mergeCount: resolved.merges.length / 3, ignoreMerges: m.ignore_merges === true };
  }
  const vocabObject = m.vocab;
  const keys = Object.keys(vocabObject);
  const ids = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const piece = keys[i]!;
    const id = vocabObject[piece];
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= TOKEN_ID_LIMIT) {
      fail(`model.vocab[${JSON.stringify(piece)}] is not a valid id`, "model.vocab");
    }
    ids[i] = id as number;
  }
  const vocab = new Vocab(keys, ids);
  if (!Array.isArray(m.merges)) return fail("model.merges is missing or not an array", "model.merges");
  const list = m.merges;
  // Resolved to ids right here, entry by entry, without copying the list into [a, b] pairs.
  const merges = new Int32Array(3 * list.length);
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (typeof entry === "string") {
      const parts = entry.split(" ");
      if (parts.length !== 2) fail(`model.merges[${i}] is not "a b"`, "model.merges");
      vocab.resolveMerge(parts[0]!, parts[1]!, merges, 3 * i);
    } else if (
      Array.isArray(entry) &&
      entry.length === 2 &&
      typeof entry[0] === "string" &&
      typeof entry[1] === "string"
    ) {
      vocab.resolveMerge(entry[0], entry[1], merges, 3 * i);
    } else {
      fail(`model.merges[${i}] is neither "a b" nor [a, b]`, "model.merges");
    }
  }
  const mergeStrings = (rank: number): readonly [string, string] => {
    const entry = list[rank];
    return typeof entry === "string"
      ? (entry.split(" ") as [string, string])
      : [(entry as string[])[0]!, (entry as string[])[1]!];
  };
  return { vocab, merges, mergeCount: list.length, mergeStrings, ignoreMerges: m.ignore_merges === true };
}

/** The merges of a scanned file (json-scan.ts), resolved to ids (-1: a piece not in the vocabulary). */
export function resolveScannedMerges(scanned: ScannedTokenizerJson): {
  vocab: Vocab;
  merges: Int32Array;
  mergeStrings: (rank: number) => readonly [string, string];
} {
  const { vocab, text, mergeRanges: m, mergeCount, escaped } = scanned;
  const merges = new Int32Array(3 * mergeCount);
  for (let r = 0; r < mergeCount; r++) {
    const at = m[4 * r]!;
    if (at >= 0)
      vocab.resolveMergeRange(text, at, m[4 * r + 1]!, m[4 * r + 2]!, m[4 * r + 3]!, merges, 3 * r);
    else {
      const [a, b] = escaped.get(r)!;
      vocab.resolveMerge(a, b, merges, 3 * r);
    }
  }
  const mergeStrings = (rank: number): readonly [string, string] =>
    m[4 * rank]! >= 0
      ? [text.slice(m[4 * rank]!, m[4 * rank + 1]!), text.slice(m[4 * rank + 2]!, m[4 * rank + 3]!)]
      : escaped.get(rank)!;
  return { vocab, merges, mergeStrings };
}

function parseAddedTokens(a: Json, fail: Fail): AddedTokenSpec[] {
  return addedTokenEntries(a, fail).map((t) => {
    // HF applies these where it matches the token in text (a rendered template around it): the
    // native encoders place added tokens as IDs and would not strip or refuse the text beside
    // them. The template path applies lstrip / rstrip itself (../../template/strip-sink.ts) and
    // takes them off before this loader; single_word is refused there too.
    for (const flag of ["lstrip", "rstrip", "single_word"])
      if (t[flag] === true)
        fail(`unsupported added token ${JSON.stringify(t.content)} with ${flag}: true`, "added_tokens");
    return { id: t.id, content: t.content, special: t.special === true };
  });
}
