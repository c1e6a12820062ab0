// The normalizer and pre-tokenizer of a byte-level tokenizer.json beyond what the BPE core reads
// itself (NFC + one Isolated Split or GPT-2's ByteLevel regex). Real files use (docs/formats.md,
// "tokenizer.json components: what the loader reads"):
//   normalizer    NFC, NFD, NFKC, NFKD, Lowercase, Strip, Replace(String), Prepend, Sequence, null
//   pre_tokenizer Sequence of Split(Regex | String; any behavior; invert), Digits, Punctuation,
//                 Whitespace, WhitespaceSplit, ended by ByteLevel (use_regex, add_prefix_space)
// This file turns them into plain steps (./pipeline.ts runs them); anything else is a
// "bad-tokenizer-file" error naming the component. Each step is a re-implementation of HF
// tokenizers' Rust code (normalizers/*.rs, pre_tokenizers/*.rs, NormalizedString::split), checked
// against the Rust crate by test/tokenizer-breadth.test.ts.

import { type Fail, isObject, type Json, type JsonObject, typeOf } from "../tokenizer-json-fields.ts";
import { translateOnigPattern, WHITE_SPACE } from "./regex-translate.ts";

export type Behavior = "Isolated" | "Removed" | "MergedWithPrevious" | "MergedWithNext" | "Contiguous";

export type NormalizerStep =
  | { readonly kind: "unicode"; readonly form: "NFC" | "NFD" | "NFKC" | "NFKD" }
  | { readonly kind: "lowercase" }
  | { readonly kind: "strip"; readonly left: boolean; readonly right: boolean }
  | { readonly kind: "replace"; readonly from: string; readonly to: string }
  | { readonly kind: "prepend"; readonly prefix: string };

/**
 * One splitting step: `source` is a JS RegExp source for flags "gv". `trailingSpace`: the step is
 * DeepSeek LLM's `\s+$`, matched by a linear scan instead (pipeline.ts): backtracking takes
 * quadratic time on a long whitespace run followed by anything but a line end.
 */
export interface SplitStep {
  readonly name: string;
  readonly source: string;
  readonly behavior: Behavior;
  readonly invert: boolean;
  readonly trailingSpace?: true;
}

export interface BytePipelineSpec {
  readonly normalizers: readonly NormalizerStep[];
  /** Steps applied before the core's own split, in order. */
  readonly steps: readonly SplitStep[];
  /** ByteLevel add_prefix_space: " " before every piece that does not start with one. */
  readonly prefixSpace: boolean;
}

/**
 * Reads the components of a parsed tokenizer.json. `core` is the same file with the components
 * the BPE core reads itself (normalizer NFC or null, one Isolated Split + ByteLevel or a bare
 * ByteLevel, decoder ByteLevel, no post-processor: it never runs, add_special_tokens=False);
 * `pipeline` is undefined when the core alone encodes exactly as the file says.
 */
export function planBytePipeline(
  json: object,
  fail: Fail,
): { core: Record<string, unknown>; pipeline: BytePipelineSpec | undefined } {
  const root = json as JsonObject;
  const normalizers = parseNormalizers(root.normalizer ?? null, fail);
  const { steps, prefixSpace, core: corePre } = parsePreTokenizerSteps(root.pre_tokenizer ?? null, fail);
  const decoder = parseDecoder(root.decoder ?? null, fail);
  const nfcOnly = normalizers.every((n) => n.kind === "unicode" && n.form === "NFC");
  checkNormalizedTokens(root.added_tokens ?? [], normalizers, nfcOnly, fail);
  const simple = nfcOnly && steps.length === 0 && !prefixSpace;
  const core: Record<string, unknown> = {
    ...root,
    normalizer: simple && normalizers.length > 0 ? { type: "NFC" } : null,
    pre_tokenizer: corePre,
    post_processor: null,
    decoder,
  };
  return { core, pipeline: simple ? undefined : { normalizers, steps, prefixSpace } };
}

/**
 * An added token with `normalized: true` (HF's default for a non-special one) is matched by HF in
 * the NORMALIZED text; placing it as an ID is the same only when the normalizers leave it and its
 * neighbours alone: none, or NFC on content that NFC keeps and that starts below U+0300 (nothing
 * composes with what precedes it). Anything else is refused, naming the token.
 */
function checkNormalizedTokens(
  list: Json,
  normalizers: readonly NormalizerStep[],
  nfcOnly: boolean,
  fail: Fail,
): void {
  if (normalizers.length === 0 || !Array.isArray(list)) return;
  for (const t of list) {
    if (!isObject(t) || typeof t.content !== "string") continue;
    const normalized = t.normalized === undefined ? t.special !== true : t.normalized === true;
    if (!normalized) continue;
    const c = t.content;
    if (nfcOnly && c.normalize("NFC") === c && (c.codePointAt(0) ?? 0) < 0x300) continue;
    fail(
      `unsupported added token ${JSON.stringify(c)} with normalized: true under normalizer ${normalizers.map((n) => n.kind).join("+")}`,
      "added_tokens",
    );
  }
}

/** ByteLevel, or a Sequence of ByteLevel decoders (the same thing). */
function parseDecoder(d: Json, fail: Fail): object {
  if (d === null) return fail("missing decoder (byte-level BPE needs ByteLevel)", "decoder");
  const type = typeOf(d, fail, "decoder");
  const o = d as JsonObject;
  if (type === "ByteLevel") return { type: "ByteLevel" };
  if (type === "Sequence" && Array.isArray(o.decoders) && o.decoders.length > 0) {
    for (const x of o.decoders) parseDecoder(x, fail);
    return { type: "ByteLevel" };
  }
  return fail(`unsupported decoder "${type}" (supported: ByteLevel, Sequence of ByteLevel)`, "decoder");
}

// ------------------------------------------------------------------------------ normalizers

export function parseNormalizers(n: Json, fail: Fail): NormalizerStep[] {
  if (n === null) return [];
  const type = typeOf(n, fail, "normalizer");
  const o = n as JsonObject;
  switch (type) {
    case "Sequence":
      if (!Array.isArray(o.normalizers)) return fail("normalizer Sequence needs normalizers", "normalizer");
      return o.normalizers.flatMap((x) => parseNormalizers(x, fail));
    case "NFC":
    case "NFD":
    case "NFKC":
    case "NFKD":
      return [{ kind: "unicode", form: type }];
    case "Lowercase":
      return [{ kind: "lowercase" }];
    case "Strip":
      return [{ kind: "strip", left: o.strip_left === true, right: o.strip_right === true }];
    case "Prepend":
      if (typeof o.prepend !== "string") return fail("normalizer Prepend needs a string", "normalizer");
      return [{ kind: "prepend", prefix: o.prepend }];
    case "Replace": {
      const p = o.pattern;
      if (
        !isObject(p) ||
        typeof p.String !== "string" ||
        p.String.length === 0 ||
        typeof o.content !== "string"
      )
        return fail(
          `unsupported normalizer Replace pattern ${JSON.stringify(p ?? null)} (only a non-empty {String: ...})`,
          "normalizer",
        );
      return [{ kind: "replace", from: p.String, to: o.content }];
    }
    default:
      return fail(
        `unsupported normalizer "${type}" (supported: NFC, NFD, NFKC, NFKD, Lowercase, Strip, Replace(String), Prepend, Sequence, null)`,
        "normalizer",
      );
  }
}

// ------------------------------------------------------------------------------ pre-tokenizer

/** Rust char::is_ascii_punctuation || unicode_categories is_punctuation (P*), as a class body. */
const PUNCTUATION = "\\p{P}\\!-\\/\\:-\\@\\[-\\`\\{-\\~";
/** Rust regex `\w` (Unicode): Alphabetic, M, Nd, Pc, Join_Control. */
const WORD = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";

const BEHAVIORS: readonly string[] = [
  "Isolated",
  "Removed",
  "MergedWithPrevious",
  "MergedWithNext",
  "Contiguous",
];

function behaviorOf(v: Json | undefined, fail: Fail, what: string): Behavior {
  if (typeof v !== "string" || !BEHAVIORS.includes(v))
    return fail(`unsupported pre_tokenizer ${what} behavior ${JSON.stringify(v ?? null)}`, "pre_tokenizer");
  return v as Behavior;
}

/** A literal for a v-mode RegExp outside a class (only syntax characters may be escaped there). */
function escapeString(s: string): string {
  return s.replace(/[\\^$.|?*+()[\]{}/]/g, "\\$&");
}

/** DeepSeek LLM's trailing-whitespace split (see SplitStep.trailingSpace). */
const TRAILING_SPACE = "\\s+$";

function splitStep(o: JsonObject, fail: Fail): SplitStep {
  const p = o.pattern;
  const behavior = behaviorOf(o.behavior, fail, "Split");
  const invert = o.invert === true;
  if (isObject(p) && typeof p.String === "string" && p.String.length > 0)
    return {
      name: `Split(String ${JSON.stringify(p.String)})`,
      source: escapeString(p.String),
      behavior,
      invert,
    };
  if (isObject(p) && p.Regex === TRAILING_SPACE)
    return { name: 'Split(Regex "\\\\s+$")', source: "$^", behavior, invert, trailingSpace: true };
  if (isObject(p) && typeof p.Regex === "string") {
    let source = "";
    try {
      source = translateOnigPattern(p.Regex);
      new RegExp(source, "gv");
    } catch (e) {
      fail(
        `unsupported pre_tokenizer Split regex ${JSON.stringify(p.Regex)}: ${(e as Error).message}`,
        "pre_tokenizer",
      );
    }
    return { name: `Split(Regex ${JSON.stringify(p.Regex)})`, source, behavior, invert };
  }
  return fail(`unsupported pre_tokenizer Split pattern ${JSON.stringify(p ?? null)}`, "pre_tokenizer");
}

function flatten(p: Json, fail: Fail): JsonObject[] {
  const type = typeOf(p, fail, "pre_tokenizer");
  const o = p as JsonObject;
  if (type !== "Sequence") return [o];
  if (!Array.isArray(o.pretokenizers))
    return fail("pre_tokenizer Sequence needs pretokenizers", "pre_tokenizer");
  return o.pretokenizers.flatMap((x) => flatten(x, fail));
}

/** A JSON Split the BPE core takes as its own (one Isolated Regex split). */
function coreSplit(o: JsonObject): boolean {
  const p = o.pattern;
  return (
    o.type === "Split" &&
    o.behavior === "Isolated" &&
    o.invert !== true &&
    isObject(p) &&
    typeof p.Regex === "string" &&
    p.Regex !== TRAILING_SPACE
  );
}

/** Everything: the core's pattern when the pieces go to BPE whole (ByteLevel use_regex: false). */
const WHOLE_ONIG = "\\p{Any}+";

export function parsePreTokenizerSteps(
  p: Json,
  fail: Fail,
): { steps: SplitStep[]; prefixSpace: boolean; core: object } {
  if (p === null) return fail("missing pre_tokenizer (byte-level BPE needs ByteLevel)", "pre_tokenizer");
  const list = flatten(p, fail);
  const last = list[list.length - 1];
  if (last === undefined || last.type !== "ByteLevel") {
    const at = list.findIndex((x) => x.type === "ByteLevel");
    return fail(
      at < 0
        ? "unsupported pre_tokenizer without ByteLevel (byte-level BPE needs it)"
        : `unsupported pre_tokenizer "${list[at + 1]?.type}" after ByteLevel (only steps before it are supported)`,
      "pre_tokenizer",
    );
  }
  const before = list.slice(0, -1);
  const useRegex = last.use_regex !== false;
  const prefixSpace = last.add_prefix_space === true;
  let core: object = { type: "ByteLevel", add_prefix_space: false, use_regex: true };
  if (!useRegex) {
    // The last Split goes to the core, except under add_prefix_space: HF prepends the space to
    // every piece of the steps BEFORE ByteLevel, so they all run first.
    const tail = before[before.length - 1];
    const pattern =
      tail !== undefined && coreSplit(tail) && !prefixSpace ? (before.pop() as JsonObject) : undefined;
    core = {
      type: "Sequence",
      pretokenizers: [
        pattern ?? { type: "Split", pattern: { Regex: WHOLE_ONIG }, behavior: "Isolated", invert: false },
        { type: "ByteLevel", add_prefix_space: false, use_regex: false },
      ],
    };
  }
  const steps = before.map((o): SplitStep => {
    const type = o.type;
    if (type === "Split") return splitStep(o, fail);
    if (type === "Digits")
      return o.individual_digits === true
        ? {
            name: "Digits(individual)",
            source: translateOnigPattern("\\p{N}"),
            behavior: "Isolated",
            invert: false,
          }
        : { name: "Digits", source: translateOnigPattern("\\p{N}+"), behavior: "Isolated", invert: false };
    if (type === "Punctuation")
      return {
        name: "Punctuation",
        source: `[${PUNCTUATION}]`,
        behavior: o.behavior === undefined ? "Isolated" : behaviorOf(o.behavior, fail, "Punctuation"),
        invert: false,
      };
    if (type === "Whitespace")
      return {
        name: "Whitespace",
        source: `[${WORD}]+|[^${WORD}${WHITE_SPACE}]+`,
        behavior: "Removed",
        invert: true,
      };
    if (type === "WhitespaceSplit")
      return { name: "WhitespaceSplit", source: `[${WHITE_SPACE}]+`, behavior: "Removed", invert: false };
    if (type === "ByteLevel")
      return fail("unsupported pre_tokenizer with two ByteLevel steps", "pre_tokenizer");
    return fail(
      `unsupported pre_tokenizer "${String(type)}" (supported before ByteLevel: Split, Digits, Punctuation, Whitespace, WhitespaceSplit)`,
      "pre_tokenizer",
    );
  });
  return { steps, prefixSpace, core };
}
