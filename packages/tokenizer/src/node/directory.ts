// Loading from a directory (Node only): "qwen3" (the embedded default, opt-in data package
// @chatwire/tokenizer-qwen3) or a Hugging Face model directory holding tokenizer_config.json
// plus tokenizer.json (byte-level BPE) or tokenizer.model (SentencePiece). The files are
// read, then built by the runtime-neutral steps of ../load.ts; errors name the file's path.
import { readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatTokenizer } from "../chat-tokenizer.ts";
import { TokenizerError } from "../errors.ts";
import {
  buildTokenizer,
  CONFIG_FILE,
  checkFormatOption,
  configOf,
  detectFormat,
  type LoadOptions,
  modelFileOf,
} from "../load.ts";
import { qwen3Dir } from "./qwen3.ts";
import { openTableCache, type TableCacheOptions } from "./table-cache.ts";

/**
 * LoadOptions plus the table cache (node/table-cache.ts): the model file's derived tables are
 * kept in `cacheDir` by the file's SHA-256 and read back on later loads (false: off).
 */
export interface NodeLoadOptions extends LoadOptions, TableCacheOptions {}

/** buildTokenizer with the model file's tables from (and, when rebuilt, into) the cache. */
function buildCached(
  files: Record<string, Uint8Array>,
  options: NodeLoadOptions,
  label: (name: string) => string,
  modelName: string,
): ChatTokenizer {
  const bytes = files[modelName];
  const cache = bytes === undefined ? undefined : openTableCache(bytes, options);
  if (cache === undefined) return buildTokenizer(files, options, label);
  const tok = buildTokenizer(files, { ...options, tables: cache.tables }, label);
  cache.settle(tok.textModel);
  return tok;
}

/** Built-in tokenizer names. */
export const BUILTIN_TOKENIZERS: readonly string[] = ["qwen3"];

function isDirectory(path: string): boolean | undefined {
  try {
    return statSync(path).isDirectory();
  } catch {
    return undefined;
  }
}

function checkDir(dir: string): string {
  const isDir = isDirectory(dir);
  if (isDir === undefined) throw new TokenizerError("file-not-found", `${dir} does not exist`, { file: dir });
  if (!isDir) throw new TokenizerError("file-not-found", `${dir} is not a directory`, { file: dir });
  return dir;
}

function resolveDir(nameOrDir: string): string {
  if (nameOrDir === "qwen3") return qwen3Dir();
  if (isDirectory(nameOrDir) === undefined) {
    throw new TokenizerError(
      "file-not-found",
      `tokenizer ${JSON.stringify(nameOrDir)} is neither a built-in name (${BUILTIN_TOKENIZERS.join(", ")}) nor an existing directory`,
      { file: nameOrDir },
    );
  }
  return checkDir(nameOrDir);
}

/** Missing: undefined (the build reports it, naming the path); unreadable: bad-tokenizer-file. */
function isMissing(e: unknown): boolean {
  const code = typeof e === "object" && e !== null && "code" in e ? e.code : undefined;
  return code === "ENOENT" || code === "ENOTDIR";
}

function unreadable(path: string): TokenizerError {
  return new TokenizerError("bad-tokenizer-file", `${path} cannot be read`, { file: path });
}

function readSync(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw unreadable(path);
  }
}

async function read(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw unreadable(path);
  }
}

function loadSync(dir: string, options: NodeLoadOptions): ChatTokenizer {
  const label = (name: string): string => join(dir, name);
  const files: Record<string, Uint8Array> = {};
  const add = (name: string): void => {
    const bytes = readSync(label(name));
    if (bytes !== undefined) files[name] = bytes;
  };
  add(CONFIG_FILE);
  checkFormatOption(options.format);
  const modelName = modelFileOf(options.format ?? detectFormat(configOf(files, label)));
  add(modelName);
  return buildCached(files, options, label, modelName);
}

async function load(dir: string, options: NodeLoadOptions): Promise<ChatTokenizer> {
  const label = (name: string): string => join(dir, name);
  const files: Record<string, Uint8Array> = {};
  const add = async (name: string): Promise<void> => {
    const bytes = await read(label(name));
    if (bytes !== undefined) files[name] = bytes;
  };
  checkFormatOption(options.format);
  let modelName: string;
  if (options.format !== undefined) {
    modelName = modelFileOf(options.format);
    await Promise.all([add(CONFIG_FILE), add(modelName)]);
  } else {
    await add(CONFIG_FILE);
    modelName = modelFileOf(detectFormat(configOf(files, label)));
    await add(modelName);
  }
  return buildCached(files, options, label, modelName);
}

/** A tokenizer from a Hugging Face model directory (only the files its format needs are read). */
export function fromDirectory(dir: string, options: NodeLoadOptions = {}): Promise<ChatTokenizer> {
  try {
    return load(checkDir(dir), options);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** fromDirectory, reading with readFileSync. */
export function fromDirectorySync(dir: string, options: NodeLoadOptions = {}): ChatTokenizer {
  return loadSync(checkDir(dir), options);
}

/** "qwen3" (needs @chatwire/tokenizer-qwen3 installed) or a directory; see fromDirectory. */
export async function loadTokenizer(
  nameOrDir: string,
  options: NodeLoadOptions = {},
): Promise<ChatTokenizer> {
  return load(resolveDir(nameOrDir), options);
}

/** Synchronous loadTokenizer (reads the files with readFileSync). */
export function loadTokenizerSync(nameOrDir: string, options: NodeLoadOptions = {}): ChatTokenizer {
  return loadSync(resolveDir(nameOrDir), options);
}
