// The golden file table shared by the vector tests: which files exist per model and what
// each one needs to regenerate.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fixturePath } from "../../test-support/fixtures.ts";

export const vectorsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const goldenDir = resolve(vectorsDir, "golden");

export type ModelName = "internlm2" | "chatglm3" | "tiny-ilm" | "tiny-glm" | "qwen3";
export type Kind = "text" | "decode" | "chat" | "request";

export const MODELS: readonly { name: ModelName; kinds: readonly Kind[] }[] = [
  { name: "internlm2", kinds: ["text", "decode", "chat", "request"] },
  { name: "chatglm3", kinds: ["text", "decode", "chat", "request"] },
  { name: "tiny-ilm", kinds: ["text", "decode"] },
  { name: "tiny-glm", kinds: ["text", "decode"] },
  { name: "qwen3", kinds: ["text", "decode", "chat", "request"] },
];

export function goldenFile(model: ModelName, kind: Kind, dir: string = goldenDir): string {
  return resolve(dir, `${model}.${kind}.json`);
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

function pythonHasSentencepiece(): boolean {
  const python = process.env.CHATWIRE_PYTHON ?? "/usr/bin/python3";
  return spawnSync(python, ["-c", "import sentencepiece"], { stdio: "ignore" }).status === 0;
}

function rustTokenizersLoads(): boolean {
  try {
    createRequire(resolve(vectorsDir, "gen", "qwen3_vectors.js")).resolve("tokenizers");
    return true;
  } catch {
    return false;
  }
}

/** Why a model's golden files cannot be regenerated here, or undefined when they can. */
export function skipReason(model: ModelName): string | undefined {
  if (model === "qwen3")
    return rustTokenizersLoads() ? undefined : "npm `tokenizers` (HF Rust) not installed";
  if (!pythonHasSentencepiece()) return "python `sentencepiece` module missing (set CHATWIRE_PYTHON)";
  if (model === "internlm2" || model === "chatglm3") {
    const file = fixturePath(`${model}/tokenizer.model`);
    if (!existsSync(file)) return `fixture ${file} missing (set CHATWIRE_FIXTURES)`;
  }
  return undefined;
}
