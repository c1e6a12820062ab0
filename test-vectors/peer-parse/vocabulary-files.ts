// A vocabulary package's model files with markers it lacks appended as special added tokens:
// the stand-in vocabularies the peer-parse and response_template suites decode templates over.
// A stand-in's tokenizer.json is the package's file with the new tokens spliced into its
// added_tokens array, so a load costs no parse and re-serialization of the whole vocabulary
// (hundreds of thousands of entries), only the loader's own reading of the file.
//
// A load from the run's stored tables (test-support/run-tables.ts) reads no tokenizer.json, so
// the package's file is read (once per worker, test-support/shared-cache.ts) only when a load or
// vocabularyFiles asks for it. What names the tables is the file's SHA-256 and what the splice
// needs from the parsed file: both are kept in the run's cache directory, the digest under a
// stamp of the file's stat (packages/tokenizer/src/node/file-stamp.ts, as the directory loader
// keeps a model directory's), so after the run's first worker a package is neither read,
// hashed nor parsed unless some load needs its text.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { stampedSource, statKeys, writeStamp } from "../../packages/tokenizer/src/node/file-stamp.ts";
import { digestOf } from "../../test-support/run-tables.ts";
import { sharedFixture } from "../../test-support/shared-cache.ts";

const require = createRequire(join(resolve(import.meta.dirname, "../.."), "packages/tokenizer/package.json"));
const packageFile = (pkg: string, file: string): string =>
  join(dirname(require.resolve(`${pkg}/models/tokenizer.json`)), file);

/** What the splice needs to know about a package's tokenizer.json (found by parsing it). */
interface Splice {
  /** The contents of its added tokens. */
  readonly added: readonly string[];
  /** Its highest ID (added tokens and vocabulary). */
  readonly lastId: number;
  /** Offset (UTF-16 units) of the `]` closing the top-level added_tokens array. */
  readonly addedEnd: number;
  /** The length of that array. */
  readonly addedCount: number;
}

interface PackageVocabulary extends Splice {
  /** The SHA-256 of tokenizer.json (digestOf). */
  readonly digest: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly addedSet: ReadonlySet<string>;
  /** tokenizer.json as text, read on first use (and checked against `digest`). */
  text(): string;
}

interface VocabularyJson {
  readonly added_tokens: ReadonlyArray<{ readonly id: number; readonly content: string }>;
  readonly model: { readonly vocab: Readonly<Record<string, number>> | readonly unknown[] };
}

function parseSplice(text: string): Splice {
  const json = JSON.parse(text) as VocabularyJson;
  const vocab = json.model.vocab;
  let lastId = -1;
  if (Array.isArray(vocab)) lastId = vocab.length - 1;
  else
    for (const id of Object.values(vocab as Readonly<Record<string, number>>)) if (id > lastId) lastId = id;
  for (const t of json.added_tokens) if (t.id > lastId) lastId = t.id;
  return {
    added: json.added_tokens.map((t) => t.content),
    lastId,
    addedEnd: topLevelArrayEnd(text, "added_tokens"),
    addedCount: json.added_tokens.length,
  };
}

/** Bump when Splice or how it is found changes. */
const SPLICE_VERSION = 1;

const runCacheDir = (): string | undefined => {
  const dir = process.env.CHATWIRE_CACHE_DIR;
  return dir === undefined || dir === "" ? undefined : dir;
};

/** The run's stored Splice of a file (by its digest), else undefined. */
function storedSplice(dir: string, digest: string): Splice | undefined {
  try {
    return JSON.parse(
      readFileSync(join(dir, `stand-in-v${SPLICE_VERSION}-${digest}.json`), "utf8"),
    ) as Splice;
  } catch {
    return undefined; // none yet: written by rename, so never half a file
  }
}

function storeSplice(dir: string, digest: string, splice: Splice): void {
  const file = join(dir, `stand-in-v${SPLICE_VERSION}-${digest}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, JSON.stringify(splice));
    renameSync(tmp, file);
  } catch {
    // Only costs the other workers the parse.
  }
}

function packageVocabulary(pkg: string): PackageVocabulary {
  return sharedFixture("peer-parse-vocabulary", pkg, () => {
    const path = packageFile(pkg, "tokenizer.json");
    const dir = runCacheDir();
    // Stats taken before any read: a file written since no longer matches the stamp.
    const keys = dir === undefined ? undefined : statKeys(dirname(path), [basename(path)]);
    const stampKey = `peer-parse stand-in ${path}`;
    const stamped = dir === undefined || keys === undefined ? undefined : stampedSource(dir, stampKey, keys);
    const readNow = (): { text: string; digest: string } => {
      const bytes = readFileSync(path);
      return { text: bytes.toString("utf8"), digest: digestOf([bytes]) };
    };
    let text: string | undefined;
    let digest: string;
    if (stamped !== undefined) digest = stamped;
    else {
      ({ text, digest } = readNow());
      if (dir !== undefined && keys !== undefined) writeStamp(dir, stampKey, keys, digest);
    }
    const read = (): string => {
      if (text === undefined) {
        const now = readNow();
        // The stamp vouched for the file at stat time; one changed since would name other tables.
        if (now.digest !== digest) throw new Error(`${path} changed during the run`);
        text = now.text;
      }
      return text;
    };
    let splice = dir === undefined ? undefined : storedSplice(dir, digest);
    if (splice === undefined) {
      splice = parseSplice(read());
      if (dir !== undefined) storeSplice(dir, digest, splice);
    }
    return {
      ...splice,
      digest,
      config: JSON.parse(readFileSync(packageFile(pkg, "tokenizer_config.json"), "utf8")) as Record<
        string,
        unknown
      >,
      addedSet: new Set(splice.added),
      text: read,
    };
  });
}

/** The contents of the package's added tokens. */
export const packageAddedTokens = (pkg: string): ReadonlySet<string> => packageVocabulary(pkg).addedSet;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d, 0x3a]); // whitespace and the key's ':'

/** The offset of the `]` that closes the top-level `key` array of a JSON document. */
export function topLevelArrayEnd(text: string, key: string): number {
  const want = JSON.stringify(key);
  let depth = 0;
  let arrayDepth = -1;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i++;
      while (i < text.length && text.charCodeAt(i) !== QUOTE) i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
      i++;
      if (arrayDepth < 0 && depth === 1 && text.startsWith(want, start) && i - start === want.length) {
        while (SPACE.has(text.charCodeAt(i))) i++;
        if (text.charCodeAt(i) !== 0x5b) throw new Error(`tokenizer.json: "${key}" is not an array`);
        arrayDepth = depth + 1;
      }
      continue;
    }
    if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) {
      if (depth === arrayDepth) return i;
      depth--;
    }
    i++;
  }
  throw new Error(`tokenizer.json: no top-level "${key}" array`);
}

/** A tokenizer.json added token for a marker: special, matched as written (no normalization). */
export function specialAddedToken(id: number, content: string) {
  return { id, content, special: true, single_word: false, lstrip: false, rstrip: false, normalized: false };
}

/** Each of `markers` the package lacks (once), and its added token's JSON after the highest ID. */
function newTokens(v: PackageVocabulary, markers: readonly string[]): { added: string[]; tokens: string[] } {
  const have = new Set(v.added);
  const added: string[] = [];
  const tokens: string[] = [];
  for (const m of markers) {
    if (have.has(m)) continue;
    have.add(m);
    added.push(m);
    tokens.push(JSON.stringify(specialAddedToken(v.lastId + added.length, m)));
  }
  return { added, tokens };
}

/** The package's tokenizer.json with `tokens` spliced in before the `]` of added_tokens. */
function spliced(v: PackageVocabulary, tokens: readonly string[]): string {
  const text = v.text();
  if (tokens.length === 0) return text;
  return `${text.slice(0, v.addedEnd)}${v.addedCount > 0 ? "," : ""}${tokens.join(",")}${text.slice(v.addedEnd)}`;
}

/**
 * The package's tokenizer.json and tokenizer_config.json (with `config` merged in), each of
 * `markers` the vocabulary lacks appended as a special added token after its highest ID;
 * `added`: those markers. (standInFiles with tokenizer.json put together at once.)
 */
export function vocabularyFiles(
  pkg: string,
  markers: readonly string[],
  config: Readonly<Record<string, unknown>>,
): { files: { "tokenizer.json": string; "tokenizer_config.json": string }; added: string[] } {
  const { files, added } = standInFiles(pkg, markers, config);
  return {
    files: {
      "tokenizer.json": files["tokenizer.json"] as string,
      "tokenizer_config.json": files["tokenizer_config.json"] as string,
    },
    added,
  };
}

/**
 * vocabularyFiles for a loader: tokenizer.json is put together (and the package's file read)
 * only when the loader reads it, which a load from stored tables does not; `digest` names its
 * exact content (the package file's SHA-256, where the tokens go and what they are), for the
 * table cache; `config`: the merged tokenizer_config.json.
 */
export function standInFiles(
  pkg: string,
  markers: readonly string[],
  config: Readonly<Record<string, unknown>>,
): { files: Record<string, string>; digest: string; added: string[]; config: Record<string, unknown> } {
  const v = packageVocabulary(pkg);
  const { added, tokens } = newTokens(v, markers);
  const merged = { ...v.config, ...config };
  const files: Record<string, string> = { "tokenizer_config.json": JSON.stringify(merged) };
  Object.defineProperty(files, "tokenizer.json", {
    enumerable: true,
    configurable: true,
    get: () => spliced(v, tokens),
  });
  const digest = tokens.length === 0 ? v.digest : digestOf([v.digest, String(v.addedEnd), ...tokens]);
  return { files, digest, added, config: merged };
}
