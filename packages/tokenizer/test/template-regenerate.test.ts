// The template goldens come from the reference tools only: test-vectors/gen/template_vectors.js
// (Python jinja2 + HF Rust tokenizers) run again into a temp dir must write byte-identical files.
// Needs /usr/bin/python3 with jinja2 and ../shared/templates; skipped otherwise.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { havePython, repoRoot } from "./template-support.ts";

const committed = join(repoRoot, "test-vectors/golden/template");
const templates = join(repoRoot, "..", "shared/templates");

describe.runIf(havePython() && existsSync(templates))("template goldens regenerate byte for byte", () => {
  test("template_vectors.js", () => {
    const out = mkdtempSync(join(tmpdir(), "chatwire-template-vectors-"));
    try {
      const r = spawnSync(process.execPath, [join(repoRoot, "test-vectors/gen/template_vectors.js"), out], {
        encoding: "utf8",
      });
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
      const files = readdirSync(committed).sort();
      expect(readdirSync(out).sort()).toEqual(files);
      for (const f of files)
        expect(readFileSync(join(out, f), "utf8"), f).toBe(readFileSync(join(committed, f), "utf8"));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
