// Where mistral-common's data lives (../shared/peer-suites/mistral-common; never copied into the
// repo). CHATWIRE_MISTRAL_SUITE overrides the location. Locally a missing suite skips the Mistral
// peer tests (test-support/fixtures-notice.ts prints the one skip line); under CI=true the run
// fails.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function mistralSuiteDir(): string {
  return resolve(repoRoot, process.env.CHATWIRE_MISTRAL_SUITE ?? "../shared/peer-suites/mistral-common");
}

/** mistral-common's SentencePiece file of each tokenizer version (its src/mistral_common/data/). */
export const MISTRAL_SPM_FILES = {
  1: "tokenizer.model.v1",
  2: "mistral_instruct_tokenizer_240216.model.v2",
  3: "mistral_instruct_tokenizer_240323.model.v3",
  7: "mistral_instruct_tokenizer_241114.model.v7",
} as const;

export function haveMistralSuite(): boolean {
  return Object.values(MISTRAL_SPM_FILES).every((f) =>
    existsSync(resolve(mistralSuiteDir(), "src/mistral_common/data", f)),
  );
}

export function mistralSpm(version: keyof typeof MISTRAL_SPM_FILES): Uint8Array {
  return readFileSync(resolve(mistralSuiteDir(), "src/mistral_common/data", MISTRAL_SPM_FILES[version]));
}

export interface MistralSample {
  readonly name: string;
  readonly request: unknown;
  /** Version -> expected token IDs and piece text, for the versions the sample has. */
  readonly expected: ReadonlyMap<number, { readonly tokens: readonly number[]; readonly text: string }>;
}

/** Every sample of tests/data/samples/ with its expectations. */
export function mistralSamples(): MistralSample[] {
  const root = resolve(mistralSuiteDir(), "tests/data/samples");
  return readdirSync(root)
    .sort()
    .map((name) => {
      const dir = resolve(root, name);
      const expected = new Map<number, { tokens: number[]; text: string }>();
      for (const v of [1, 2, 3]) {
        const t = resolve(dir, `tokens_v${v}.json`);
        if (!existsSync(t)) continue;
        const tokens = (JSON.parse(readFileSync(t, "utf8")) as { tokens: number[] }).tokens;
        expected.set(v, { tokens, text: readFileSync(resolve(dir, `text_v${v}.txt`), "utf8") });
      }
      return { name, request: JSON.parse(readFileSync(resolve(dir, "sample.json"), "utf8")), expected };
    });
}
