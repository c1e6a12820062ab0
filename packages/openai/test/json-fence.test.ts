// The content of a response_format request (ChunkWriterOptions.jsonContent): a Markdown fence
// around the JSON is dropped (Ministral writes ```json\n{...}\n```, as llama.cpp's parser reads
// it), content with no opening fence passes unchanged, and any chunking of the content gives
// the same text. Through the ChunkWriter, the held text goes out before an action and at finish.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonFenceFilter } from "../src/index.ts";
import { qwen3, runWriter } from "./writer-support.ts";

function filtered(chunks: readonly string[]): string {
  const f = new JsonFenceFilter();
  let out = "";
  for (const c of chunks) out += f.push(c);
  return out + f.end();
}

function cut(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((x) => Math.floor(x * text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of at)
    if (c > from) {
      out.push(text.slice(from, c));
      from = c;
    }
  out.push(text.slice(from));
  return out;
}

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });

describe("JsonFenceFilter", () => {
  it("drops the fence around JSON: ```json, bare ```, surrounding whitespace", () => {
    const json = '{"amount": 123.45, "date": "2025-12-03"}';
    expect(filtered([`\`\`\`json\n${json}\n\`\`\``])).toBe(json);
    expect(filtered([`\n \`\`\`json  \r\n${json}\n\`\`\`\n`])).toBe(json);
    expect(filtered([`\`\`\`\n${json}\n\`\`\``])).toBe(json);
    // No closing fence (cut off): the opening is still dropped.
    expect(filtered([`\`\`\`json\n${json}`])).toBe(json);
  });

  it("leaves content with no opening fence unchanged", () => {
    for (const s of [
      '{"a": "```"}',
      "```python\nprint(1)\n```",
      "Here: ```json\n{}\n```",
      "``",
      "   ",
      "",
      "`x`",
      '{"a": 1}\n```',
    ])
      expect(filtered([s])).toBe(s);
  });

  it("keeps backticks and whitespace inside the fenced JSON that are not its closing fence", () => {
    expect(filtered(['```json\n{"a": "``"}\n```'])).toBe('{"a": "``"}');
    expect(filtered(['```json\n{"a": "x  ` "}\n```'])).toBe('{"a": "x  ` "}');
  });

  it("any chunking gives the text of the whole (fenced or not)", () => {
    const value = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v, null, 1));
    const wrap = fc.constantFrom(
      (j: string) => `\`\`\`json\n${j}\n\`\`\``,
      (j: string) => ` \n\`\`\`\n${j}\n\`\`\`\n`,
      (j: string) => j,
      (j: string) => `\`\`${j}`,
      (j: string) => `${j}\n\`\``,
    );
    fc.assert(
      fc.property(value, wrap, cuts, (j, w, c) => {
        const text = w(j);
        expect(filtered(cut(text, c))).toBe(filtered([text]));
      }),
      { numRuns: 300, seed: 37 },
    );
    fc.assert(
      fc.property(
        fc.string({
          maxLength: 40,
          unit: fc.constantFrom("`", " ", "\n", "j", "s", "o", "n", "{", "}", "a"),
        }),
        cuts,
        (s, c) => {
          expect(filtered(cut(s, c))).toBe(filtered([s]));
        },
      ),
      { numRuns: 500, seed: 38 },
    );
    // Leads around the most a lead may hold (256 units): one chunk, one unit at a time, random cuts.
    for (const n of [250, 252, 253, 254, 255, 256, 300]) {
      const text = `${" ".repeat(n)}\`\`\`json\n{"a": 1}\n\`\`\``;
      const whole = filtered([text]);
      expect(filtered([...text]), String(n)).toBe(whole);
      fc.assert(
        fc.property(cuts, (c) => {
          expect(filtered(cut(text, c))).toBe(whole);
        }),
        { numRuns: 50, seed: n },
      );
    }
  });

  it("holds a bounded amount: a long run of whitespace goes out as it comes", () => {
    const f = new JsonFenceFilter();
    expect(f.push("```json\n{}")).toBe("{}");
    let sent = 0;
    for (let i = 0; i < 10_000; i++) sent += f.push(" ").length;
    expect(sent).toBeGreaterThan(9_000);
  });

  it("through the ChunkWriter: content unfenced with jsonContent, as is without", () => {
    const tok = qwen3();
    const all = tok.encodeText('```json\n{"a": 1}\n```').ids;
    expect(runWriter(tok, all, { jsonContent: true }).content).toBe('{"a": 1}');
    expect(runWriter(tok, all).content).toBe('```json\n{"a": 1}\n```');
  });
});
