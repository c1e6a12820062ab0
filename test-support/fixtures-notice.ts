// vitest globalSetup: under CI=true missing fixtures fail the run; locally the
// fixture-backed suites are skipped and this prints ONE line saying so.
import { fixturesDir, missingFixtures } from "./fixtures.ts";

export default function setup(): void {
  const missing = missingFixtures();
  if (missing.length === 0) return;
  const msg = `real tokenizer fixtures not found in ${fixturesDir()} (missing ${missing.join(", ")}); set CHATWIRE_FIXTURES`;
  if (process.env.CI === "true" || process.env.CI === "1") {
    throw new Error(`CI: ${msg}`);
  }
  process.stderr.write(`chatwire: SKIPPED the InternLM2/ChatGLM3 real-tokenizer suites: ${msg}\n`);
}
