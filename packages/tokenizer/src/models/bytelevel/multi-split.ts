// Pre-tokenizers with several Split steps before ByteLevel (DeepSeek V3/R1:
// Sequence[Split(\p{N}{1,3}), Split(CJK runs), Split(word regex), ByteLevel(use_regex: false)]),
// which the byte-level loader reads only as ONE Split. HF applies the steps in order, each to
// every piece of the previous one (Isolated: matches and the gaps between them are pieces). So
// the template loader gives the byte-level model the LAST Split and applies the earlier ones
// here, calling the model once per piece; the model's NFC (if any) runs first, on the whole
// text, as the reference's normalizer does.
//
// Cost: one extra linear scan per earlier step; a piece is at most the text between two
// matches, so the total is linear. A V8 RangeError on a pathological match is a typed error.

import { TokenizerError } from "../../errors.ts";
import type { TextModel } from "../text-model.ts";
import { translateOnigPattern } from "./index.ts";

type Json = Record<string, unknown>;

function isSplit(p: unknown): p is Json {
  if (typeof p !== "object" || p === null) return false;
  const s = p as Json;
  const pattern = s.pattern as Json | undefined;
  return (
    s.type === "Split" &&
    s.behavior === "Isolated" &&
    s.invert !== true &&
    typeof pattern === "object" &&
    pattern !== null &&
    typeof pattern.Regex === "string"
  );
}

export interface SplitPlan {
  /** tokenizer.json with the last Split only (what the byte-level loader reads). */
  readonly json: Json;
  /** The earlier Split patterns (JS regex sources, "gv"). */
  readonly outer: readonly string[];
}

/** undefined when the pre-tokenizer is not Sequence[Split, Split, ..., ByteLevel]. */
export function planMultiSplit(json: Json): SplitPlan | undefined {
  const pre = json.pre_tokenizer as Json | undefined;
  if (typeof pre !== "object" || pre === null || pre.type !== "Sequence") return undefined;
  const list = pre.pretokenizers;
  if (!Array.isArray(list) || list.length < 3) return undefined;
  const last = list[list.length - 1] as Json | undefined;
  const splits = list.slice(0, -1);
  if (last?.type !== "ByteLevel" || !splits.every(isSplit)) return undefined;
  const outer = splits.slice(0, -1).map((s) => translateOnigPattern((s.pattern as Json).Regex as string));
  return {
    json: { ...json, pre_tokenizer: { ...pre, pretokenizers: [splits[splits.length - 1], last] } },
    outer,
  };
}

/** The model with the outer splits applied before its own (every other member delegated). */
export function withOuterSplits(inner: TextModel, outer: readonly string[]): TextModel {
  const res = outer.map((src) => new RegExp(src, "gv"));
  const split = (text: string, level: number, out: number[]): void => {
    const re = res[level];
    if (re === undefined) {
      for (const id of inner.encode(text)) out.push(id);
      return;
    }
    let from = 0;
    re.lastIndex = 0;
    try {
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        if (m[0].length === 0) {
          re.lastIndex +=
            text.codePointAt(re.lastIndex) !== undefined &&
            (text.codePointAt(re.lastIndex) as number) > 0xffff
              ? 2
              : 1;
          continue;
        }
        if (m.index > from) split(text.slice(from, m.index), level + 1, out);
        split(m[0], level + 1, out);
        from = m.index + m[0].length;
      }
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      throw new TokenizerError(
        "invalid-argument",
        "text holds a pre-token too long for this engine's RegExp",
        {},
      );
    }
    if (from < text.length) split(text.slice(from), level + 1, out);
  };
  return {
    family: inner.family,
    vocabSize: inner.vocabSize,
    encode(text: string): number[] {
      const out: number[] = [];
      split(inner.normalization === "nfc" ? text.normalize("NFC") : text, 0, out);
      return out;
    },
    decode: (ids) => inner.decode(ids),
    idToPiece: (id) => inner.idToPiece(id),
    pieceToId: (piece) => inner.pieceToId(piece),
    blocked: inner.blocked,
    literalPieces: inner.literalPieces,
    decodeTable: inner.decodeTable,
    ...(inner.leadingOffsetBytes === undefined ? {} : { leadingOffsetBytes: inner.leadingOffsetBytes }),
    ...(inner.normalization === undefined ? {} : { normalization: inner.normalization }),
  };
}
