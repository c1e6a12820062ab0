// Runtime-neutral loading: a tokenizer bound to a model family, built from in-memory files
// (`fromFiles`). No file system, no node:* import: ./from-url.ts fetches the files, and the
// ./node entry (node/directory.ts) reads them from a directory; both end here. No family is
// named here: everything family-specific is the definition's data (families/).
//
// Steps: parse tokenizer_config.json -> read the model file the files present call for
// (./model-files.ts) -> family (given, or detected from the files: families/detect.ts) -> plan
// the reserved registry -> load the text model with the reserved IDs blocked -> verify the files
// against the definition (chat/registry.ts) -> ChatTokenizer.

import { planRegistry, verifyRegistry } from "../chat/registry.ts";
import type { FormatName } from "../chat/reserved.ts";
import { type ChatTokenizer, createChatTokenizer } from "../chat-tokenizer.ts";
import { TokenizerError } from "../errors.ts";
import type { FamilyDefinition } from "../families/definition.ts";
import { detectFamily, familyByName } from "../families/detect.ts";
import type { ModelTables } from "../models/tables/model-tables.ts";
import type { SpecialTextPolicy } from "../special-text/policy.ts";
import { buildTemplateTokenizer, TEMPLATE_FILE, type TemplateLoadOptions } from "../template/from-files.ts";
import type { TemplateTokenizer } from "../template/tokenizer.ts";
import { parseEosTokenIds, parseTokenizerConfig, type TokenizerConfig } from "./config.ts";
import {
  loadTextModel,
  type ModelSource,
  present,
  readModelSource,
  TEKKEN_FILE,
  templateTextOf,
  textOf,
  unreachableIds,
  VERSIONED_SPM_FILES,
} from "./model-files.ts";

export interface LoadOptions {
  /**
   * The family name (families/index.ts; "auto" or absent: detected from the files). The
   * loaders that take files or a directory also accept "template" (docs/templates.md).
   */
  readonly format?: FormatName;
  /** Default policy of encodeText/encodeChat (each call may override it). Default "neutralize". */
  readonly specialText?: SpecialTextPolicy;
  /**
   * The model file's tables from an earlier load (models/tables/model-tables.ts; the Node entry keeps
   * them in a cache directory). Used only when exported for this exact content.
   */
  readonly tables?: ModelTables;
}

/**
 * Tokenizer files by name: "tokenizer_config.json" (always), "tokenizer.json" (byte-level BPE)
 * and/or "tokenizer.model" (SentencePiece): which one is read follows ./model-files.ts. Optional:
 * "generation_config.json" and "config.json" (their eos_token_id are stop IDs too) and
 * "chat_template.jinja" (detection may read the template). JSON files may be text or UTF-8
 * bytes; tokenizer.model must be bytes. Other names are ignored.
 */
export type TokenizerFiles = { readonly [name: string]: string | Uint8Array };

export const CONFIG_FILE = "tokenizer_config.json";
/** Optional files whose eos_token_id are added to the family's EOS IDs, in this order. */
export const EOS_FILES: readonly string[] = ["generation_config.json", "config.json"];

function need(files: TokenizerFiles, name: string, label: (name: string) => string): string | Uint8Array {
  const content = present(files, name);
  if (content === undefined) {
    const file = label(name);
    throw new TokenizerError("file-not-found", `${file} does not exist`, { file });
  }
  return content;
}

/** Parses tokenizer_config.json of `files` (file-not-found when absent). */
export function configOf(files: TokenizerFiles, label: (name: string) => string = (n) => n): TokenizerConfig {
  const file = label(CONFIG_FILE);
  return parseTokenizerConfig(textOf(need(files, CONFIG_FILE, label), file), file);
}

/** Every chat template source of the files (for Detection.templateIncludes). */
function templatesOf(
  files: TokenizerFiles,
  config: TokenizerConfig,
  label: (name: string) => string,
): string[] {
  const out: string[] = [];
  const jinja = present(files, TEMPLATE_FILE);
  if (jinja !== undefined) out.push(templateTextOf(jinja, label(TEMPLATE_FILE)));
  const raw = config.raw.chat_template;
  if (typeof raw === "string") out.push(raw);
  else if (Array.isArray(raw))
    for (const e of raw) {
      const t = typeof e === "object" && e !== null ? (e as { template?: unknown }).template : undefined;
      if (typeof t === "string") out.push(t);
    }
  return out;
}

/** eos_token_id of generation_config.json / config.json, when given. */
function extraEosOf(files: TokenizerFiles, label: (name: string) => string): number[] {
  const ids: number[] = [];
  for (const name of EOS_FILES) {
    const content = present(files, name);
    if (content === undefined) continue;
    const file = label(name);
    for (const id of parseEosTokenIds(textOf(content, file), file)) if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The family `format` names; "auto"/undefined: the one detected from the files. */
function familyOf(
  format: FormatName | undefined,
  files: TokenizerFiles,
  config: TokenizerConfig,
  modelAdded: Parameters<typeof planRegistry>[2],
  label: (name: string) => string,
  modelFile: string,
  modelVersion: string | undefined,
): FamilyDefinition {
  if (format !== undefined && format !== "auto") return familyByName(format);
  return detectFamily({
    config,
    addedTokens: [...config.addedTokens, ...(modelAdded ?? [])],
    templates: templatesOf(files, config, label),
    modelFile,
    modelLabel: label(modelFile),
    ...(modelVersion === undefined ? {} : { modelVersion }),
  });
}

/** Validates options.format (a runtime check: callers may pass any string). */
export function checkFormatOption(format: FormatName | undefined): void {
  if (format !== undefined && format !== "auto") familyByName(format);
}

/**
 * What a build read from the files, kept for a second build from the same files (the template
 * tokenizer after a native attempt: buildAnyTokenizer).
 */
export interface LoadMemo {
  config?: TokenizerConfig;
  source?: ModelSource;
}

/**
 * Builds a tokenizer from in-memory files; `label` names a file in errors (a path or URL).
 * Throws TokenizerError (file-not-found, bad-tokenizer-file, tokenizer-config-mismatch,
 * unknown-format, invalid-argument).
 */
export function buildTokenizer(
  files: TokenizerFiles,
  options: LoadOptions,
  label: (name: string) => string,
  memo: LoadMemo = {},
): ChatTokenizer {
  if (typeof files !== "object" || files === null)
    throw new TokenizerError("invalid-argument", "files must be an object keyed by file name");
  // Mistral's repositories ship tokenizer.model.vN or tekken.json without tokenizer_config.json.
  const bare =
    !Object.hasOwn(files, CONFIG_FILE) &&
    [...VERSIONED_SPM_FILES, TEKKEN_FILE].some((n) => Object.hasOwn(files, n));
  memo.config ??= bare ? parseTokenizerConfig("{}", label(CONFIG_FILE)) : configOf(files, label);
  const config = memo.config;
  checkFormatOption(options.format);
  memo.source ??= readModelSource(files, label, options.tables);
  const source = memo.source;
  const modelAdded =
    source.kind === "byte-level-bpe" || source.kind === "sentencepiece-json" || source.kind === "tekken"
      ? source.added
      : [];
  const modelVersion = source.kind === "tekken" ? source.tekken.version : undefined;
  const family = familyOf(options.format, files, config, modelAdded, label, source.name, modelVersion);
  const modelFile = label(source.name);
  if (source.kind === "missing") {
    const spm = label("tokenizer.model");
    throw new TokenizerError("file-not-found", `${modelFile} does not exist (nor does ${spm})`, {
      file: modelFile,
    });
  }
  const plan = planRegistry(family, config, modelAdded);
  const unreachable = unreachableIds(source, plan.blocked);
  const blocked = new Set([...plan.blocked].filter((id) => !unreachable.has(id)));
  const textModel = loadTextModel(source, blocked, modelFile, options.tables);
  const { registry, tokenIds } = verifyRegistry(
    plan,
    textModel,
    modelFile,
    extraEosOf(files, label),
    unreachable,
  );
  return createChatTokenizer({
    family,
    tokenIds,
    textModel,
    registry,
    config,
    ...(options.specialText === undefined ? {} : { defaultSpecialText: options.specialText }),
  });
}

/** buildTemplateTokenizer for the Node loaders (one import path for both builders). */
export const buildTemplateTokenizerOf = buildTemplateTokenizer;

/** LoadOptions of the "template" format (docs/templates.md). */
export type TemplateFormatOptions = TemplateLoadOptions & { readonly format: "template" };

/**
 * A tokenizer from in-memory files (any runtime: browsers, workers, edge, Node). Same
 * verification and typed errors as the directory loader; errors name the file by its key.
 * `format: "template"` builds the template-format tokenizer (template/from-files.ts). Either
 * format takes the model file's `tables` from an earlier load (exportModelTables).
 */
export function fromFiles(
  files: TokenizerFiles,
  options: TemplateFormatOptions & Pick<LoadOptions, "tables">,
): TemplateTokenizer;
export function fromFiles(files: TokenizerFiles, options?: LoadOptions): ChatTokenizer;
export function fromFiles(
  files: TokenizerFiles,
  options: LoadOptions | (TemplateFormatOptions & Pick<LoadOptions, "tables">) = {},
): ChatTokenizer | TemplateTokenizer {
  if (options.format === "template")
    return buildTemplateTokenizer(files, options, (name) => name, options.tables);
  return buildTokenizer(files, options, (name) => name);
}

/** The family name detected from tokenizer_config.json alone (see families/detect.ts). */
export function detectFormat(config: TokenizerConfig): FormatName {
  return detectFamily({ config, addedTokens: config.addedTokens, templates: [] }).name;
}

/** A loaded tokenizer of either shape: a native family's, or one bound to the model's own template. */
export type AnyTokenizer = ChatTokenizer | TemplateTokenizer;

/** Native load failures after which "auto" uses the model's chat template instead. */
export const NO_NATIVE_FAMILY: ReadonlySet<string> = new Set([
  // No family's detection data matches the files.
  "unknown-format",
  // A family was detected but the files do not fit it (e.g. an older vocabulary of the same
  // markers that lacks one of the family's tokens).
  "tokenizer-config-mismatch",
]);

/** LoadOptions with "template" and the template loader's options ("auto" or absent: the choice rule). */
export type AnyLoadOptions = Omit<LoadOptions, "format"> &
  TemplateLoadOptions & { readonly format?: FormatName | "template" };

/**
 * The one choice rule (library, CLI, server): a family name loads that family, "template" the
 * template tokenizer; "auto" (or absent) the native family detected from the files, else — when
 * no family matches or the detected one does not fit — the model's own chat template.
 */
export function buildAnyTokenizer(
  files: TokenizerFiles,
  options: AnyLoadOptions,
  label: (name: string) => string,
): AnyTokenizer {
  if (options.format === "template") return buildTemplateTokenizer(files, options, label, options.tables);
  const { chatTemplate: _t, limits: _l, now: _n, ...native } = options;
  // The config and the model file are read (decoded, scanned or taken from their tables) once
  // for both choices.
  const memo: LoadMemo = {};
  try {
    return buildTokenizer(files, native as LoadOptions, label, memo);
  } catch (e) {
    const auto = options.format === undefined || options.format === "auto";
    if (!(auto && TokenizerError.isInstance(e) && NO_NATIVE_FAMILY.has(e.type))) throw e;
    try {
      return buildTemplateTokenizer(files, options, label, options.tables, memo);
    } catch (t) {
      // No template either: the native failure says more (which family, which token).
      if (TokenizerError.isInstance(t) && t.type === "file-not-found") throw e;
      throw t;
    }
  }
}
