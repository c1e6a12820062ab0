// Loading from a directory (Node only): "qwen3" (the embedded default, opt-in data package
// @chatwire/tokenizer-qwen3) or a Hugging Face model directory holding tokenizer_config.json
// plus tokenizer.json (byte-level BPE) and/or tokenizer.model (SentencePiece; which one is used
// follows ../load/model-files.ts, from the files present), and when present generation_config.json,
// config.json (EOS IDs) and chat_template.jinja (detection). The files are read, then built by
// the runtime-neutral steps of ../load/load.ts; errors name the file's path. format "template"
// builds the template tokenizer from the same files (../template/from-files.ts), and
// loadAnyTokenizer reads a directory once for both of its choices. Every build goes through the
// table cache (./table-cache.ts), native family or template alike.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatTokenizer } from "../chat-tokenizer.ts";
import { TokenizerError } from "../errors.ts";
import {
  type AnyLoadOptions,
  type AnyTokenizer,
  buildAnyTokenizer,
  buildTemplateTokenizerOf,
  buildTokenizer,
  CONFIG_FILE,
  checkFormatOption,
  EOS_FILES,
  type LoadOptions,
  NO_NATIVE_FAMILY,
  type TemplateFormatOptions,
} from "../load/load.ts";
import { JSON_MODEL_FILE, SPM_MODEL_FILE, TEKKEN_FILE, VERSIONED_SPM_FILES } from "../load/model-files.ts";
import type { GgufMetadata } from "../models/gguf/reader.ts";
import { ggufTokenizerFiles } from "../models/gguf/vocabulary.ts";
import { TEMPLATE_FILE, type TemplateLoadOptions } from "../template/from-files.ts";
import type { TemplateTokenizer } from "../template/tokenizer.ts";
import { stampedSource, statKeys, writeStamp } from "./file-stamp.ts";
import { isGgufPath, readGgufHeadMetadata, readGgufHeadMetadataSync } from "./gguf.ts";
import { manifestSource } from "./prebuilt-manifest.ts";
import { qwen3Dir } from "./qwen3.ts";
import {
  cacheDirOf,
  modelDigest,
  openTableCacheFor,
  prebuiltDirs,
  type TableCacheOptions,
  type TableCacheSession,
} from "./table-cache.ts";

/**
 * LoadOptions plus the table cache (node/table-cache.ts): the model file's derived tables are
 * kept in `cacheDir` by the SHA-256 of the model files present and read back on later loads
 * (false: off).
 */
export interface NodeLoadOptions extends LoadOptions, TableCacheOptions {}

/**
 * A directory's files as read. When a stamp (./file-stamp.ts) vouches that the model files are
 * the ones hashed before, `source` is their digest and their bytes are read only if the build
 * asks for them (a build from current stored tables never does); otherwise `keys` are their
 * stats taken before reading, for the stamp written once they are hashed.
 */
interface DirFiles {
  readonly dir: string;
  readonly files: Record<string, Uint8Array>;
  readonly source?: string | undefined;
  readonly keys?: readonly string[] | undefined;
  readonly cacheDir?: string | undefined;
  /** Set when a model file vouched for by the stamp was read after all. */
  readonly lazy?: { read: boolean };
}

/** The bytes of the model files present, in the order their digest covers them. */
function modelParts(files: Record<string, Uint8Array>): Uint8Array[] {
  return MODEL_FILES.flatMap((n) => (files[n] === undefined ? [] : [files[n]]));
}

/** A cache session for the model files present (their digest names the tables), or undefined. */
function cacheFor(read: DirFiles, options: TableCacheOptions): TableCacheSession | undefined {
  if (read.source !== undefined) return openTableCacheFor(read.source, options);
  const parts = modelParts(read.files);
  if (parts.length === 0 || cacheDirOf(options) === false) return undefined;
  const source = modelDigest(parts);
  if (read.keys !== undefined && read.cacheDir !== undefined)
    writeStamp(read.cacheDir, read.dir, read.keys, source);
  return openTableCacheFor(source, options);
}

/** `build` with the model's tables from (and, when rebuilt, into) the cache. */
function cached<T extends AnyTokenizer>(
  read: DirFiles,
  options: TableCacheOptions,
  build: (tables: TableCacheSession["tables"] | undefined) => T,
): T {
  const cache = cacheFor(read, options);
  const tok = build(cache?.tables);
  // The build read a stamped file (no current tables): its tables are stored under the stamped
  // digest only if the bytes read are the ones it names (a file written since the stat is not).
  if (read.lazy?.read === true && modelDigest(modelParts(read.files)) !== read.source) return tok;
  cache?.settle(tok.textModel);
  return tok;
}

function buildCached(read: DirFiles, options: NodeLoadOptions): ChatTokenizer {
  const label = (name: string): string => join(read.dir, name);
  return cached(read, options, (tables) =>
    buildTokenizer(read.files, tables === undefined ? options : { ...options, tables }, label),
  );
}

/** The model files whose content the cached tables stand for. */
const MODEL_FILES: readonly string[] = [JSON_MODEL_FILE, SPM_MODEL_FILE, ...VERSIONED_SPM_FILES, TEKKEN_FILE];

/** The files a directory load reads when present (../load/load.ts TokenizerFiles). */
const FILE_NAMES: readonly string[] = [
  CONFIG_FILE,
  JSON_MODEL_FILE,
  SPM_MODEL_FILE,
  ...VERSIONED_SPM_FILES,
  TEKKEN_FILE,
  TEMPLATE_FILE,
  ...EOS_FILES,
];

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

/**
 * The FILE_NAMES worth reading: those the directory lists (one readdir instead of a failed open,
 * with its thrown ENOENT error, per absent file: ~8% of a cached load), or all of them when the
 * directory cannot be listed (a file that vanishes after the listing still reads as absent).
 */
function present(listing: readonly string[] | undefined): readonly string[] {
  if (listing === undefined) return FILE_NAMES;
  // Compared case-blind: a case-insensitive file system opens "Tokenizer.json" as tokenizer.json.
  const names = new Set(listing.map((n) => n.toLowerCase()));
  return FILE_NAMES.filter((n) => names.has(n.toLowerCase()));
}

function listSync(dir: string): readonly string[] | undefined {
  try {
    return readdirSync(dir);
  } catch {
    return undefined;
  }
}

async function list(dir: string): Promise<readonly string[] | undefined> {
  try {
    return await readdir(dir);
  } catch {
    return undefined;
  }
}

/** Any directory load's options (the cache options are what the reading looks at). */
type DirOptions = (NodeLoadOptions | TemplateLoadOptions) & TableCacheOptions;

/**
 * The files of `names` that are model files, their stats and, when the cache directory holds a
 * stamp for exactly those stats, the digest recorded with it (else the digest a data package's
 * manifest gives for them, ./prebuilt-manifest.ts).
 */
function stampOf(dir: string, names: readonly string[], options: DirOptions): Omit<DirFiles, "files"> {
  const cacheDir = cacheDirOf(options);
  const model = MODEL_FILES.filter((n) => names.includes(n));
  if (typeof cacheDir !== "string" || model.length === 0) return { dir };
  const keys = statKeys(dir, model);
  if (keys === undefined) return { dir };
  const source =
    stampedSource(cacheDir, dir, keys) ??
    (options.prebuiltTables === false ? undefined : manifestSource(dir, model, prebuiltDirs()));
  return { dir, keys, cacheDir, source };
}

/** A model file read on first access (see DirFiles); absent (undefined) when it cannot be found. */
function defineLazy(
  files: Record<string, Uint8Array>,
  name: string,
  path: string,
  lazy: { read: boolean },
): void {
  let bytes: Uint8Array | undefined;
  let done = false;
  Object.defineProperty(files, name, {
    enumerable: true,
    configurable: true,
    get() {
      if (!done) {
        bytes = readSync(path);
        done = true;
        lazy.read = true;
      }
      return bytes;
    },
  });
}

/** The FILE_NAMES present in `dir`, read with readFileSync. */
function readFilesSync(dir: string, options: DirOptions): DirFiles {
  const names = present(listSync(dir));
  const stamp = stampOf(dir, names, options);
  const lazy = { read: false };
  const files: Record<string, Uint8Array> = {};
  for (const name of names) {
    if (stamp.source !== undefined && MODEL_FILES.includes(name)) {
      defineLazy(files, name, join(dir, name), lazy);
      continue;
    }
    const bytes = readSync(join(dir, name));
    if (bytes !== undefined) files[name] = bytes;
  }
  return { ...stamp, files, lazy };
}

/** The FILE_NAMES present in `dir`, read concurrently. */
async function readFiles(dir: string, options: DirOptions): Promise<DirFiles> {
  const names = present(await list(dir));
  const stamp = stampOf(dir, names, options);
  const lazy = { read: false };
  const files: Record<string, Uint8Array> = {};
  const add = async (name: string): Promise<void> => {
    if (stamp.source !== undefined && MODEL_FILES.includes(name)) {
      defineLazy(files, name, join(dir, name), lazy);
      return;
    }
    const bytes = await read(join(dir, name));
    if (bytes !== undefined) files[name] = bytes;
  };
  await Promise.all(names.map(add));
  return { ...stamp, files, lazy };
}

function loadSync(dir: string, options: NodeLoadOptions): ChatTokenizer {
  checkFormatOption(options.format);
  return buildCached(readFilesSync(dir, options), options);
}

async function load(dir: string, options: NodeLoadOptions): Promise<ChatTokenizer> {
  checkFormatOption(options.format);
  return buildCached(await readFiles(dir, options), options);
}

/** The template format from a directory's files, through the table cache. */
function templateOf(read: DirFiles, options: TemplateLoadOptions & TableCacheOptions): TemplateTokenizer {
  const label = (name: string): string => join(read.dir, name);
  return cached(read, options, (tables) => buildTemplateTokenizerOf(read.files, options, label, tables));
}

/**
 * The "template" format from a model directory: tokenizer_config.json, tokenizer.json (else
 * tokenizer.model), chat_template.jinja and generation_config.json when present (docs/templates.md).
 */
export function loadTemplateTokenizerSync(
  dir: string,
  options: TemplateLoadOptions & TableCacheOptions = {},
): TemplateTokenizer {
  return templateOf(readFilesSync(checkDir(dir), options), options);
}

/** A tokenizer from a Hugging Face model directory (the files of FILE_NAMES that exist are read). */
export function fromDirectory(dir: string, options: TemplateFormatOptions): Promise<TemplateTokenizer>;
export function fromDirectory(dir: string, options?: NodeLoadOptions): Promise<ChatTokenizer>;
export function fromDirectory(
  dir: string,
  options: NodeLoadOptions | TemplateFormatOptions = {},
): Promise<ChatTokenizer | TemplateTokenizer> {
  try {
    const d = checkDir(dir);
    if (options.format === "template") return readFiles(d, options).then((read) => templateOf(read, options));
    return load(d, options);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** fromDirectory, reading with readFileSync. */
export function fromDirectorySync(dir: string, options: TemplateFormatOptions): TemplateTokenizer;
export function fromDirectorySync(dir: string, options?: NodeLoadOptions): ChatTokenizer;
export function fromDirectorySync(
  dir: string,
  options: NodeLoadOptions | TemplateFormatOptions = {},
): ChatTokenizer | TemplateTokenizer {
  const d = checkDir(dir);
  if (options.format === "template") return loadTemplateTokenizerSync(d, options);
  return loadSync(d, options);
}

/** A GGUF file's tokenizer files (../models/gguf/vocabulary.ts), labelled "PATH (tokenizer.json)". */
function ggufFiles(path: string, metadata: GgufMetadata) {
  const files = ggufTokenizerFiles(metadata, path).files;
  return { files, label: (name: string) => `${path} (${name})` };
}

function loadGgufNative(
  path: string,
  metadata: GgufMetadata,
  options: NodeLoadOptions | TemplateFormatOptions,
) {
  const { files, label } = ggufFiles(path, metadata);
  if (options.format === "template") return buildTemplateTokenizerOf(files, options, label);
  checkFormatOption(options.format);
  return buildTokenizer(files, options, label);
}

/**
 * "qwen3" (needs @chatwire/tokenizer-qwen3 installed), a directory (see fromDirectory), or a
 * GGUF file (`*.gguf`: its tokenizer metadata, ../gguf/). `format: "template"` loads the
 * template-format tokenizer (docs/templates.md); loadAnyTokenizer also falls back to it.
 */
export async function loadTokenizer(
  nameOrDir: string,
  options: TemplateFormatOptions,
): Promise<TemplateTokenizer>;
export async function loadTokenizer(nameOrDir: string, options?: NodeLoadOptions): Promise<ChatTokenizer>;
export async function loadTokenizer(
  nameOrDir: string,
  options: NodeLoadOptions | TemplateFormatOptions = {},
): Promise<ChatTokenizer | TemplateTokenizer> {
  if (isGgufPath(nameOrDir))
    return loadGgufNative(nameOrDir, (await readGgufHeadMetadata(nameOrDir)).metadata, options);
  const d = resolveDir(nameOrDir);
  if (options.format === "template") return templateOf(await readFiles(d, options), options);
  return load(d, options);
}

/** Synchronous loadTokenizer (reads the files with readFileSync). */
export function loadTokenizerSync(nameOrDir: string, options: TemplateFormatOptions): TemplateTokenizer;
export function loadTokenizerSync(nameOrDir: string, options?: NodeLoadOptions): ChatTokenizer;
export function loadTokenizerSync(
  nameOrDir: string,
  options: NodeLoadOptions | TemplateFormatOptions = {},
): ChatTokenizer | TemplateTokenizer {
  if (isGgufPath(nameOrDir))
    return loadGgufNative(nameOrDir, readGgufHeadMetadataSync(nameOrDir).metadata, options);
  const d = resolveDir(nameOrDir);
  if (options.format === "template") return loadTemplateTokenizerSync(d, options);
  return loadSync(d, options);
}

/** loadAnyTokenizer's options: a family name, "template", or "auto" (absent: auto). */
export type AnyNodeLoadOptions = AnyLoadOptions & TableCacheOptions;

/**
 * The one loader: a built-in name, a model directory or a GGUF file, with the one choice rule
 * (../load/load.ts buildAnyTokenizer): the native family detected from the files, else — when none
 * matches or the detected one does not fit — the model's own chat template.
 */
export async function loadAnyTokenizer(
  source: string,
  options: AnyNodeLoadOptions = {},
): Promise<AnyTokenizer> {
  if (isGgufPath(source)) {
    if (options.format === "template") return loadTokenizer(source, { ...options, format: "template" });
    const { chatTemplate: _t, limits: _l, now: _n, ...native } = options;
    try {
      return await loadTokenizer(source, native as NodeLoadOptions);
    } catch (e) {
      const auto = options.format === undefined || options.format === "auto";
      if (!(auto && TokenizerError.isInstance(e) && NO_NATIVE_FAMILY.has(e.type))) throw e;
      try {
        return await loadTokenizer(source, { ...options, format: "template" });
      } catch (t) {
        // No template either: the native failure says more (which family, which token).
        if (TokenizerError.isInstance(t) && t.type === "file-not-found") throw e;
        throw t;
      }
    }
  }
  // A directory is read once; both choices of the rule build from the same files and cache.
  const d = resolveDir(source);
  if (options.format !== undefined && options.format !== "template") checkFormatOption(options.format);
  const read = await readFiles(d, options);
  return cached(read, options, (tables) =>
    buildAnyTokenizer(read.files, tables === undefined ? options : { ...options, tables }, (name) =>
      join(d, name),
    ),
  );
}
