// Which text model a set of tokenizer files holds, chosen from the files present (never from
// the family name), and loading it with the reserved IDs blocked. The rule (docs/formats.md
// "Families as data"):
//   1. tokenizer.json that is byte-level BPE           -> byte-level BPE (../bytelevel)
//   2. else tokenizer.model                            -> SentencePiece (../sentencepiece), the
//      vendor's own file, preferred over its Hugging Face conversion
//   3. else a SentencePiece-flavoured tokenizer.json   -> ../spjson
//   4. else file-not-found naming tokenizer.json.

import { TokenizerError } from "../errors.ts";
import {
  CHAR_TO_BYTE,
  loadByteLevelModel,
  readByteLevelTables,
  type ScannedTokenizerJson,
  type StoredByteLevel,
  scanTokenizerJson,
} from "../models/bytelevel/index.ts";
import { loadSentencePieceModel } from "../models/sentencepiece/index.ts";
import {
  isSentencePieceJson,
  loadSpJsonModel,
  readSpJsonTables,
  type StoredSpJson,
} from "../models/sentencepiece-json/index.ts";
import type { ModelTables } from "../models/tables/model-tables.ts";
import {
  loadTekkenModel,
  readTekkenFile,
  readTekkenTables,
  type StoredTekken,
  type TekkenFile,
} from "../models/tekken/index.ts";
import type { TextModel } from "../models/text-model.ts";
import type { AddedTokenDecl } from "./config.ts";

export const JSON_MODEL_FILE = "tokenizer.json";
export const SPM_MODEL_FILE = "tokenizer.model";
/** Mistral's tekken file (./models/tekken/), read when tokenizer.model and tokenizer.json are absent. */
export const TEKKEN_FILE = "tekken.json";
/**
 * SentencePiece files under the names Mistral's repositories give them (the suffix is the
 * mistral-common tokenizer version), read when tokenizer.model and tokenizer.json are absent.
 */
export const VERSIONED_SPM_FILES: readonly string[] = [
  "tokenizer.model.v7",
  "tokenizer.model.v3",
  "tokenizer.model.v2",
  "tokenizer.model.v1",
];

export type ModelFiles = { readonly [name: string]: string | Uint8Array };

/** The model file as read, before blocking is known. */
export type ModelSource =
  | {
      readonly kind: "byte-level-bpe" | "sentencepiece-json";
      readonly name: typeof JSON_MODEL_FILE;
      readonly text: string;
      readonly json: object;
      readonly scanned: ScannedTokenizerJson | undefined;
      /** Read from a table file of this content (models/bytelevel/model-tables.ts): no text, no scan. */
      readonly stored?: StoredByteLevel;
      /** The same for a SentencePiece-flavoured file (models/sentencepiece-json/model-tables.ts). */
      readonly storedSp?: StoredSpJson;
      readonly added: AddedTokenDecl[];
    }
  | { readonly kind: "sentencepiece"; readonly name: string; readonly bytes: Uint8Array }
  | {
      readonly kind: "tekken";
      readonly name: typeof TEKKEN_FILE;
      readonly tekken: TekkenFile;
      /** Read from a table file of this content (models/tekken/model-tables.ts): no JSON, no base64. */
      readonly stored?: StoredTekken;
      /** The special-token table: every entry is reserved (the reference never makes one from text). */
      readonly added: AddedTokenDecl[];
    }
  | { readonly kind: "missing"; readonly name: typeof JSON_MODEL_FILE };

const utf8 = new TextDecoder();
const utf8KeepBom = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A file's text: a string as it is, bytes decoded as UTF-8. A leading byte order mark of a JSON
 * file is dropped (it is not JSON text; the file means the same without it).
 */
export function textOf(content: string | Uint8Array, file: string): string {
  if (typeof content === "string") return content;
  if (content instanceof Uint8Array) return utf8.decode(content);
  throw new TokenizerError("invalid-argument", `${file} must be a string or a Uint8Array`, { file });
}

/**
 * A template file's text (chat_template.jinja): like textOf, but a leading byte order mark stays
 * template text, as transformers reads the file (Python's open(encoding="utf-8") keeps U+FEFF),
 * so the prompt is the one the model's own loader renders.
 */
export function templateTextOf(content: string | Uint8Array, file: string): string {
  if (content instanceof Uint8Array) return utf8KeepBom.decode(content);
  return textOf(content, file);
}

/** The file of that name, or undefined (own names only: "__proto__" is a name like any other). */
export function present(files: ModelFiles, name: string): string | Uint8Array | undefined {
  return Object.hasOwn(files, name) ? files[name] : undefined;
}

/**
 * Whether a file is given, without reading it: a getter (the Node loader's model files, read on
 * first access when stored tables may stand for them) counts as given and is not called.
 */
function given(files: ModelFiles, name: string): boolean {
  const d = Object.getOwnPropertyDescriptor(files, name);
  return d !== undefined && (d.get !== undefined || d.value !== undefined);
}

/**
 * Reads the model file the rule above picks (parsing tokenizer.json once). With stored tables
 * of a byte-level tokenizer.json (`tables`, checked for this content by their loader), the
 * file's text is neither decoded nor scanned.
 */
export function readModelSource(
  files: ModelFiles,
  label: (name: string) => string,
  tables?: ModelTables,
): ModelSource {
  const hasJson = given(files, JSON_MODEL_FILE);
  const stored = hasJson ? readByteLevelTables(tables) : undefined;
  if (stored !== undefined) {
    const file = label(JSON_MODEL_FILE);
    const json = stored.rest;
    return {
      kind: "byte-level-bpe",
      name: JSON_MODEL_FILE,
      text: "",
      json,
      scanned: undefined,
      stored,
      added: addedTokensOf(json, file),
    };
  }
  // tokenizer.model is preferred over a SentencePiece-flavoured tokenizer.json (rule 2).
  const storedSp = !hasJson || given(files, SPM_MODEL_FILE) ? undefined : readSpJsonTables(tables);
  if (storedSp !== undefined) {
    const json = storedSp.rest;
    const added = addedTokensOf(json, label(JSON_MODEL_FILE));
    return {
      kind: "sentencepiece-json",
      name: JSON_MODEL_FILE,
      text: "",
      json,
      scanned: undefined,
      storedSp,
      added,
    };
  }
  const jsonContent = present(files, JSON_MODEL_FILE);
  const spm = present(files, SPM_MODEL_FILE);
  let parsed: ModelSource | undefined;
  if (jsonContent !== undefined) {
    const file = label(JSON_MODEL_FILE);
    const text = textOf(jsonContent, file);
    // Fast path (models/bytelevel/json-scan.ts): vocab and merges read from the text, the rest through
    // JSON.parse; measured ~130-190 ms less on the embedded tokenizer. Undefined = parse the whole file.
    const scanned = scanTokenizerJson(text);
    let json: unknown;
    try {
      json = scanned?.rest ?? JSON.parse(text);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new TokenizerError("bad-tokenizer-file", `${file} is not valid JSON: ${why}`, { file });
    }
    if (typeof json !== "object" || json === null)
      throw new TokenizerError("bad-tokenizer-file", `${file} must hold an object`, { file });
    const kind = isSentencePieceJson(json) ? "sentencepiece-json" : "byte-level-bpe";
    parsed = { kind, name: JSON_MODEL_FILE, text, json, scanned, added: addedTokensOf(json, file) };
    if (kind === "byte-level-bpe") return parsed;
  }
  if (spm !== undefined) {
    const file = label(SPM_MODEL_FILE);
    if (!(spm instanceof Uint8Array))
      throw new TokenizerError("invalid-argument", `${file} must be a Uint8Array (a binary file)`, { file });
    return { kind: "sentencepiece", name: SPM_MODEL_FILE, bytes: spm };
  }
  if (parsed !== undefined) return parsed;
  const tekken = present(files, TEKKEN_FILE);
  if (tekken !== undefined) {
    const file = label(TEKKEN_FILE);
    const stored = readTekkenTables(tables);
    if (stored !== undefined) {
      const added = stored.tekken.special.map((content, id) => ({ id, content, special: true }));
      return { kind: "tekken", name: TEKKEN_FILE, tekken: stored.tekken, stored, added };
    }
    let json: unknown;
    try {
      json = JSON.parse(textOf(tekken, file));
    } catch (e) {
      if (e instanceof TokenizerError) throw e;
      const why = e instanceof Error ? e.message : String(e);
      throw new TokenizerError("bad-tokenizer-file", `${file} is not valid JSON: ${why}`, { file });
    }
    const t = readTekkenFile(json, file);
    const added = t.special.map((content, id) => ({ id, content, special: true }));
    return { kind: "tekken", name: TEKKEN_FILE, tekken: t, added };
  }
  for (const name of VERSIONED_SPM_FILES) {
    const bytes = present(files, name);
    if (bytes === undefined) continue;
    if (!(bytes instanceof Uint8Array))
      throw new TokenizerError("invalid-argument", `${label(name)} must be a Uint8Array (a binary file)`, {
        file: label(name),
      });
    return { kind: "sentencepiece", name, bytes };
  }
  return { kind: "missing", name: JSON_MODEL_FILE };
}

/**
 * Added-token IDs of a byte-level tokenizer.json that are ALSO model.vocab pieces spelled with a
 * character outside the byte-level alphabet (DeepSeek V3's `<｜begin▁of▁sentence｜>` at 0):
 * byte-level BPE can never produce them (every BPE piece is a concatenation of alphabet
 * characters), so they need no block, and the model refuses to block vocab pieces.
 */
export function unreachableIds(source: ModelSource, ids: Iterable<number>): Set<number> {
  const out = new Set<number>();
  if (source.kind !== "byte-level-bpe") return out;
  let piece: (id: number) => string | undefined;
  const vocab = source.stored?.vocab ?? source.scanned?.vocab;
  if (vocab !== undefined) piece = (id) => vocab.piece(id);
  else {
    const raw = (source.json as { model?: { vocab?: unknown } }).model?.vocab;
    const byId = new Map<number, string>();
    if (typeof raw === "object" && raw !== null)
      for (const [k, v] of Object.entries(raw)) if (typeof v === "number") byId.set(v, k);
    piece = (id) => byId.get(id);
  }
  for (const id of ids) if (unreachablePiece(piece(id))) out.add(id);
  return out;
}

/**
 * A byte-level vocabulary piece BPE can never produce from text: spelled with a character outside
 * the byte-level alphabet, or the lone symbol of a byte UTF-8 never holds (0xC0, 0xC1, 0xF5-0xFF;
 * DeepSeek's GGUFs type those USER_DEFINED, and llama.cpp matches "ö" in text as one).
 */
export function unreachablePiece(p: string | undefined): boolean {
  if (p === undefined) return false;
  if (p.length === 1) {
    const b = CHAR_TO_BYTE[p.charCodeAt(0)] ?? -1;
    if (b === 0xc0 || b === 0xc1 || b >= 0xf5) return true;
  }
  return [...p].some((ch) => ch.length > 1 || (CHAR_TO_BYTE[ch.charCodeAt(0)] ?? -1) === -1);
}

function withoutPostProcessor(json: object): object {
  return "post_processor" in json ? { ...(json as Record<string, unknown>), post_processor: null } : json;
}

/** Loads the text model of `source` with `blocked` closed in its ordinary encoder. */
export function loadTextModel(
  source: Exclude<ModelSource, { kind: "missing" }>,
  blocked: ReadonlySet<number>,
  file: string,
  tables?: ModelTables,
): TextModel {
  const base = { file, blocked, ...(tables === undefined ? {} : { tables }) };
  switch (source.kind) {
    case "byte-level-bpe": {
      // The chat encoder never adds special tokens (add_special_tokens=False): a post-processor
      // (e.g. a TemplateProcessing that prepends a BOS) never runs, so it is not loaded (as the
      // template loader does, template/from-files.ts). Normalizers and pre-tokenizer steps
      // beyond the BPE core's are read by the loader itself (models/bytelevel/pipeline-spec.ts).
      return loadByteLevelModel(withoutPostProcessor(source.json), {
        ...base,
        ...(source.scanned === undefined ? {} : { scanned: source.scanned }),
        ...(source.stored === undefined ? {} : { stored: source.stored }),
      });
    }
    case "sentencepiece-json":
      // source.json is the scan's or the table file's rest when those hold the vocabulary.
      return loadSpJsonModel(source.json, {
        ...base,
        ...(source.scanned === undefined ? {} : { scanned: source.scanned }),
        ...(source.storedSp === undefined ? {} : { stored: source.storedSp }),
      });
    case "sentencepiece":
      return loadSentencePieceModel(source.bytes, base);
    case "tekken":
      return loadTekkenModel(source.tekken, {
        ...base,
        ...(source.stored === undefined ? {} : { stored: source.stored }),
      });
  }
}

/** The added_tokens of a tokenizer.json (all literal-matched by the reference, so all reserved). */
function addedTokensOf(json: object, file: string): AddedTokenDecl[] {
  if (!("added_tokens" in json)) return [];
  const list = (json as { added_tokens: unknown }).added_tokens;
  if (!Array.isArray(list))
    throw new TokenizerError("bad-tokenizer-file", `${file}: "added_tokens" must be an array`, {
      file,
      field: "added_tokens",
    });
  return list.map((t: unknown, i) => {
    if (typeof t !== "object" || t === null)
      throw new TokenizerError("bad-tokenizer-file", `${file}: added_tokens[${i}] must be an object`, {
        file,
      });
    const { id, content, special } = t as { id?: unknown; content?: unknown; special?: unknown };
    if (typeof id !== "number" || typeof content !== "string") {
      throw new TokenizerError(
        "bad-tokenizer-file",
        `${file}: added_tokens[${i}] needs a numeric id and a string content`,
        { file },
      );
    }
    return { id, content, special: special === true };
  });
}
