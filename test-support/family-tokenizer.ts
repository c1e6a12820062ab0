// Loads a tokenizer entry of a family's fixtures file (./family-fixtures.ts) the way both
// conformance batteries do: a built-in by name, else the source directory's files (plus the
// shared overlay files and the fixtures' template as chat_template.jinja) through fromFiles.
// Each entry is loaded once per worker (./shared-cache.ts): the batteries of both packages and
// the suites that round-trip through a family ask for the same few tokenizers. A load from files
// goes through the run's table cache (./run-tables.ts), so only the run's first load of an entry
// builds from the model file.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ChatTokenizer, fromFiles } from "../packages/tokenizer/src/index.ts";
import { loadTokenizerSync } from "../packages/tokenizer/src/node.ts";
import { type FixtureTokenizer, repoRoot, sourceDir } from "./family-fixtures.ts";
import { fixturesDir } from "./fixtures.ts";
import { digestOf, withRunTables } from "./run-tables.ts";
import { sharedFixture } from "./shared-cache.ts";

const FILES = [
  "tokenizer_config.json",
  "tokenizer.json",
  "tokenizer.model",
  "generation_config.json",
  "config.json",
  "chat_template.jinja",
];

function readIf(path: string): Uint8Array | undefined {
  try {
    return new Uint8Array(readFileSync(path));
  } catch {
    return undefined;
  }
}

export function loadFixtureTokenizer(t: FixtureTokenizer): ChatTokenizer {
  // The entry's JSON names every file it reads (and the fixtures directory those paths resolve in).
  return sharedFixture("family-tokenizer", JSON.stringify([t, fixturesDir()]), () => load(t));
}

function load(t: FixtureTokenizer): ChatTokenizer {
  const options = t.format === undefined ? {} : { format: t.format };
  const s = t.source;
  if ("builtin" in s && t.template === undefined) return loadTokenizerSync(s.builtin, options);
  const dir = sourceDir(s);
  if (dir === undefined) throw new Error(`${t.label}: source not available`);
  const files: Record<string, Uint8Array> = {};
  for (const n of FILES) {
    const b = readIf(join(dir, n));
    if (b !== undefined) files[n] = b;
  }
  if ("package" in s || "repo" in s)
    for (const [n, p] of Object.entries(s.files ?? {})) files[n] = new Uint8Array(readFileSync(join(dir, p)));
  if ("shared" in s)
    for (const [n, p] of Object.entries(s.overlay ?? {})) {
      const b = readIf(resolve(fixturesDir(), p));
      if (b === undefined) throw new Error(`${t.label}: overlay ${p} missing`);
      files[n] = b;
    }
  if (t.template !== undefined)
    files["chat_template.jinja"] = new Uint8Array(readFileSync(resolve(repoRoot, t.template)));
  // The tables are named by every file the load reads and the forced family: what the family
  // reserves (so blocks) comes from the config, the template and the family, not the model file
  // alone, and entries that share a model file but disagree on it would replace each other's.
  const names = Object.keys(files).sort();
  const source = digestOf(["native", t.format ?? "", ...names.flatMap((n) => [n, files[n] as Uint8Array])]);
  return withRunTables(source, (tables) =>
    fromFiles(files, tables === undefined ? options : { ...options, tables }),
  );
}
