// The engines are family-agnostic: no family name (families/index.ts, every definition, also the
// ones added later) appears in the loader, the registry check, detection, the chat builder, the
// chat tokenizer or the CLI, code or comment, in any letter case. A family is only its folder.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FAMILY_NAMES } from "../../src/index.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const src = join(root, "packages/tokenizer/src");

function tree(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tree(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const ENGINE_FILES = [
  join(src, "load/load.ts"),
  join(src, "chat-tokenizer.ts"),
  join(src, "load/model-files.ts"),
  join(src, "load/from-url.ts"),
  join(src, "chat/builder.ts"),
  join(src, "chat/registry.ts"),
  ...readdirSync(join(src, "families"))
    .filter((n) => n.startsWith("detect") && n.endsWith(".ts"))
    .map((n) => join(src, "families", n)),
  ...tree(join(root, "packages/cli/src")),
];

/** Every occurrence of a family name in `text` (case-insensitive), as "line: excerpt". */
function hits(text: string, names: readonly string[]): string[] {
  const out: string[] = [];
  text.split("\n").forEach((line, i) => {
    const lower = line.toLowerCase();
    for (const n of names) if (lower.includes(n.toLowerCase())) out.push(`${i + 1} (${n}): ${line.trim()}`);
  });
  return out;
}

describe("no family name in the engine files", () => {
  it("the check itself finds a planted name", () => {
    expect(hits("x\n// talks to QWEN3 here", ["qwen3"])).toEqual(["2 (qwen3): // talks to QWEN3 here"]);
    expect(FAMILY_NAMES.length).toBeGreaterThanOrEqual(4);
  });

  it.each(ENGINE_FILES.map((f) => [relative(root, f), f]))("%s", (_, file) => {
    expect(hits(readFileSync(file, "utf8"), FAMILY_NAMES)).toEqual([]);
  });
});
