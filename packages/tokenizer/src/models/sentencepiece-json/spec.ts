// Parse and validate a SentencePiece-converted tokenizer.json (Gemma 3, Llama 2, Mistral v1):
// BPE over characters with `byte_fallback` (<0xNN> pieces), a normalizer of Replace/Prepend
// steps, a pre-tokenizer of Split(String)/Metaspace, and a decoder of Replace, ByteFallback,
// Fuse, Strip. Any other component is a "bad-tokenizer-file" error naming it, so an
// unsupported file never encodes differently in silence.

import type { MergeTable } from "../bytelevel/bpe.ts";
import type { ScannedTokenizerJson } from "../bytelevel/json-scan.ts";
import { resolveScannedMerges } from "../bytelevel/tokenizer-json.ts";
import { Vocab } from "../bytelevel/vocab.ts";
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

export type NormalizerStep =
  | { readonly kind: "replace"; readonly from: string; readonly to: string }
  | { readonly kind: "prepend"; readonly prefix: string };

export type SplitBehavior = "MergedWithPrevious" | "MergedWithNext" | "Isolated" | "Removed";

export type PreTokenizerStep =
  | { readonly kind: "split"; readonly pattern: string; readonly behavior: SplitBehavior }
  | {
      readonly kind: "metaspace";
      readonly replacement: string;
      readonly prepend: "always" | "first" | "never";
      readonly split: boolean;
    };

export type DecoderStep =
  | { readonly kind: "replace"; readonly from: string; readonly to: string }
  | { readonly kind: "metaspace"; readonly replacement: string; readonly stripFirst: boolean }
  | { readonly kind: "byte-fallback" }
  | { readonly kind: "fuse" }
  | { readonly kind: "strip"; readonly content: string; readonly start: number; readonly stop: number };

export interface SpAddedToken {
  readonly id: number;
  readonly content: string;
  readonly special: boolean;
  /** HF flags; a literal-matched token must have them all false except `normalized` false too. */
  readonly lstrip: boolean;
  readonly rstrip: boolean;
  readonly singleWord: boolean;
  readonly normalized: boolean;
}

export interface SpJsonSpec {
  readonly normalizer: readonly NormalizerStep[];
  readonly preTokenizer: readonly PreTokenizerStep[];
  readonly decoder: readonly DecoderStep[];
  readonly vocab: Vocab;
  /** model.merges in rank order as ids: [3r] left, [3r + 1] right, [3r + 2] merged (-1: not in model.vocab). */
  readonly merges: Int32Array;
  /** The two strings of merge `rank` (for error messages). */
  mergeStrings(rank: number): readonly [string, string];
  /** The table of every merge, when a table file held it (else built at the first encode). */
  readonly mergeTable?: MergeTable;
  readonly byteFallback: boolean;
  readonly unkToken: string | null;
  readonly fuseUnk: boolean;
  readonly ignoreMerges: boolean;
  readonly addedTokens: readonly SpAddedToken[];
}

/**
 * True when a parsed tokenizer.json is the SentencePiece-converted flavour (this module's),
 * false for the byte-level one. Decided by the model and decoder: BPE with byte_fallback, or a
 * decoder holding ByteFallback / Metaspace, or a normalizer/pre-tokenizer writing "▁".
 */
export function isSentencePieceJson(json: unknown): boolean {
  if (!isObject(json)) return false;
  const m = json.model;
  if (isObject(m) && m.byte_fallback === true) return true;
  const types = (v: Json | undefined, key: string): string[] => {
    if (!isObject(v)) return [];
    const inner = v[key];
    if (v.type === "Sequence" && Array.isArray(inner)) return inner.flatMap((x) => types(x, key));
    return typeof v.type === "string" ? [v.type] : [];
  };
  const dec = types(json.decoder, "decoders");
  if (dec.includes("ByteFallback") || dec.includes("Metaspace")) return true;
  const pre = types(json.pre_tokenizer, "pretokenizers");
  if (pre.includes("Metaspace")) return true;
  return JSON.stringify(json.normalizer ?? null).includes("▁");
}

/**
 * Where model.vocab and model.merges come from when not from `root` itself (which then holds
 * them emptied): the fast text scan (../bytelevel/json-scan.ts) or a table file of this content
 * (./model-tables.ts, every merge id already checked against the vocabulary).
 */
export type SpJsonVocabulary =
  | { readonly scanned: ScannedTokenizerJson }
  | {
      readonly stored: {
        readonly vocab: Vocab;
        readonly merges: Int32Array;
        readonly mergeTable?: MergeTable | undefined;
      };
    };

export function parseSpJson(root: unknown, file: string, from?: SpJsonVocabulary): SpJsonSpec {
  const fail = fileFail(file);
  if (!isObject(root)) return fail("top level is not a JSON object");
  for (const key of ["truncation", "padding"]) {
    if (root[key] !== undefined && root[key] !== null) fail(`unsupported ${key} (must be null)`, key);
  }
  const normalizer = parseNormalizer(root.normalizer ?? null, fail);
  const preTokenizer = parsePreTokenizer(root.pre_tokenizer ?? null, fail);
  const decoder = parseDecoder(root.decoder ?? null, fail);
  // post_processor only adds BOS/EOS (add_special_tokens); the ordinary encoder never runs it.
  const m = root.model;
  if (!isObject(m)) return fail("missing model", "model");
  if (m.type !== "BPE")
    fail(`unsupported model type ${JSON.stringify(m.type ?? null)} (supported: BPE)`, "model");
  if (m.dropout !== undefined && m.dropout !== null)
    fail("unsupported model dropout (must be null)", "model.dropout");
  for (const key of ["continuing_subword_prefix", "end_of_word_suffix"]) {
    const v = m[key];
    if (v !== undefined && v !== null && v !== "")
      fail(`unsupported model ${key} ${JSON.stringify(v)}`, `model.${key}`);
  }
  if (!isObject(m.vocab)) return fail("model.vocab is missing or not an object", "model.vocab");
  if (!Array.isArray(m.merges)) return fail("model.merges is missing or not an array", "model.merges");
  const mergeTable = from !== undefined && "stored" in from ? from.stored.mergeTable : undefined;
  const { vocab, merges, mergeStrings } =
    from === undefined
      ? vocabularyOf(m.vocab, m.merges, fail)
      : "scanned" in from
        ? resolveScannedMerges(from.scanned)
        : { ...from.stored, mergeStrings: storedMergeStrings(from.stored) };
  const unk = m.unk_token ?? null;
  if (unk !== null && typeof unk !== "string")
    fail("model.unk_token must be a string or null", "model.unk_token");
  return {
    normalizer,
    preTokenizer,
    decoder,
    vocab,
    merges,
    mergeStrings,
    ...(mergeTable === undefined ? {} : { mergeTable }),
    byteFallback: m.byte_fallback === true,
    unkToken: unk as string | null,
    fuseUnk: m.fuse_unk === true,
    ignoreMerges: m.ignore_merges === true,
    addedTokens: parseAddedTokens(root.added_tokens ?? [], fail),
  };
}

/** model.vocab and model.merges of a parsed file, the merges resolved to ids entry by entry. */
function vocabularyOf(
  vocabObject: JsonObject,
  list: Json[],
  fail: Fail,
): { vocab: Vocab; merges: Int32Array; mergeStrings: (rank: number) => readonly [string, string] } {
  const keys = Object.keys(vocabObject);
  const ids = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const id = vocabObject[keys[i] as string];
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= TOKEN_ID_LIMIT)
      fail(`model.vocab[${JSON.stringify(keys[i])}] is not a valid id`, "model.vocab");
    ids[i] = id as number;
  }
  const vocab = new Vocab(keys, ids);
  const merges = new Int32Array(3 * list.length);
  const pair = (entry: Json, i: number): readonly [string, string] => {
    if (typeof entry === "string") {
      const parts = entry.split(" ");
      if (parts.length !== 2) fail(`model.merges[${i}] is not "a b"`, "model.merges");
      return [parts[0] as string, parts[1] as string];
    }
    if (Array.isArray(entry) && entry.length === 2) {
      const [a, b] = entry;
      if (typeof a === "string" && typeof b === "string") return [a, b];
    }
    return fail(`model.merges[${i}] is neither "a b" nor [a, b]`, "model.merges");
  };
  for (let i = 0; i < list.length; i++) {
    const [a, b] = pair(list[i] as Json, i);
    vocab.resolveMerge(a, b, merges, 3 * i);
  }
  return { vocab, merges, mergeStrings: (rank) => pair(list[rank] as Json, rank) };
}

function storedMergeStrings(stored: {
  readonly vocab: Vocab;
  readonly merges: Int32Array;
}): (rank: number) => readonly [string, string] {
  return (rank) => [
    stored.vocab.pieces[stored.merges[3 * rank] as number] ?? "",
    stored.vocab.pieces[stored.merges[3 * rank + 1] as number] ?? "",
  ];
}

/** A {String: s} pattern (Regex patterns are refused). */
function stringPattern(p: Json | undefined, fail: Fail, field: string, type: string): string {
  if (isObject(p) && typeof p.String === "string" && p.String.length > 0) return p.String;
  return fail(
    `unsupported ${field} ${type} pattern ${JSON.stringify(p ?? null)} (only {String: ...})`,
    field,
  );
}

/**
 * The steps of an optional tokenizer.json component (normalizer, pre_tokenizer): none for null,
 * a Sequence's parts in order (its list under `listKey`), else `one` of the component's type.
 */
function componentSteps<S>(
  c: Json,
  fail: Fail,
  field: string,
  listKey: string,
  one: (type: string, o: JsonObject) => S[],
): S[] {
  if (c === null) return [];
  const type = typeOf(c, fail, field);
  const o = c as JsonObject;
  const list = o[listKey];
  if (type === "Sequence" && Array.isArray(list))
    return list.flatMap((x) => componentSteps(x, fail, field, listKey, one));
  return one(type, o);
}

function parseNormalizer(n: Json, fail: Fail): NormalizerStep[] {
  return componentSteps(n, fail, "normalizer", "normalizers", (type, o) => normalizerStep(type, o, fail));
}

function normalizerStep(type: string, o: JsonObject, fail: Fail): NormalizerStep[] {
  if (type === "Replace") {
    if (typeof o.content !== "string") fail("normalizer Replace needs a string content", "normalizer");
    return [
      { kind: "replace", from: stringPattern(o.pattern, fail, "normalizer", type), to: o.content as string },
    ];
  }
  if (type === "Prepend" && typeof o.prepend === "string") return [{ kind: "prepend", prefix: o.prepend }];
  return fail(
    `unsupported normalizer "${type}" (supported: Replace(String), Prepend, Sequence, null)`,
    "normalizer",
  );
}

const BEHAVIORS: readonly string[] = ["MergedWithPrevious", "MergedWithNext", "Isolated", "Removed"];

function parsePreTokenizer(p: Json, fail: Fail): PreTokenizerStep[] {
  return componentSteps(p, fail, "pre_tokenizer", "pretokenizers", (type, o) =>
    preTokenizerStep(type, o, fail),
  );
}

function preTokenizerStep(type: string, o: JsonObject, fail: Fail): PreTokenizerStep[] {
  if (type === "Split") {
    if (o.invert === true) fail("unsupported pre_tokenizer Split invert: true", "pre_tokenizer");
    if (typeof o.behavior !== "string" || !BEHAVIORS.includes(o.behavior))
      fail(`unsupported pre_tokenizer Split behavior ${JSON.stringify(o.behavior ?? null)}`, "pre_tokenizer");
    return [
      {
        kind: "split",
        pattern: stringPattern(o.pattern, fail, "pre_tokenizer", type),
        behavior: o.behavior as SplitBehavior,
      },
    ];
  }
  if (type === "Metaspace") {
    const { replacement, scheme } = metaspaceOf(o, fail, "pre_tokenizer");
    return [
      {
        kind: "metaspace",
        replacement,
        prepend: scheme,
        split: o.split !== false,
      },
    ];
  }
  return fail(
    `unsupported pre_tokenizer "${type}" (supported: Split(String), Metaspace, Sequence, null)`,
    "pre_tokenizer",
  );
}

function parseDecoder(d: Json, fail: Fail): DecoderStep[] {
  if (d === null) return fail("missing decoder (supported: Replace, ByteFallback, Fuse, Strip)", "decoder");
  const type = typeOf(d, fail, "decoder");
  const o = d as JsonObject;
  if (type === "Sequence" && Array.isArray(o.decoders)) {
    const steps = o.decoders.flatMap((x) => parseDecoder(x, fail));
    // The stream decoder's table models a Metaspace decoder only first, followed by no Replace or Strip.
    const meta = steps.findIndex((s) => s.kind === "metaspace");
    if (meta > 0 || (meta === 0 && steps.some((s) => s.kind === "replace" || s.kind === "strip")))
      fail(
        "unsupported decoder Metaspace (supported: first in the Sequence, with no Replace or Strip)",
        "decoder",
      );
    // The stream decoder's table models a Strip only on the fused text's start (Llama 2's).
    const fuse = steps.findIndex((s) => s.kind === "fuse");
    steps.forEach((s, i) => {
      if (
        s.kind === "strip" &&
        (fuse < 0 || i < fuse || s.stop !== 0 || s.start > 1 || [...s.content].length !== 1)
      )
        fail(
          "unsupported decoder Strip (supported: after Fuse, start 0 or 1, stop 0, one-character content)",
          "decoder",
        );
      if (s.kind !== "strip" && fuse >= 0 && i > fuse)
        fail(`unsupported decoder ${s.kind} after Fuse (only Strip may follow it)`, "decoder");
    });
    return steps;
  }
  if (type === "Replace") {
    if (typeof o.content !== "string") fail("decoder Replace needs a string content", "decoder");
    return [
      { kind: "replace", from: stringPattern(o.pattern, fail, "decoder", type), to: o.content as string },
    ];
  }
  if (type === "Metaspace") {
    const { replacement, scheme } = metaspaceOf(o, fail, "decoder");
    return [{ kind: "metaspace", replacement, stripFirst: scheme !== "never" }];
  }
  if (type === "ByteFallback") return [{ kind: "byte-fallback" }];
  if (type === "Fuse") return [{ kind: "fuse" }];
  if (type === "Strip") {
    const { content, start, stop } = o;
    if (typeof content !== "string" || typeof start !== "number" || typeof stop !== "number")
      fail("decoder Strip needs content, start and stop", "decoder");
    return [{ kind: "strip", content: content as string, start: start as number, stop: stop as number }];
  }
  return fail(
    `unsupported decoder "${type}" (supported: Replace(String), Metaspace, ByteFallback, Fuse, Strip)`,
    "decoder",
  );
}

function parseAddedTokens(a: Json, fail: Fail): SpAddedToken[] {
  return addedTokenEntries(a, fail).map((t) => ({
    id: t.id,
    content: t.content,
    special: t.special === true,
    lstrip: t.lstrip === true,
    rstrip: t.rstrip === true,
    singleWord: t.single_word === true,
    // HF's default for a token without the flag: normalized unless special.
    normalized: t.normalized === undefined ? t.special !== true : t.normalized === true,
  }));
}

/** A Metaspace component's replacement character and prepend scheme (pre_tokenizer and decoder alike). */
function metaspaceOf(
  o: JsonObject,
  fail: Fail,
  where: "pre_tokenizer" | "decoder",
): { replacement: string; scheme: "always" | "first" | "never" } {
  const replacement = o.replacement;
  if (typeof replacement !== "string" || [...replacement].length !== 1)
    fail(`${where} Metaspace needs a one-character replacement`, where);
  // Older files spell the scheme as add_prefix_space (true = always).
  const scheme = o.prepend_scheme ?? (o.add_prefix_space === false ? "never" : "always");
  if (scheme !== "always" && scheme !== "first" && scheme !== "never")
    fail(`unsupported ${where} Metaspace prepend_scheme ${JSON.stringify(scheme)}`, where);
  return { replacement: replacement as string, scheme: scheme as "always" | "first" | "never" };
}
