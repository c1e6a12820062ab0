// Runtime-neutral loading: a tokenizer bound to a chat format, built from in-memory files
// (`fromFiles`). No file system, no node:* import: ./from-url.ts fetches the files, and the
// ./node entry (node/directory.ts) reads them from a directory; both end here.
//
// Steps: parse tokenizer_config.json -> format (given, or detected) -> plan the reserved
// registry -> load the text model with the reserved IDs blocked -> verify the files against
// the format (formats/registry.ts) -> ChatTokenizer.
import { loadByteLevelModel, readByteLevelTables, scanTokenizerJson } from "./bytelevel/index.ts";
import { type ChatTokenizer, createChatTokenizer } from "./chat-tokenizer.ts";
import { type AddedTokenDecl, parseTokenizerConfig, type TokenizerConfig } from "./config.ts";
import { TokenizerError } from "./errors.ts";
import { planRegistry, verifyRegistry } from "./formats/registry.ts";
import { FORMAT_NAMES, type FormatName } from "./formats/reserved.ts";
import { loadSentencePieceModel } from "./sentencepiece/index.ts";
import type { SpecialTextPolicy } from "./special-text/policy.ts";
import type { ModelTables } from "./tables/model-tables.ts";
import type { TextModel } from "./text-model.ts";

export interface LoadOptions {
  /** The chat format; detected from tokenizer_config.json when absent. */
  readonly format?: FormatName;
  /** Default policy of encodeText/encodeChat (each call may override it). Default "neutralize". */
  readonly specialText?: SpecialTextPolicy;
  /**
   * The model file's tables from an earlier load (tables/model-tables.ts; the Node entry keeps
   * them in a cache directory). Used only when exported for this exact content.
   */
  readonly tables?: ModelTables;
}

/**
 * Tokenizer files by name: "tokenizer_config.json" (always), "tokenizer.json" (byte-level BPE,
 * Qwen3) or "tokenizer.model" (SentencePiece, InternLM2 / ChatGLM3). JSON files may be text or
 * UTF-8 bytes; tokenizer.model must be bytes. Other names are ignored.
 */
export type TokenizerFiles = { readonly [name: string]: string | Uint8Array };

export const CONFIG_FILE = "tokenizer_config.json";

/** The file holding a format's text model. */
export function modelFileOf(format: FormatName): "tokenizer.json" | "tokenizer.model" {
  return format === "qwen3" || format === "gpt-oss" ? "tokenizer.json" : "tokenizer.model";
}

/** Detect the format from tokenizer_config.json; TokenizerError("unknown-format") listing the formats. */
export function detectFormat(config: TokenizerConfig): FormatName {
  const cls = config.tokenizerClass ?? "";
  const added = (id: number): string | undefined => config.addedTokens.find((t) => t.id === id)?.content;
  if (cls.startsWith("InternLM2Tokenizer") || added(92543) === "<|im_start|>") return "internlm2";
  if (cls.startsWith("ChatGLMTokenizer")) return "chatglm3";
  if (added(200006) === "<|start|>" && added(200008) === "<|message|>") return "gpt-oss";
  if (added(151644) === "<|im_start|>" && (cls === "" || cls.startsWith("Qwen2Tokenizer"))) return "qwen3";
  throw new TokenizerError(
    "unknown-format",
    `${config.file}: cannot tell the chat format (tokenizer_class ${JSON.stringify(config.tokenizerClass ?? null)}); pass a format: ${FORMAT_NAMES.join(", ")}`,
    { file: config.file, formats: [...FORMAT_NAMES] },
  );
}

/** Validates options.format (a runtime check: callers may pass any string). */
export function checkFormatOption(format: FormatName | undefined): void {
  if (format !== undefined && !FORMAT_NAMES.includes(format)) {
    throw new TokenizerError(
      "unknown-format",
      `unknown format ${JSON.stringify(format)}; expected one of ${FORMAT_NAMES.join(", ")}`,
      { formats: [...FORMAT_NAMES] },
    );
  }
}

const utf8 = new TextDecoder();

function textOf(content: string | Uint8Array, file: string): string {
  if (typeof content === "string") return content;
  if (content instanceof Uint8Array) return utf8.decode(content);
  throw new TokenizerError("invalid-argument", `${file} must be a string or a Uint8Array`, { file });
}

function need(files: TokenizerFiles, name: string, label: (name: string) => string): string | Uint8Array {
  const content = Object.hasOwn(files, name) ? files[name] : undefined;
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

/**
 * Builds a tokenizer from in-memory files; `label` names a file in errors (a path or URL).
 * Throws TokenizerError (file-not-found, bad-tokenizer-file, tokenizer-config-mismatch,
 * unknown-format, invalid-argument).
 */
export function buildTokenizer(
  files: TokenizerFiles,
  options: LoadOptions,
  label: (name: string) => string,
): ChatTokenizer {
  if (typeof files !== "object" || files === null)
    throw new TokenizerError("invalid-argument", "files must be an object keyed by file name");
  const config = configOf(files, label);
  checkFormatOption(options.format);
  const format = options.format ?? detectFormat(config);
  let textModel: TextModel;
  let plan: ReturnType<typeof planRegistry>;
  const modelName = modelFileOf(format);
  const modelFile = label(modelName);
  const content = need(files, modelName, label);
  if (modelName === "tokenizer.json") {
    let json: unknown;
    // Stored tables of this exact file: no text decode, no scan (bytelevel/model-tables.ts).
    const stored = readByteLevelTables(options.tables);
    const text = stored === undefined ? textOf(content, modelFile) : "";
    // Fast path (bytelevel/json-scan.ts): vocab and merges read from the text, the rest through
    // JSON.parse; measured ~130-190 ms less on Qwen3. Undefined = parse the whole file as before.
    const scanned = stored === undefined ? scanTokenizerJson(text) : undefined;
    try {
      json = stored?.rest ?? scanned?.rest ?? JSON.parse(text);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new TokenizerError("bad-tokenizer-file", `${modelFile} is not valid JSON: ${why}`, {
        file: modelFile,
      });
    }
    plan = planRegistry(format, config, addedTokensOf(json, modelFile));
    if (typeof json !== "object" || json === null)
      throw new TokenizerError("bad-tokenizer-file", `${modelFile} must hold an object`, { file: modelFile });
    textModel = loadByteLevelModel(json, {
      file: modelFile,
      blocked: plan.blocked,
      ...(scanned === undefined ? {} : { scanned }),
      ...(stored === undefined ? {} : { stored }),
      ...(options.tables === undefined ? {} : { tables: options.tables }),
    });
  } else {
    if (!(content instanceof Uint8Array))
      throw new TokenizerError("invalid-argument", `${modelFile} must be a Uint8Array (a binary file)`, {
        file: modelFile,
      });
    plan = planRegistry(format, config);
    textModel = loadSentencePieceModel(content, {
      file: modelFile,
      blocked: plan.blocked,
      ...(options.tables === undefined ? {} : { tables: options.tables }),
    });
  }
  const registry = verifyRegistry(plan, textModel, modelFile);
  return createChatTokenizer({
    format,
    textModel,
    registry,
    config,
    ...(options.specialText === undefined ? {} : { defaultSpecialText: options.specialText }),
  });
}

/**
 * A tokenizer from in-memory files (any runtime: browsers, workers, edge, Node). Same
 * verification and typed errors as the directory loader; errors name the file by its key.
 */
export function fromFiles(files: TokenizerFiles, options: LoadOptions = {}): ChatTokenizer {
  return buildTokenizer(files, options, (name) => name);
}

/** The added_tokens of a tokenizer.json (all literal-matched by the reference, so all reserved). */
function addedTokensOf(json: unknown, file: string): AddedTokenDecl[] {
  if (typeof json !== "object" || json === null || !("added_tokens" in json)) return [];
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
