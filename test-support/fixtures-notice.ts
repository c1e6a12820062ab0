// vitest globalSetup: under CI=true missing fixtures fail the run; locally the
// fixture-backed suites are skipped and this prints ONE line saying so.
import { missingFamilyFixtures } from "./family-fixtures.ts";
import { fixturesDir, missingFixtures } from "./fixtures.ts";
import { ggufVocabDir, missingGgufVocab } from "./gguf-vocab.ts";
import { harmonySuiteDir, haveHarmonySuite } from "./harmony-suite.ts";
import { haveMistralSuite, mistralSuiteDir } from "./mistral-suite.ts";
import { oncePerRun } from "./once-per-run.ts";
import { missingSharedFiles, sharedSources } from "./shared-sources.ts";

export default function setup(): void {
  oncePerRun("fixtures-notice", notice);
}

function notice(): void {
  const skipped: string[] = [];
  const why: string[] = [];
  const missing = missingFixtures();
  if (missing.length > 0) {
    skipped.push("the InternLM2/ChatGLM3 real-tokenizer suites");
    why.push(
      `real tokenizer fixtures not found in ${fixturesDir()} (missing ${missing.join(", ")}); set CHATWIRE_FIXTURES`,
    );
  }
  const family = missingFamilyFixtures();
  if (family.length > 0) {
    skipped.push("parts of the family conformance battery");
    why.push(`family fixtures not found (${family.join("; ")}); set CHATWIRE_FIXTURES`);
  }
  const gguf = missingGgufVocab();
  if (gguf.length > 0) {
    skipped.push("the GGUF vocabulary suites");
    why.push(
      `GGUF vocabularies not found in ${ggufVocabDir()} (missing ${gguf.join(", ")}); set CHATWIRE_GGUF_VOCAB`,
    );
  }
  if (!haveHarmonySuite()) {
    skipped.push("the harmony peer suite");
    why.push(`harmony peer suite not found in ${harmonySuiteDir()}; set CHATWIRE_HARMONY_SUITE`);
  }
  const listed = sharedSources();
  const gone = missingSharedFiles(listed);
  if (gone.length > 0) {
    skipped.push(`the suites over ${gone.length} of the ${listed.length} files of test-vectors/SOURCES.md`);
    why.push(
      `missing ${gone
        .slice(0, 3)
        .map((e) => e.file)
        .join(", ")}${gone.length > 3 ? ", ..." : ""} (node test-vectors/fetch-shared.js fetches them)`,
    );
  }
  if (!haveMistralSuite()) {
    skipped.push("the mistral-common peer suite");
    why.push(`mistral-common data not found in ${mistralSuiteDir()}; set CHATWIRE_MISTRAL_SUITE`);
  }
  if (skipped.length === 0) return;
  const msg = why.join("; ");
  if (process.env.CI === "true" || process.env.CI === "1") {
    throw new Error(`CI: ${msg}`);
  }
  process.stderr.write(`chatwire: SKIPPED ${skipped.join(" and ")}: ${msg}\n`);
}
