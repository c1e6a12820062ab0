// GGUF vocabulary load: chatwire against node-llama-cpp's vocab-only load, both in one process,
// alternating file by file and round by round (workers/gguf-load.ts has the method). The files
// are llama.cpp's vocabulary GGUFs (../shared/gguf-vocab, provenance in its SOURCES.md): the
// largest (DeepSeek LLM, 102k tokens), byte-level and SentencePiece ones.
//
//   node --import tsx bench/src/gguf-load.ts [FILE.gguf ...] [--rounds=N]
//
// Without files: QUICK_FILES. Prints one JSON line: per file ours_ms / node_llama_cpp_ms (medians),
// ratio (median of per-round ratios), first loads; max_ratio_vs_node_llama_cpp. Runs our compiled
// dist/ (build first); node-llama-cpp is resolved from packages/server (its devDependency).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ggufVocabDir } from "../../test-support/gguf-vocab.ts";

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The bench's files: the largest byte-level vocabulary, GPT-2's, and two SentencePiece ones. */
export const QUICK_FILES = [
  "ggml-vocab-deepseek-llm.gguf",
  "ggml-vocab-gpt-2.gguf",
  "ggml-vocab-llama-spm.gguf",
  "ggml-vocab-baichuan.gguf",
] as const;

export type GgufLoadResult = Record<string, unknown> & { error?: string };

/** Runs the one-process worker on `files` (paths); an error value when it fails or files are missing. */
export function ggufLoadRows(files: readonly string[], rounds: number): GgufLoadResult {
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length > 0) return { error: `missing ${missing.join(", ")}` };
  const p = spawnSync(
    process.execPath,
    ["--import", "tsx", resolve(benchDir, "src/workers/gguf-load.ts"), JSON.stringify({ files, rounds })],
    { cwd: benchDir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
  const last = p.stdout.trim().split("\n").at(-1) ?? "";
  if (p.status !== 0 || !last.startsWith("{")) return { error: `workers/gguf-load.ts exited ${p.status}` };
  return JSON.parse(last) as GgufLoadResult;
}

/** The default files, in the shared directory. */
export function defaultGgufFiles(): string[] {
  return QUICK_FILES.map((f) => resolve(ggufVocabDir(), f));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const files = args.filter((a) => !a.startsWith("--")).map((f) => resolve(f));
  const rounds = Number(args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 5);
  console.log(JSON.stringify(ggufLoadRows(files.length > 0 ? files : defaultGgufFiles(), rounds)));
}
