// Builds the immutable ReservedRegistry of one loaded tokenizer from its family definition
// (families/definition.ts) and VERIFIES that the files agree with it, loudly: a tokenizer whose
// reserved IDs mean something else would make every encoding wrong in silence, so any
// disagreement is a "tokenizer-config-mismatch" error. No family is named here.
//
// Two steps, because the text model must be loaded with its blocked IDs:
//   planRegistry(family, config, modelAdded) -> token IDs resolved from the definition's fixedIds
//                                      and the files' added tokens; the reserved set; the audit strings
//   verifyRegistry(plan, model, ...)   -> checks the model file against the plan, adds its literal
//                                      pieces, resolves the non-reserved keys from the model's pieces
//
// How a token key gets its ID (docs/formats.md "Families as data"): fixedIds[key] when given,
// else the added token of the files with that content (tokenizer_config.json
// added_tokens_decoder first, then tokenizer.json added_tokens); a key listed in
// reserved.notReserved may instead name a piece of the text model. A missing (non-optional)
// key fails the load.

import { TokenizerError } from "../errors.ts";
import type { FamilyDefinition, TokenIds } from "../families/definition.ts";
import type { AddedTokenDecl, TokenizerConfig } from "../load/config.ts";
import type { TextModel } from "../models/text-model.ts";
import type { ReservedRegistry } from "./reserved.ts";

export interface RegistryPlan {
  readonly family: FamilyDefinition;
  readonly config: TokenizerConfig;
  /** Token key -> ID, for the keys resolved from the definition and the added tokens. */
  readonly ids: ReadonlyMap<string, number>;
  /** Keys to resolve from the text model's pieces (reserved.notReserved keys only). */
  readonly fromModel: readonly string[];
  /** Reserved ID -> canonical name. */
  readonly names: ReadonlyMap<number, string>;
  /** Strings the audit looks for -> ID. */
  readonly strings: ReadonlyMap<string, number>;
  /** The IDs the text model must block (reserved IDs inside its vocabulary). */
  readonly blocked: ReadonlySet<number>;
}

export interface VerifiedRegistry {
  readonly registry: ReservedRegistry;
  /** Verified ID per token key of the family (optional keys absent from the files left out). */
  readonly tokenIds: TokenIds<string>;
}

function mismatch(file: string, message: string, extra: Record<string, unknown> = {}): TokenizerError {
  return new TokenizerError("tokenizer-config-mismatch", `${file}: ${message}`, { file, ...extra });
}

const q = (s: string | undefined | null): string => JSON.stringify(s ?? null);

/** Resolve the token keys, check the config against the definition, collect the reserved set. */
export function planRegistry(
  family: FamilyDefinition,
  config: TokenizerConfig,
  modelAdded: readonly AddedTokenDecl[] = [],
): RegistryPlan {
  const file = config.file;
  const policy = family.reserved;
  const declared = new Map(config.addedTokens.map((t) => [t.id, t.content] as const));
  const inModel = new Map(modelAdded.map((t) => [t.id, t.content] as const));
  // Both files declare added tokens: they must agree on every ID they both name.
  for (const [id, got] of declared) {
    const other = inModel.get(id);
    if (other !== undefined && other !== got)
      throw mismatch(
        file,
        `added_tokens_decoder[${id}] is ${q(got)}, but tokenizer.json has ${q(other)} there`,
        {
          id,
        },
      );
  }
  const byContent = new Map<string, number>();
  for (const t of [...config.addedTokens, ...modelAdded])
    if (!byContent.has(t.content)) byContent.set(t.content, t.id);

  const notReserved = new Set<string>(policy.notReserved ?? []);
  const optional = new Set<string>(family.optionalTokens ?? []);
  const fixed: Readonly<Record<string, number | undefined>> = family.fixedIds ?? {};
  const ids = new Map<string, number>();
  const fromModel: string[] = [];
  const names = new Map<number, string>();
  for (const [key, s] of Object.entries(family.tokens)) {
    const id = fixed[key] ?? byContent.get(s);
    if (id === undefined) {
      if (notReserved.has(key)) fromModel.push(key);
      else if (!optional.has(key))
        throw mismatch(
          file,
          `${family.name} needs the added token ${q(s)} (${key}); the files do not declare it`,
        );
      continue;
    }
    for (const [where, got] of [
      ["added_tokens_decoder", declared.get(id)],
      ["tokenizer.json added_tokens", inModel.get(id)],
    ] as const) {
      if (got !== undefined && got !== s)
        throw mismatch(file, `${where}[${id}] is ${q(got)}, but ${family.name} reserves ${id} for ${q(s)}`, {
          id,
        });
    }
    ids.set(key, id);
    if (!notReserved.has(key)) names.set(id, s);
  }
  // Every other added token is literal-matched by the reference tokenizer, so it is reserved
  // too (e.g. InternVL2's <img> at 92544+). The unk token is audited, never blocked.
  const unk = config.raw.unk_token;
  const unkText = typeof unk === "string" ? unk : "<unk>";
  const strings = new Map<string, number>();
  for (const t of [...config.addedTokens, ...modelAdded]) {
    if (policy.allAddedTokens !== false && !names.has(t.id) && t.content !== "<unk>" && t.content !== unkText)
      names.set(t.id, t.content);
    if (t.content.length > 0) strings.set(t.content, t.id);
  }
  for (const [id, s] of names) strings.set(s, id);
  for (const s of policy.notAudited ?? []) strings.delete(s);
  for (const [id, piece] of policy.expectPieces ?? []) strings.set(piece, id);

  const limit = policy.vocabSize ?? policy.appended?.textVocabSize ?? Number.POSITIVE_INFINITY;
  const blocked = new Set<number>();
  for (const id of names.keys()) if (id < limit) blocked.add(id);
  return { family, config, ids, fromModel, names, strings, blocked };
}

/**
 * Check the loaded text model against the plan; return the final registry and token IDs.
 * `extraEos`: generation_config.json / config.json eos_token_id, added after the family's.
 * `unreachable`: reserved IDs left unblocked because the text model can never produce them.
 */
export function verifyRegistry(
  plan: RegistryPlan,
  model: TextModel,
  modelFile: string,
  extraEos: readonly number[] = [],
  unreachable: ReadonlySet<number> = new Set(),
): VerifiedRegistry {
  const { family } = plan;
  const policy = family.reserved;
  const names = new Map(plan.names);
  const strings = new Map(plan.strings);
  const ids = new Map(plan.ids);
  const fail = (message: string, extra: Record<string, unknown> = {}): never => {
    throw mismatch(modelFile, message, extra);
  };
  if (policy.vocabSize !== undefined && model.vocabSize !== policy.vocabSize)
    fail(`${family.name} expects ${policy.vocabSize} pieces, the model has ${model.vocabSize}`);
  const appended = policy.appended;
  if (appended !== undefined && model.vocabSize !== appended.textVocabSize)
    fail(`${family.name} expects exactly ${appended.textVocabSize} pieces, the model has ${model.vocabSize}`);
  const expected = new Map<number, string>();
  for (const [id, piece] of policy.expectPieces ?? []) {
    expected.set(id, piece);
    if (model.idToPiece(id) !== piece || model.literalPieces.get(piece) !== id)
      fail(`piece ${id} must be the USER_DEFINED piece ${piece}, found ${q(model.idToPiece(id))}`, { id });
  }
  const fixed: Readonly<Record<string, number | undefined>> = family.fixedIds ?? {};
  for (const [key, id] of plan.ids) {
    const s = family.tokens[key] ?? "";
    if (id < model.vocabSize) {
      const ok = model.literalPieces.get(s) === id || model.idToPiece(id) === s || expected.has(id);
      if (!ok) fail(`token ${q(s)} must be piece ${id}, found ${q(model.idToPiece(id))}`, { id });
    } else if (fixed[key] === undefined) {
      if (model.literalPieces.get(s) !== id) fail(`the model has no token ${q(s)} at ${id}`, { id });
    } else {
      if (appended === undefined || id < appended.firstId)
        fail(`${family.name} places ${q(s)} at ${id}, beyond the model's ${model.vocabSize} pieces`, { id });
      const piece = model.pieceToId(s);
      if (piece !== undefined)
        fail(`the model has a piece ${q(s)} (id ${piece}); ${family.name} reserves that string`, {
          id: piece,
        });
    }
  }
  for (const key of plan.fromModel) {
    const s = family.tokens[key] ?? "";
    const id = model.literalPieces.get(s) ?? model.pieceToId(s);
    if (id === undefined) {
      if ((family.optionalTokens ?? []).includes(key)) continue;
      fail(`${family.name} needs the token ${q(s)} (${key}); the model has no such piece`);
    } else ids.set(key, id);
  }
  // Every literal-matching piece of the model that names a reserved ID is audited too
  // (a SentencePiece USER_DEFINED piece renamed by the config); a literal piece for a reserved string must BE that ID.
  for (const [s, id] of model.literalPieces) {
    if (names.has(id)) strings.set(s, id);
    const want = plan.strings.get(s);
    if (want !== undefined && want !== id)
      fail(`the model matches ${q(s)} as ${id}, but it is reserved as ${want}`, { id });
  }
  // The text model must block exactly the reserved IDs inside its vocabulary.
  let vocabEnd = model.vocabSize;
  for (const id of names.keys()) {
    if (id < model.vocabSize && !model.blocked.has(id) && !unreachable.has(id))
      fail(`internal: reserved id ${id} is not blocked by the text model`, { id });
    if (id >= vocabEnd) vocabEnd = id + 1;
  }
  const eosIds: number[] = [];
  for (const key of family.eos) {
    const id = ids.get(key);
    if (id !== undefined && !eosIds.includes(id)) eosIds.push(id);
  }
  for (const id of extraEos) if (!eosIds.includes(id)) eosIds.push(id);
  // In ID order (deterministic, independent of the definition's key order).
  const byId = new Map([...names].sort((a, b) => a[0] - b[0]));
  const idByName = new Map<string, number>();
  for (const [id, s] of byId) idByName.set(s, id);
  const registry: ReservedRegistry = Object.freeze({
    format: family.name,
    ids: new Set(byId.keys()) as ReadonlySet<number>,
    idByName,
    nameById: byId,
    strings,
    eosIds,
    vocabEnd,
  });
  return { registry, tokenIds: Object.freeze(Object.fromEntries(ids)) };
}
