// llama.cpp's vocabulary-only GGUF files and their tokenizer test vectors (../shared/gguf-vocab,
// provenance in its SOURCES.md). Never copied into the repository: CHATWIRE_GGUF_VOCAB overrides
// the location (relative to the repository root).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function ggufVocabDir(): string {
  return resolve(repoRoot, process.env.CHATWIRE_GGUF_VOCAB ?? "../shared/gguf-vocab");
}

/** The files the GGUF suites need (one of each vocabulary type at least). */
export const GGUF_VOCAB_FILES = ["ggml-vocab-gpt-2.gguf", "ggml-vocab-llama-spm.gguf"] as const;

export function missingGgufVocab(): string[] {
  const dir = ggufVocabDir();
  return GGUF_VOCAB_FILES.filter((f) => !existsSync(resolve(dir, f)));
}

export function haveGgufVocab(): boolean {
  return missingGgufVocab().length === 0;
}

/** Every `NAME.gguf` of the directory, with its test vectors when present. */
export function ggufVocabFiles(): { name: string; path: string; vectors: boolean }[] {
  const dir = ggufVocabDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".gguf"))
    .sort()
    .map((name) => ({ name, path: resolve(dir, name), vectors: existsSync(resolve(dir, `${name}.inp`)) }));
}

/**
 * llama.cpp's pairs (tests/test-tokenizer-0.cpp): inputs each followed by a line
 * "__ggml_vocab_test__"; outputs one line of space-separated IDs per input, without BOS.
 */
export function ggufVectors(path: string): { text: string; ids: number[] }[] {
  const inputs = readFileSync(`${path}.inp`, "utf8").split("\n__ggml_vocab_test__\n");
  inputs.pop();
  const outputs = readFileSync(`${path}.out`, "utf8").split("\n");
  return inputs.map((text, i) => {
    const line = (outputs[i] ?? "").trim();
    return { text, ids: line === "" ? [] : line.split(/\s+/).map(Number) };
  });
}
