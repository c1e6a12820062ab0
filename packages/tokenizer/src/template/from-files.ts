// Builds a "template"-format tokenizer from in-memory files (any runtime): tokenizer.json
// (byte-level BPE; every added token blocked in the ordinary encoder), tokenizer_config.json,
// and the chat template — `options.chatTemplate` (the CLI's --chat-template FILE), else the
// file "chat_template.jinja" beside the config, else the config's `chat_template` (a string, or
// a named list: "default", plus "tool_use" chosen when the request has tools, as transformers
// does). ../node/directory.ts reads the same files from a directory (Node).

import { TokenizerError } from "../errors.ts";
import { configOf, type LoadMemo, type TokenizerFiles } from "../load/load.ts";
import { textOf as fileText, present, templateTextOf, unreachablePiece } from "../load/model-files.ts";
import {
  loadByteLevelModel,
  readByteLevelTables,
  type ScannedTokenizerJson,
  type StoredByteLevel,
  scanTokenizerJson,
} from "../models/bytelevel/index.ts";
import { planMultiSplit, withOuterSplits } from "../models/bytelevel/multi-split.ts";
import { loadSentencePieceModel } from "../models/sentencepiece/index.ts";
import {
  isSentencePieceJson,
  loadSpJsonForTemplate,
  readSpJsonTables,
} from "../models/sentencepiece-json/index.ts";
import { exportModelTables, type ModelTables, registerTableExporter } from "../models/tables/model-tables.ts";
import type { TextModel } from "../models/text-model.ts";
import { addedTokenEntries, fileFail, type Json } from "../models/tokenizer-json-fields.ts";
import { type AddedToken, splitAddedTokens } from "./reserved-set.ts";
import {
  createTemplateTokenizer,
  type TemplateSources,
  type TemplateTokenizer,
  type TemplateTokenizerOptions,
} from "./tokenizer.ts";

export interface TemplateLoadOptions extends TemplateTokenizerOptions {
  /** Template source text overriding the files'. */
  readonly chatTemplate?: string;
}

export const TEMPLATE_FILE = "chat_template.jinja";

/** The file `name` of `files` as text (templateTextOf for the template file), undefined when absent. */
function textOf(files: TokenizerFiles, name: string, label: (n: string) => string): string | undefined {
  const c = present(files, name);
  if (c === undefined) return undefined;
  return name === TEMPLATE_FILE ? templateTextOf(c, label(name)) : fileText(c, label(name));
}

/** The config's chat_template as sources (string or named list). */
export function templateSources(
  raw: Readonly<Record<string, unknown>>,
  file: string,
): TemplateSources | undefined {
  const v = raw.chat_template;
  if (typeof v === "string") return { default: v };
  if (Array.isArray(v)) {
    const named = new Map<string, string>();
    for (const e of v) {
      const name = (e as { name?: unknown }).name;
      const template = (e as { template?: unknown }).template;
      if (typeof name === "string" && typeof template === "string") named.set(name, template);
    }
    const dflt = named.get("default");
    const toolUse = named.get("tool_use");
    if (dflt === undefined)
      throw new TokenizerError("bad-tokenizer-file", `${file}: chat_template list has no "default" entry`, {
        file,
        field: "chat_template",
      });
    return { default: dflt, ...(toolUse === undefined ? {} : { toolUse }) };
  }
  return undefined;
}

export const GENERATION_CONFIG_FILE = "generation_config.json";

/** generation_config.json `eos_token_id` (a number or a list of numbers); [] when absent. */
function generationEos(files: TokenizerFiles, label: (n: string) => string): number[] {
  const text = textOf(files, GENERATION_CONFIG_FILE, label);
  if (text === undefined) return [];
  const file = label(GENERATION_CONFIG_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new TokenizerError("bad-tokenizer-file", `${file} is not valid JSON`, { file });
  }
  const v =
    typeof raw === "object" && raw !== null ? (raw as { eos_token_id?: unknown }).eos_token_id : undefined;
  const list = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
  if (!list.every((x) => Number.isSafeInteger(x) && (x as number) >= 0))
    throw new TokenizerError("bad-tokenizer-file", `${file}: eos_token_id must be an ID or a list of IDs`, {
      file,
      field: "eos_token_id",
    });
  return list as number[];
}

/** model.vocab's pieces by id (from the fast scan or a table file, or the parsed JSON). */
function vocabPieces(
  json: object,
  scanned: ScannedTokenizerJson | StoredByteLevel | undefined,
): (id: number) => string | undefined {
  if (scanned !== undefined) return (id) => scanned.vocab.piece(id);
  const vocab = (json as { model?: { vocab?: unknown } }).model?.vocab;
  const byId = new Map<number, string>();
  if (typeof vocab === "object" && vocab !== null)
    for (const [k, v] of Object.entries(vocab)) if (typeof v === "number") byId.set(v, k);
  return (id) => byId.get(id);
}

/**
 * The added IDs to block in the ordinary encoder. An added token whose ID is ALSO a model.vocab
 * piece spelled with a character outside the byte-level alphabet (DeepSeek V3's
 * `<｜begin▁of▁sentence｜>` at 0) can never come out of byte-level BPE — every BPE piece is a
 * concatenation of alphabet characters — so it needs no block (the model refuses to block vocab
 * pieces); nor can a lone symbol of a byte UTF-8 never holds (../load/model-files.ts unreachablePiece). One spelled in the alphabet stays blocked, and the model refuses the file loudly.
 */
function blockable(
  added: ReadonlyMap<number, AddedToken>,
  piece: (id: number) => string | undefined,
): Set<number> {
  const out = new Set<number>();
  for (const id of added.keys()) {
    const p = piece(id);
    if (!unreachablePiece(p)) out.add(id);
  }
  return out;
}

/**
 * `tables`: the model file's tables from an earlier load of this content (the Node entry's
 * cache, ../node/table-cache.ts); tokenizer.json's text is then neither decoded nor scanned.
 * `memo`: the config and tokenizer.json as a native attempt read them (../load/load.ts buildAnyTokenizer).
 */
export function buildTemplateTokenizer(
  files: TokenizerFiles,
  options: TemplateLoadOptions,
  label: (name: string) => string,
  tables?: ModelTables,
  memo: LoadMemo = {},
): TemplateTokenizer {
  if (typeof files !== "object" || files === null)
    throw new TokenizerError("invalid-argument", "files must be an object keyed by file name");
  // A native attempt's config is this file's, parsed the same way (without the file it parsed
  // none: a bare Mistral directory, which has no template either).
  const config =
    memo.config !== undefined && Object.hasOwn(files, "tokenizer_config.json")
      ? memo.config
      : configOf(files, label);
  const jinja = textOf(files, TEMPLATE_FILE, label);
  const templates: TemplateSources | undefined =
    options.chatTemplate !== undefined
      ? { default: options.chatTemplate }
      : jinja !== undefined
        ? { default: jinja }
        : templateSources(config.raw, config.file);
  if (templates === undefined)
    throw new TokenizerError(
      "file-not-found",
      `no chat template: neither ${label(TEMPLATE_FILE)} nor a chat_template in ${config.file}`,
      { file: label(TEMPLATE_FILE) },
    );
  const modelFile = label("tokenizer.json");
  const present = Object.hasOwn(files, "tokenizer.json");
  // What the native attempt read from tokenizer.json (not tokenizer.model: this path prefers the json).
  const read = memo.source;
  const pre =
    read !== undefined && (read.kind === "byte-level-bpe" || read.kind === "sentencepiece-json")
      ? read
      : undefined;
  const storedSp = pre !== undefined ? pre.storedSp : present ? readSpJsonTables(tables) : undefined;
  const storedBl =
    pre !== undefined
      ? pre.stored
      : present && storedSp === undefined
        ? readByteLevelTables(tables)
        : undefined;
  const text =
    pre !== undefined || storedSp !== undefined || storedBl !== undefined
      ? ""
      : textOf(files, "tokenizer.json", label);
  if (text === undefined) {
    const spm = Object.hasOwn(files, "tokenizer.model") ? files["tokenizer.model"] : undefined;
    if (spm instanceof Uint8Array && spm.length > 0)
      return sentencePieceTemplate(spm, config, templates, options, files, label);
    throw new TokenizerError("file-not-found", `${modelFile} does not exist (nor does tokenizer.model)`, {
      file: modelFile,
    });
  }
  const stored = storedSp ?? storedBl;
  const scanned =
    pre !== undefined ? pre.scanned : stored === undefined ? scanTokenizerJson(text) : undefined;
  let json: unknown;
  try {
    json = pre?.json ?? stored?.rest ?? scanned?.rest ?? JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new TokenizerError("bad-tokenizer-file", `${modelFile} is not valid JSON: ${why}`, {
      file: modelFile,
    });
  }
  if (typeof json !== "object" || json === null)
    throw new TokenizerError("bad-tokenizer-file", `${modelFile} must hold an object`, { file: modelFile });
  const added = new Map<number, AddedToken>();
  const list = (json as { added_tokens?: Json }).added_tokens;
  // The tokenizer.json readers' shared check: an entry that is not an object with an integer id
  // and a string content (`null` too) is a typed bad-tokenizer-file, as on the native path.
  if (list !== undefined && list !== null)
    for (const t of addedTokenEntries(list, fileFail(modelFile)))
      added.set(t.id, {
        id: t.id,
        content: t.content,
        special: t.special === true,
        lstrip: t.lstrip === true,
        rstrip: t.rstrip === true,
      });
  for (const t of config.addedTokens) if (!added.has(t.id)) added.set(t.id, t);
  // The SentencePiece-converted flavour (Gemma 3, Llama 2): ../spjson/, text pieces matched in
  // the encoder as HF does, every other added token blocked.
  const sources = [templates.default, ...(templates.toolUse === undefined ? [] : [templates.toolUse])];
  const textModel: TextModel =
    storedSp !== undefined ||
    (storedBl === undefined &&
      (pre?.kind === "sentencepiece-json" || (pre === undefined && isSentencePieceJson(json))))
      ? loadSpJsonForTemplate(
          json,
          modelFile,
          added.keys(),
          splitAddedTokens([...added.values()], sources).textPieces,
          {
            ...(tables === undefined ? {} : { tables }),
            ...(scanned === undefined ? {} : { scanned }),
            ...(storedSp === undefined ? {} : { stored: storedSp }),
          },
        )
      : byteLevelTemplateModel(json as object, modelFile, added, scanned ?? storedBl, tables);
  return createTemplateTokenizer({
    textModel,
    config,
    addedTokens: [...added.values()].sort((a, b) => a.id - b.id),
    templates,
    options,
    generationEosIds: generationEos(files, label),
  });
}

/**
 * A SentencePiece `tokenizer.model` directory (InternLM2): the SentencePiece text model with
 * every added token of the config blocked (but the unknown piece, which unknown text is encoded
 * with), the added tokens from tokenizer_config.json `added_tokens_decoder`.
 */
function sentencePieceTemplate(
  bytes: Uint8Array,
  config: ReturnType<typeof configOf>,
  templates: TemplateSources,
  options: TemplateLoadOptions,
  files: TokenizerFiles,
  label: (name: string) => string,
): TemplateTokenizer {
  // transformers' slow tokenizer applies these itself (Python whitespace, its own splitting);
  // the SentencePiece model here places the tokens as IDs and would not: refused, not ignored.
  const decl = config.raw.added_tokens_decoder;
  if (isObject(decl))
    for (const t of Object.values(decl))
      for (const flag of ["lstrip", "rstrip", "single_word"])
        if (isObject(t) && t[flag] === true)
          throw new TokenizerError(
            "bad-tokenizer-file",
            `${config.file}: unsupported added token ${JSON.stringify(t.content)} with ${flag}: true beside tokenizer.model`,
            { file: config.file, field: "added_tokens_decoder" },
          );
  const unk = config.raw.unk_token;
  const unkText = typeof unk === "string" ? unk : (unk as { content?: unknown } | undefined)?.content;
  const added = [...config.addedTokens].sort((a, b) => a.id - b.id);
  const textModel = loadSentencePieceModel(bytes, {
    file: label("tokenizer.model"),
    blocked: new Set(added.filter((t) => t.content !== unkText).map((t) => t.id)),
  });
  return createTemplateTokenizer({
    textModel,
    config,
    addedTokens: added,
    templates,
    options,
    generationEosIds: generationEos(files, label),
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The byte-level text model of a template tokenizer (every added token blocked). */
function byteLevelTemplateModel(
  parsed: object,
  modelFile: string,
  added: ReadonlyMap<number, AddedToken>,
  read: ScannedTokenizerJson | StoredByteLevel | undefined,
  tables: ModelTables | undefined,
): TextModel {
  const scanned = read !== undefined && "mergeRanges" in read ? read : undefined;
  const stored = read !== undefined && "file" in read ? read : undefined;
  let json = parsed;
  // apply_chat_template encodes with add_special_tokens=False: the post-processor (Llama 3's
  // TemplateProcessing that adds <|begin_of_text|>) never runs, so it is not loaded either.
  if ("post_processor" in json) json = { ...(json as Record<string, unknown>), post_processor: null };
  // The rest a table file stores: the file's own (but its post-processor). A load from the table
  // file reads it and rewrites it again as below; the vocabulary, merges and decode table do not
  // depend on the rewrites.
  const kept = json;
  // lstrip / rstrip are applied where the template path places the token (./strip-sink.ts); the
  // byte-level loader (shared with the native families, which never apply them) refuses them,
  // so they are taken off here. single_word stays and is refused by name.
  const list = (json as { added_tokens?: unknown }).added_tokens;
  if (Array.isArray(list) && list.some((t) => isObject(t) && (t.lstrip === true || t.rstrip === true)))
    json = {
      ...(json as Record<string, unknown>),
      added_tokens: list.map((t) => (isObject(t) ? { ...t, lstrip: false, rstrip: false } : t)),
    };
  const plan = planMultiSplit(json as Record<string, unknown>);
  const loaded = plan?.json ?? json;
  const inner = loadByteLevelModel(loaded, {
    file: modelFile,
    blocked: blockable(added, vocabPieces(json, read)),
    ...(scanned === undefined ? {} : { scanned }),
    ...(stored === undefined ? {} : { stored }),
    ...(tables === undefined ? {} : { tables }),
    ...(loaded === kept ? {} : { tableJson: kept }),
  });
  if (plan === undefined) return inner;
  const split = withOuterSplits(inner, plan.outer);
  registerTableExporter(split, (source) => exportModelTables(inner, source));
  return split;
}

/** A template-format tokenizer from in-memory files; errors name a file by its key. */
export function templateFromFiles(
  files: TokenizerFiles,
  options: TemplateLoadOptions = {},
): TemplateTokenizer {
  return buildTemplateTokenizer(files, options, (name) => name);
}
