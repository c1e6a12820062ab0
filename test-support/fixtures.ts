// Where the real tokenizer files live. They are never copied into the repository:
// CI has ../shared beside the checkout; CHATWIRE_FIXTURES overrides the location.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function fixturesDir(): string {
  return resolve(repoRoot, process.env.CHATWIRE_FIXTURES ?? "../shared/tokenizers");
}

/** The files the fixture-backed suites read; all must exist for those suites to run. */
export const FIXTURE_FILES = [
  "internlm2/tokenizer.model",
  "internlm2/tokenizer_config.json",
  "chatglm3/tokenizer.model",
  "chatglm3/tokenizer_config.json",
] as const;

export function missingFixtures(): string[] {
  const dir = fixturesDir();
  return FIXTURE_FILES.filter((f) => !existsSync(resolve(dir, f)));
}

export function haveFixtures(): boolean {
  return missingFixtures().length === 0;
}

export function fixturePath(rel: string): string {
  return resolve(fixturesDir(), rel);
}
