// Regenerates every golden file from the reference tools into a temp dir and requires it to be
// byte-identical to the committed file. A model whose reference tool or fixture is missing is
// skipped with the reason in the test name.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturesDir } from "../../test-support/fixtures.ts";
import { goldenFile, MODELS, type ModelName, skipReason, vectorsDir } from "./golden-files.ts";

const reasons = new Map<ModelName, string | undefined>(MODELS.map((m) => [m.name, skipReason(m.name)]));
const runnable = MODELS.filter((m) => reasons.get(m.name) === undefined).map((m) => m.name);

let outDir = "";
let generatorLog = "";

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), "chatwire-vectors-"));
  if (runnable.length === 0) return;
  const r = spawnSync(
    process.execPath,
    [resolve(vectorsDir, "generate.js"), "--out", outDir, "--only", runnable.join(",")],
    { encoding: "utf8", env: { ...process.env, CHATWIRE_FIXTURES: fixturesDir() } },
  );
  generatorLog = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) throw new Error(`generate.js failed (status ${r.status}):\n${generatorLog}`);
});

afterAll(() => {
  if (outDir !== "") rmSync(outDir, { recursive: true, force: true });
});

/** The first differing line, with the vector name, so a failure says WHAT changed. */
function firstDifference(expected: string, actual: string): string {
  const e = expected.split("\n");
  const a = actual.split("\n");
  for (let i = 0; i < Math.max(e.length, a.length); i++) {
    if (e[i] !== a[i]) {
      const name = /"name":"([^"]*)"/.exec(e[i] ?? a[i] ?? "")?.[1] ?? "(header)";
      const cut = (s: string | undefined) =>
        s === undefined ? "<missing>" : s.length > 600 ? `${s.slice(0, 600)}…` : s;
      return `line ${i + 1}, vector ${name}\n  golden:      ${cut(e[i])}\n  regenerated: ${cut(a[i])}`;
    }
  }
  return "identical";
}

for (const { name, kinds } of MODELS) {
  const reason = reasons.get(name);
  describe.skipIf(reason !== undefined)(
    `golden ${name}${reason === undefined ? "" : ` (skipped: ${reason})`}`,
    () => {
      for (const kind of kinds) {
        it(`${name}.${kind}.json regenerates byte-identically`, () => {
          const golden = readFileSync(goldenFile(name, kind), "utf8");
          const fresh = readFileSync(goldenFile(name, kind, outDir), "utf8");
          if (golden !== fresh)
            expect.fail(`${name}.${kind}.json differs: ${firstDifference(golden, fresh)}`);
          expect(fresh).toBe(golden);
        });
      }
    },
  );
}
