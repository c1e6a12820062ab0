// encode-chat --text through the real CLI entry: the golden OpenAI-shaped requests give the
// golden IDs, and --text adds the golden rendering (test-vectors/golden/qwen3.request.json).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot as root, runCli } from "./support.ts";

interface Golden {
  readonly name: string;
  readonly request: unknown;
  readonly rendered: string;
  readonly ids: number[];
}

function run(args: string[], lines: unknown[]): Array<Record<string, unknown>> {
  const r = runCli(args, lines);
  expect(r.code).toBe(0);
  return r.out;
}

describe("encode-chat --text", () => {
  const golden = (
    JSON.parse(readFileSync(resolve(root, "test-vectors/golden/qwen3.request.json"), "utf8")) as {
      vectors: Golden[];
    }
  ).vectors;

  it("OpenAI-shaped requests: golden IDs, and the golden rendering as text", () => {
    const out = run(
      ["encode-chat", "--text"],
      golden.map((v) => v.request),
    );
    expect(out.length).toBe(golden.length);
    golden.forEach((v, k) => {
      expect(out[k]?.ids, v.name).toEqual(v.ids);
      expect(out[k]?.text, v.name).toBe(v.rendered);
    });
  });

  it("without --text there is no text field; errors stay per line", () => {
    const out = run(
      ["encode-chat"],
      [golden[0]?.request, { messages: [{ role: "user", content: [{ type: "image_url" }] }] }],
    );
    expect(Object.keys(out[0] ?? {}).sort()).toEqual(["audit", "ids"]);
    expect(out[1]?.error).toMatchObject({ type: "invalid-conversation", field: "content[0].type" });
  });
});
