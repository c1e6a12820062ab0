// The sequencer's list of slow files (test-support/slow-files.ts) names test files of this
// repository by their path from its root: a path that matches no file (one kept relative to the
// checkout that wrote the report, say) silently turns the slow-first order off.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SLOW_FILES } from "../../test-support/slow-files.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

describe("test-support/slow-files.ts", () => {
  it("lists existing test files by their repository path, each once", () => {
    expect(SLOW_FILES.length).toBeGreaterThan(0);
    for (const f of SLOW_FILES) {
      expect(f, f).toMatch(/^(packages|examples|test-vectors|bench)\/[^.][^\\]*\.test\.ts$/);
      expect(existsSync(join(root, f)), f).toBe(true);
    }
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length);
  });
});
