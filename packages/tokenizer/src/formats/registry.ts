// Builds the immutable ReservedRegistry of one loaded tokenizer and VERIFIES that the files
// agree with the format, loudly: a tokenizer whose reserved IDs mean something else would make
// every encoding wrong in silence, so any disagreement is a "tokenizer-config-mismatch" error.
//
// Two steps, because the text model must be loaded with its blocked IDs:
//   planRegistry(format, config, modelAdded) -> from the format tables, tokenizer_config.json and
//                                      the added tokens of a tokenizer.json
//   verifyRegistry(plan, model)   -> checks the model file and adds its literal pieces
import type { AddedTokenDecl, TokenizerConfig } from "../config.ts";
import { TokenizerError } from "../errors.ts";
import type { TextModel } from "../text-model.ts";
import { GPTOSS_EOS, GPTOSS_RESERVED } from "./gpt-oss-ids.ts";
import {
  CHATGLM3_EOS,
  CHATGLM3_MARKER_STRINGS,
  CHATGLM3_RESERVED,
  CHATGLM3_SP_VOCAB_SIZE,
  CHATGLM3_VOCAB_END,
  type FormatName,
  INTERNLM2_EOS,
  INTERNLM2_RAW_PIECES,
  INTERNLM2_RESERVED,
  INTERNLM2_VOCAB_SIZE,
  QWEN3_EOS,
  QWEN3_RESERVED,
  type ReservedRegistry,
} from "./reserved.ts";

export interface RegistryPlan {
  readonly format: FormatName;
  readonly config: TokenizerConfig;
  /** Reserved ID -> canonical name. */
  readonly names: ReadonlyMap<number, string>;
  /** Strings the audit looks for -> ID. */
  readonly strings: ReadonlyMap<string, number>;
  /** The IDs the text model must block (reserved IDs inside its vocabulary). */
  readonly blocked: ReadonlySet<number>;
}

function mismatch(file: string, message: string, extra: Record<string, unknown> = {}): TokenizerError {
  return new TokenizerError("tokenizer-config-mismatch", `${file}: ${message}`, { file, ...extra });
}

function table(format: FormatName): ReadonlyArray<readonly [string, number]> {
  switch (format) {
    case "internlm2":
      return INTERNLM2_RESERVED;
    case "chatglm3":
      return CHATGLM3_RESERVED;
    case "qwen3":
      return QWEN3_RESERVED;
    case "gpt-oss":
      return GPTOSS_RESERVED;
  }
}

/** Check tokenizer_config.json against the format's table and collect the reserved set. */
export function planRegistry(
  format: FormatName,
  config: TokenizerConfig,
  modelAdded: readonly AddedTokenDecl[] = [],
): RegistryPlan {
  const names = new Map<number, string>();
  const strings = new Map<string, number>();
  for (const [s, id] of table(format)) names.set(id, s);
  const declared = new Map(config.addedTokens.map((t) => [t.id, t.content] as const));
  const file = config.file;

  if (format === "internlm2") {
    // The role tokens MUST be declared: the .model only has [UNUSED_TOKEN_141..146] there.
    for (const [s, id] of INTERNLM2_RESERVED) {
      const got = declared.get(id);
      if (id > 2 && got !== s) {
        throw mismatch(
          file,
          `added_tokens_decoder[${id}] must be ${JSON.stringify(s)} for internlm2, found ${JSON.stringify(got ?? null)}`,
          { id },
        );
      }
      if (id <= 2 && got !== undefined && got !== s) {
        throw mismatch(
          file,
          `added_tokens_decoder[${id}] must be ${JSON.stringify(s)}, found ${JSON.stringify(got)}`,
          { id },
        );
      }
    }
  } else {
    for (const [id, got] of declared) {
      const want = names.get(id);
      if (want !== undefined && want !== got) {
        throw mismatch(
          file,
          `added_tokens_decoder[${id}] is ${JSON.stringify(got)}, but ${format} reserves ${id} for ${JSON.stringify(want)}`,
          { id },
        );
      }
    }
    if (format === "qwen3") {
      for (const [s, id] of QWEN3_RESERVED) {
        if (config.addedTokens.length > 0 && declared.get(id) !== s) {
          throw mismatch(file, `added_tokens_decoder[${id}] must be ${JSON.stringify(s)} for qwen3`, { id });
        }
      }
    }
  }
  // Every other declared added token is literal-matched by the reference tokenizer, so it is
  // reserved too (e.g. InternVL2's <img> at 92544+). The unk token is audited, never blocked.
  for (const t of [...config.addedTokens, ...modelAdded]) {
    if (!names.has(t.id) && t.content !== "<unk>") names.set(t.id, t.content);
    if (t.content.length > 0) strings.set(t.content, t.id);
  }
  for (const [id, s] of names) strings.set(s, id);
  if (format === "chatglm3") {
    // "sop" / "eop" are ordinary words: audited only as the bracketed marker strings.
    strings.delete("sop");
    strings.delete("eop");
    for (const s of CHATGLM3_MARKER_STRINGS) if (!strings.has(s)) throw new Error(`internal: ${s}`);
  }
  if (format === "internlm2") for (const [s, id] of INTERNLM2_RAW_PIECES) strings.set(s, id);

  const vocab =
    format === "internlm2"
      ? INTERNLM2_VOCAB_SIZE
      : format === "chatglm3"
        ? CHATGLM3_SP_VOCAB_SIZE
        : Number.POSITIVE_INFINITY;
  const blocked = new Set<number>();
  for (const id of names.keys()) if (id < vocab) blocked.add(id);
  return { format, config, names, strings, blocked };
}

/** Check the loaded text model against the plan; return the final registry. */
export function verifyRegistry(plan: RegistryPlan, model: TextModel, modelFile: string): ReservedRegistry {
  const { format, names } = plan;
  const strings = new Map(plan.strings);
  const fail = (message: string, extra: Record<string, unknown> = {}): never => {
    throw mismatch(modelFile, message, extra);
  };
  let vocabEnd = model.vocabSize;
  let eosIds: readonly number[];
  switch (format) {
    case "internlm2": {
      if (model.vocabSize !== INTERNLM2_VOCAB_SIZE)
        fail(`internlm2 expects ${INTERNLM2_VOCAB_SIZE} pieces, the model has ${model.vocabSize}`);
      for (const [raw, id] of INTERNLM2_RAW_PIECES) {
        if (model.idToPiece(id) !== raw || model.literalPieces.get(raw) !== id) {
          fail(
            `piece ${id} must be the USER_DEFINED piece ${raw}, found ${JSON.stringify(model.idToPiece(id) ?? null)}`,
            { id },
          );
        }
      }
      if (model.idToPiece(1) !== "<s>" || model.idToPiece(2) !== "</s>")
        fail("pieces 1 and 2 must be <s> and </s>");
      eosIds = INTERNLM2_EOS;
      break;
    }
    case "chatglm3": {
      if (model.vocabSize !== CHATGLM3_SP_VOCAB_SIZE)
        fail(`chatglm3 expects exactly ${CHATGLM3_SP_VOCAB_SIZE} pieces, the model has ${model.vocabSize}`);
      for (const [s] of CHATGLM3_RESERVED) {
        const id = model.pieceToId(s);
        if (id !== undefined)
          fail(`the model has a piece ${JSON.stringify(s)} (id ${id}); chatglm3 reserves that string`, {
            id,
          });
      }
      vocabEnd = CHATGLM3_VOCAB_END;
      eosIds = CHATGLM3_EOS;
      break;
    }
    case "qwen3": {
      for (const [s, id] of QWEN3_RESERVED) {
        if (model.literalPieces.get(s) !== id) {
          fail(
            `tokenizer.json must have the added token ${JSON.stringify(s)} at ${id}, found ${model.literalPieces.get(s) ?? "none"}`,
            { id },
          );
        }
      }
      eosIds = QWEN3_EOS;
      break;
    }
    case "gpt-oss": {
      for (const [s, id] of GPTOSS_RESERVED) {
        if (model.literalPieces.get(s) !== id)
          fail(`tokenizer.json must have the added token ${JSON.stringify(s)} at ${id}`, { id });
      }
      eosIds = GPTOSS_EOS;
      break;
    }
  }
  // Every literal-matching piece of the model that names a reserved ID is audited too
  // (InternLM2 "[UNUSED_TOKEN_145]"); a literal piece for a reserved string must BE that ID.
  for (const [s, id] of model.literalPieces) {
    if (names.has(id)) strings.set(s, id);
    const want = plan.strings.get(s);
    if (want !== undefined && want !== id)
      fail(`the model matches ${JSON.stringify(s)} as ${id}, but it is reserved as ${want}`, { id });
  }
  // The text model must block exactly the reserved IDs inside its vocabulary.
  for (const id of names.keys()) {
    if (id < model.vocabSize && !model.blocked.has(id))
      fail(`internal: reserved id ${id} is not blocked by the text model`, { id });
    if (id >= vocabEnd) vocabEnd = id + 1;
  }
  const idByName = new Map<string, number>();
  for (const [id, s] of names) idByName.set(s, id);
  return Object.freeze({
    format,
    ids: new Set(names.keys()) as ReadonlySet<number>,
    idByName,
    nameById: new Map(names),
    strings,
    eosIds,
    vocabEnd,
  });
}
