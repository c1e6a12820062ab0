// The Llama 3.x goldens come from the reference tools only: test-vectors/gen/family_llama3.js
// (Python jinja2 + HF Rust tokenizers) run again into a temp dir must write byte-identical
// llama3*.json files. Needs /usr/bin/python3 with jinja2 and ../shared/templates; skipped otherwise.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "./llama3-support.ts";
import { havePython, regenerate } from "./template-support.ts";

const committed = join(repoRoot, "test-vectors/golden/families");
const templates = join(repoRoot, "..", "shared/templates");

describe.runIf(havePython() && existsSync(templates))("Llama 3.x goldens regenerate byte for byte", () => {
  test("family_llama3.js", () => {
    const got = regenerate("family_llama3.js");
    const files = readdirSync(committed)
      .filter((f) => f.startsWith("llama3"))
      .sort();
    expect(files).toEqual(["llama3.json", "llama31.json"]);
    expect([...got.keys()]).toEqual(files);
    for (const f of files) expect(got.get(f), f).toBe(readFileSync(join(committed, f), "utf8"));
  }, 120_000);
});
