// encode-chat --text: the golden OpenAI-shaped requests give the golden IDs, and --text adds the
// golden rendering (test-vectors/golden/qwen3.request.json). main() of the compiled bundle in this
// process (support.ts runMain): the cases compare answers; encode-chat's run through the bin is in
// encode.test.ts.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot as root, runMain } from "./support.ts";

interface Golden {
  readonly name: string;
  readonly request: unknown;
  readonly rendered: string;
  readonly ids: number[];
}

async function run(args: string[], lines: unknown[]): Promise<Array<Record<string, unknown>>> {
  const r = await runMain(args, lines);
  expect(r.code).toBe(0);
  return r.out;
}

describe("encode-chat --text", () => {
  const golden = (
    JSON.parse(readFileSync(resolve(root, "test-vectors/golden/qwen3.request.json"), "utf8")) as {
      vectors: Golden[];
    }
  ).vectors;

  it("OpenAI-shaped requests: golden IDs, and the golden rendering as text", async () => {
    const out = await run(
      ["encode-chat", "--text"],
      golden.map((v) => v.request),
    );
    expect(out.length).toBe(golden.length);
    golden.forEach((v, k) => {
      expect(out[k]?.ids, v.name).toEqual(v.ids);
      expect(out[k]?.text, v.name).toBe(v.rendered);
    });
  });

  it("without --text there is no text field; errors stay per line", async () => {
    const out = await run(
      ["encode-chat"],
      [golden[0]?.request, { messages: [{ role: "user", content: [{ type: "image_url" }] }] }],
    );
    expect(Object.keys(out[0] ?? {}).sort()).toEqual(["audit", "ids"]);
    expect(out[1]?.error).toMatchObject({ type: "invalid-conversation", field: "content[0].type" });
  });
});
