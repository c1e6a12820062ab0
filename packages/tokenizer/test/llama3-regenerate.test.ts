// The Llama 3.x goldens come from the reference tools only: test-vectors/gen/family_llama3.js
// (Python jinja2 + HF Rust tokenizers) run again into a temp dir must write byte-identical
// llama3*.json files. Needs /usr/bin/python3 with jinja2 and ../shared/templates; skipped otherwise.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "./llama3-support.ts";
import { havePython } from "./template-support.ts";

const committed = join(repoRoot, "test-vectors/golden/families");
const templates = join(repoRoot, "..", "shared/templates");

describe.runIf(havePython() && existsSync(templates))("Llama 3.x goldens regenerate byte for byte", () => {
  test("family_llama3.js", () => {
    const out = mkdtempSync(join(tmpdir(), "chatwire-llama3-vectors-"));
    try {
      const r = spawnSync(process.execPath, [join(repoRoot, "test-vectors/gen/family_llama3.js"), out], {
        encoding: "utf8",
      });
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
      const files = readdirSync(committed)
        .filter((f) => f.startsWith("llama3"))
        .sort();
      expect(files).toEqual(["llama3.json", "llama31.json"]);
      expect(readdirSync(out).sort()).toEqual(files);
      for (const f of files)
        expect(readFileSync(join(out, f), "utf8"), f).toBe(readFileSync(join(committed, f), "utf8"));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
