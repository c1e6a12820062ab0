// Qwen3-Coder generations decoded: the reference assistant turns of
// test-vectors/golden/families/qwen3-coder.generation.json (the template's rendering of an
// assistant message, tokenized by HF's Rust tokenizers, <|im_end|> appended) pushed through the
// decoder compiled from the loaded files (detected as qwen3-coder: their verified registry and the
// family's grammar), with streamToolCalls. Expected values come from
// the requests the turns were rendered from: the content text, the calls' names, and
//   - with the request's tools: the arguments as the caller sent them (typed back by the
//     schema, vLLM's rules), except where vLLM's rules keep strings (a tool whose parameters
//     have no properties);
//   - without tools: every value the text the template wrote for it (read from the reference
//     rendering between "<parameter=K>\n" and "\n</parameter>").
// Every case is decoded whole, one ID at a time and in seeded random chunks: the same events.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coderTokenizer } from "../../tokenizer/test/qwen3-coder-support.ts";
import { compileDecoderSpecFor, createDecoder, type DecoderEvent, eventCollector } from "../src/index.ts";
import { repoRoot } from "./models.ts";

interface Generation {
  readonly name: string;
  readonly tools: readonly unknown[];
  readonly text: string;
  readonly ids: readonly number[];
  readonly calls: ReadonlyArray<{ readonly name: string; readonly arguments: unknown }>;
}

const golden = JSON.parse(
  readFileSync(join(repoRoot, "test-vectors/golden/families/qwen3-coder.generation.json"), "utf8"),
) as { vectors: Generation[] };

/** Tools whose parameters have no properties: vLLM types nothing by them. */
const UNTYPED_TOOLS = new Set(["odd_schema"]);

function decode(ids: readonly number[], tools: readonly unknown[] | undefined, chunks: readonly number[][]) {
  const spec = compileDecoderSpecFor(coderTokenizer());
  const h = eventCollector();
  const d = createDecoder(spec, h, { streamToolCalls: true, ...(tools === undefined ? {} : { tools }) });
  for (const c of chunks) d.pushMany(c);
  d.end();
  expect(chunks.flat()).toEqual(ids);
  return h.events;
}

function chunkings(ids: readonly number[]): number[][][] {
  let seed = 8;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const random: number[][] = [];
  for (let i = 0; i < ids.length; ) {
    const n = 1 + Math.floor(rand() * 5);
    random.push(ids.slice(i, i + n));
    i += n;
  }
  return [[[...ids]], ids.map((id) => [id]), random];
}

/** The text values the template wrote, per call, from the reference rendering (not from the decoder). */
function renderedValues(text: string): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  for (const call of text.split("<function=").slice(1)) {
    const values: Record<string, string> = {};
    const re = /<parameter=([^>\n]*)>\n([\s\S]*?)\n<\/parameter>\n/g;
    for (let m = re.exec(call); m !== null; m = re.exec(call)) values[m[1] as string] = m[2] as string;
    out.push(values);
  }
  return out;
}

interface Summary {
  readonly text: string;
  readonly calls: Array<{ name: string; streamedName: string; streamed: unknown; arguments: unknown }>;
  readonly errors: readonly DecoderEvent[];
  readonly stop: DecoderEvent | undefined;
}

function summarize(events: readonly DecoderEvent[]): Summary {
  const calls: Summary["calls"] = [];
  let name = "";
  let args = "";
  let text = "";
  for (const e of events) {
    if (e.type === "text") text += e.text;
    else if (e.type === "tool_call_name") name = e.name;
    else if (e.type === "tool_call_arguments") args += e.text;
    else if (e.type === "action_end") {
      if (e.call === undefined) throw new Error(`action_end error: ${e.error}`);
      calls.push({
        name: e.call.name,
        streamedName: name,
        streamed: JSON.parse(args),
        arguments: e.call.arguments,
      });
      name = "";
      args = "";
    }
  }
  return {
    text,
    calls,
    errors: events.filter((e) => e.type === "error"),
    stop: events.find((e) => e.type === "stop"),
  };
}

describe("qwen3-coder: reference assistant turns decode to the request's calls", () => {
  it("the golden file holds tool-call turns", () => {
    expect(golden.vectors.filter((v) => v.calls.length > 0).length).toBeGreaterThanOrEqual(4);
  });

  for (const v of golden.vectors) {
    const content = v.text.split("<tool_call>")[0]?.replace(/\n+$/, "") ?? "";
    describe(v.name, () => {
      it("with the request's tools: names and typed JSON arguments", () => {
        let first: readonly DecoderEvent[] | undefined;
        for (const chunks of chunkings(v.ids)) {
          const events = decode(v.ids, v.tools, chunks);
          if (first === undefined) first = events;
          else expect(events).toEqual(first);
        }
        const s = summarize(first ?? []);
        expect(s.errors).toEqual([]);
        expect(s.stop).toMatchObject({ reason: "eos" });
        expect(s.text).toBe(content);
        const rendered = renderedValues(v.text);
        expect(s.calls.map((c) => c.name)).toEqual(v.calls.map((c) => c.name));
        s.calls.forEach((c, k) => {
          const want = v.calls[k];
          const expected = UNTYPED_TOOLS.has(want?.name ?? "") ? rendered[k] : want?.arguments;
          expect(c.streamedName).toBe(c.name);
          expect(c.arguments).toEqual(expected);
          expect(c.streamed).toEqual(c.arguments);
        });
      });

      it("without tools: every value is the text the template wrote", () => {
        const s = summarize(decode(v.ids, undefined, [[...v.ids]]));
        expect(s.errors).toEqual([]);
        expect(s.text).toBe(content);
        const rendered = renderedValues(v.text);
        expect(s.calls.map((c) => c.name)).toEqual(v.calls.map((c) => c.name));
        s.calls.forEach((c, k) => {
          expect(c.arguments).toEqual(rendered[k]);
          expect(c.streamed).toEqual(c.arguments);
        });
      });
    });
  }
});
