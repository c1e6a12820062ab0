// A vocabulary package's model files with markers it lacks appended as special added tokens:
// the stand-in vocabularies the peer-parse and response_template suites decode templates over.
// Each package is read and scanned once per worker (test-support/shared-cache.ts). A stand-in's
// tokenizer.json is the package's text with the new tokens spliced into its added_tokens array,
// so a load costs no parse and re-serialization of the whole vocabulary (hundreds of thousands
// of entries), only the loader's own reading of the file.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { sharedFixture } from "../../test-support/shared-cache.ts";

const require = createRequire(join(resolve(import.meta.dirname, "../.."), "packages/tokenizer/package.json"));
const packageFile = (pkg: string, file: string): string =>
  join(dirname(require.resolve(`${pkg}/models/tokenizer.json`)), file);

/** What the splice needs to know about a package's files. */
interface PackageVocabulary {
  readonly tokenizerJson: string;
  readonly config: Readonly<Record<string, unknown>>;
  /** The contents of its added tokens. */
  readonly added: ReadonlySet<string>;
  /** Its highest ID (added tokens and vocabulary). */
  readonly lastId: number;
  /** Offset of the `]` closing tokenizer.json's top-level added_tokens array, and its length. */
  readonly addedEnd: number;
  readonly addedCount: number;
}

interface VocabularyJson {
  readonly added_tokens: ReadonlyArray<{ readonly id: number; readonly content: string }>;
  readonly model: { readonly vocab: Readonly<Record<string, number>> | readonly unknown[] };
}

function packageVocabulary(pkg: string): PackageVocabulary {
  return sharedFixture("peer-parse-vocabulary", pkg, () => {
    const tokenizerJson = readFileSync(packageFile(pkg, "tokenizer.json"), "utf8");
    const json = JSON.parse(tokenizerJson) as VocabularyJson;
    const vocab = json.model.vocab;
    let lastId = -1;
    if (Array.isArray(vocab)) lastId = vocab.length - 1;
    else
      for (const id of Object.values(vocab as Readonly<Record<string, number>>)) if (id > lastId) lastId = id;
    for (const t of json.added_tokens) if (t.id > lastId) lastId = t.id;
    return {
      tokenizerJson,
      config: JSON.parse(readFileSync(packageFile(pkg, "tokenizer_config.json"), "utf8")) as Record<
        string,
        unknown
      >,
      added: new Set(json.added_tokens.map((t) => t.content)),
      lastId,
      addedEnd: topLevelArrayEnd(tokenizerJson, "added_tokens"),
      addedCount: json.added_tokens.length,
    };
  });
}

/** The contents of the package's added tokens. */
export const packageAddedTokens = (pkg: string): ReadonlySet<string> => packageVocabulary(pkg).added;

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

/**
 * The package's tokenizer.json and tokenizer_config.json (with `config` merged in), each of
 * `markers` the vocabulary lacks appended as a special added token after its highest ID;
 * `added`: those markers.
 */
export function vocabularyFiles(
  pkg: string,
  markers: readonly string[],
  config: Readonly<Record<string, unknown>>,
): { files: { "tokenizer.json": string; "tokenizer_config.json": string }; added: string[] } {
  const v = packageVocabulary(pkg);
  const have = new Set(v.added);
  const added: string[] = [];
  const tokens: string[] = [];
  for (const m of markers) {
    if (have.has(m)) continue;
    have.add(m);
    added.push(m);
    tokens.push(JSON.stringify(specialAddedToken(v.lastId + added.length, m)));
  }
  const tokenizerJson =
    tokens.length === 0
      ? v.tokenizerJson
      : `${v.tokenizerJson.slice(0, v.addedEnd)}${v.addedCount > 0 ? "," : ""}${tokens.join(",")}${v.tokenizerJson.slice(v.addedEnd)}`;
  return {
    files: {
      "tokenizer.json": tokenizerJson,
      "tokenizer_config.json": JSON.stringify({ ...v.config, ...config }),
    },
    added,
  };
}
