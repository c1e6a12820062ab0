// The CLI over the family list (docs/cli-contract.md): --format auto / NAME / unknown, encode-chat
// and decode for every family with a fixture tokenizer here, and decode lines carrying "tools".
// main() of the compiled bundle in this process (support.ts runMain): the cases check answers and
// exit codes, not the process around them.
import { FAMILY_NAMES } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { familyFixtures, missingOf, sourceDir } from "../../../test-support/family-fixtures.ts";
import { type CliRun, runMain } from "./support.ts";

const cli = (command: string, args: string[], lines: unknown[]): Promise<CliRun> =>
  runMain([command, ...args], lines);

/** Field `key` of output line `i` (the line must exist). */
function at<T>(r: { out: Record<string, unknown>[] }, i: number, key: string): T {
  const line = r.out[i];
  if (line === undefined) throw new Error(`no output line ${i}`);
  return line[key] as T;
}

const request = {
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "hi<|im_end|><|start|>[gMASK]<|eot_id|>" },
  ],
  add_generation_prompt: true,
};

describe("--format", () => {
  it("an unknown family: exit 2, one stderr line listing every family", async () => {
    const r = await cli("encode-text", ["--format", "no-such-family"], [{ text: "x" }]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("invalid-option-value");
    for (const n of FAMILY_NAMES) expect(lines[0]).toContain(n);
  });

  it("auto is the default (the same IDs as no --format)", async () => {
    const a = await cli("encode-chat", ["--format", "auto"], [request]);
    const b = await cli("encode-chat", [], [request]);
    expect(a.code).toBe(0);
    expect(a.out).toEqual(b.out);
    expect(at<number[]>(a, 0, "ids").length).toBeGreaterThan(5);
  });
});

describe("every family with a fixture directory here: encode-chat, then decode", () => {
  const cases = FAMILY_NAMES.flatMap((name) => {
    const t = familyFixtures(name)?.tokenizers.find(
      (x) =>
        !("builtin" in x.source) &&
        !("overlay" in x.source) &&
        !("files" in x.source) &&
        x.template === undefined,
    );
    const dir = t === undefined ? undefined : sourceDir(t.source);
    return t !== undefined && dir !== undefined && missingOf(t).length === 0 ? [[name, dir] as const] : [];
  });

  it.each(cases)("%s", async (name, dir) => {
    const enc = await cli("encode-chat", ["--tokenizer", dir, "--format", name], [request]);
    expect(enc.code, enc.stderr).toBe(0);
    const ids = at<number[]>(enc, 0, "ids");
    expect(ids.length).toBeGreaterThan(5);
    expect(at<unknown[]>(enc, 0, "audit").length).toBeGreaterThan(0);
    const dec = await cli("decode", ["--tokenizer", dir], [{ ids: [] }]);
    expect(dec.code, dec.stderr).toBe(0);
    expect(at<{ type: string }[]>(dec, 0, "events").at(-1)?.type).toBe("stop");
  });
});

describe('decode: "tools" next to "ids"', () => {
  // Qwen3: <tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call><|im_end|>
  const call = {
    ids: [151657, 198, 4913, 606, 788, 330, 455, 69364, 497, 330, 16370, 788, 4687, 532, 198, 151658, 151645],
  };
  const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }];

  it("accepted; the events are those of the line without tools for a JSON tool-call grammar", async () => {
    const r = await cli("decode", [], [call, { ...call, tools }]);
    expect(r.code).toBe(0);
    expect(r.out[1]).toEqual(r.out[0]);
    expect(JSON.stringify(r.out[0])).toContain('"call":{"name":"get_weather","arguments":{}}');
  });

  it("a malformed list is the line's invalid-input error naming the item", async () => {
    const r = await cli(
      "decode",
      [],
      [
        { ids: [], tools: [{ type: "function", function: {} }] },
        { ids: [], tools: 3 },
      ],
    );
    expect(r.code).toBe(0);
    expect(r.out[0]).toEqual({
      error: {
        type: "invalid-input",
        message: '"tools[0].function.name" must be a non-empty string',
        field: "tools[0].function.name",
      },
    });
    expect(at<{ field: string }>(r, 1, "error").field).toBe("tools");
  });
});
