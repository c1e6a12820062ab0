// The engine is format-agnostic: no family is named in the decoder, the spec compiler, the
// tool-call streaming or the body syntaxes (code OR comments; behaviour comes from grammar
// data). Family names are the folders of packages/tokenizer/src/families/ (so a new family is
// checked by existing) and their stems (internlm2 -> internlm, qwen3-coder -> qwen, ...).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./models.ts";

const familiesDir = resolve(repoRoot, "packages/tokenizer/src/families");
const src = resolve(repoRoot, "packages/stream-decoder/src");

function familyNames(): string[] {
  const names = readdirSync(familiesDir).filter((n) => statSync(resolve(familiesDir, n)).isDirectory());
  const out = new Set<string>();
  for (const n of names) {
    const lower = n.toLowerCase();
    out.add(lower);
    out.add(lower.replaceAll("-", ""));
    const stem = (lower.split("-")[0] as string).replace(/[0-9.]+$/, "");
    if (stem.length >= 3) out.add(stem);
  }
  // Nicknames the old code used for them.
  for (const n of ["glm", "chatml", "gptoss"]) out.add(n);
  return [...out].sort();
}

function engineFiles(): string[] {
  const files = ["decoder.ts", "spec.ts", "tool-call-stream.ts"].map((f) => resolve(src, f));
  for (const f of readdirSync(resolve(src, "syntax")))
    if (f.endsWith(".ts")) files.push(resolve(src, "syntax", f));
  return files;
}

describe("no family name in the engine files", () => {
  it("the family list is read from the families folder", () => {
    const names = familyNames();
    for (const n of ["internlm2", "chatglm3", "qwen3", "gpt-oss"]) expect(names).toContain(n);
  });

  for (const file of engineFiles()) {
    it(file.slice(src.length + 1), () => {
      const text = readFileSync(file, "utf8").toLowerCase();
      const hits = familyNames().filter((n) => text.includes(n));
      expect(hits).toEqual([]);
    });
  }

  it("the check can fail: a line naming a family is found", () => {
    const text = "if (spec.format === 'qwen3') {}".toLowerCase();
    expect(familyNames().filter((n) => text.includes(n))).toContain("qwen3");
  });
});
