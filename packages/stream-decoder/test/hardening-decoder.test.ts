// Hostile ID sequences against the decoder: nothing thrown from push() /
// pushMany() / end() on any ID sequence, exactly one stop, per-token work O(token) where
// newlines or a header / metadata line are held, bounded memory for the header name, and one
// documented rule for misuse (docs/decoder.md).
import type { TextModel } from "@chatwire/tokenizer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { ChatGLM3Key } from "../../tokenizer/src/families/chatglm3/definition.ts";
import type { InternLM2Key } from "../../tokenizer/src/families/internlm2/definition.ts";
import type { Qwen3Key } from "../../tokenizer/src/families/qwen3/definition.ts";
import {
  compileDecoderSpecFor,
  createDecoder,
  type DecoderEvent,
  type DecoderHandler,
  type DecoderOptions,
  type DecoderSpec,
  eventCollector,
} from "../src/index.ts";
import { familyOn, MODELS, textOf, tokenizer } from "./models.ts";
import { timeRatio } from "./ratio-support.ts";
import { synthetic } from "./synthetic.ts";

const Q = tokenIds<Qwen3Key>(() => tokenizer("qwen3"));

const FORMAT_OF: Readonly<Record<string, string>> = {
  qwen3: "qwen3",
  "tiny-ilm": "internlm2",
  "tiny-glm": "chatglm3",
  internlm2: "internlm2",
  chatglm3: "chatglm3",
};

/** Text that reaches the deep and the held paths when it lands in the right state. */
const FRAGMENTS = [
  '{"name": "f", "arguments": ',
  "[".repeat(300),
  '{"a": '.repeat(120),
  "]".repeat(300),
  "\n",
  "\n\n\n",
  "get_weather\n",
  "interpreter\n",
  "```python\ntool_call(a=",
  "(".repeat(250),
  "(1,),".repeat(30),
  ")\n```",
  "environment name=",
  "Hello world",
  "-".repeat(50),
];

function run(
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions,
  chunked: boolean,
): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(spec, c, options);
  if (chunked) d.pushMany(ids);
  else for (const id of ids) d.push(id);
  d.end();
  return c.events;
}

describe("no ID sequence makes push() / pushMany() / end() throw", () => {
  for (const m of MODELS) {
    const format = FORMAT_OF[m.name] as string;
    it.skipIf(!m.available)(`${m.name} (${format}): random IDs, reserved IDs, out-of-vocabulary IDs`, () => {
      const model: TextModel = m.model();
      // The real tokenizers with their verified IDs; the tiny models under the family's grammar.
      const spec = (o: { eosIds?: number[] }) =>
        m.name === format
          ? compileDecoderSpecFor(tokenizer(format as "qwen3" | "internlm2" | "chatglm3"), o)
          : familyOn(model, format, o).spec;
      const specs = [spec({}), spec({ eosIds: [] })];
      const reserved = [...(specs[0] as DecoderSpec).reservedName.keys()];
      const size = model.decodeTable.size;
      const frags = FRAGMENTS.map((f) => model.encode(f));
      const id = fc.oneof(
        { weight: 5, arbitrary: fc.nat(size - 1) },
        { weight: 4, arbitrary: fc.constantFrom(...reserved) },
        { weight: 1, arbitrary: fc.constantFrom(-1, size, size + 7, 2 ** 31, 2 ** 40, -(2 ** 40)) },
      );
      const piece = fc.oneof(
        { weight: 3, arbitrary: id.map((x) => [x]) },
        { weight: 1, arbitrary: fc.constantFrom(...frags) },
      );
      const opts = fc.record({
        streamToolCalls: fc.boolean(),
        stops: fc.boolean(),
        multi: fc.boolean(),
        small: fc.boolean(),
      });
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 40 }), opts, fc.boolean(), (pieces, o, chunked) => {
          const ids = pieces.flat();
          const options: DecoderOptions = {
            streamToolCalls: o.streamToolCalls,
            ...(o.stops ? { stopStrings: ["\n\n", "orl", "]]"], stopTokenIds: [reserved[0] as number] } : {}),
            ...(o.small ? { maxBufferedChars: 64 } : {}),
          };
          const events = run(
            o.multi ? (specs[1] as DecoderSpec) : (specs[0] as DecoderSpec),
            ids,
            options,
            chunked,
          );
          expect(events.filter((e) => e.type === "stop").length).toBe(1);
          expect(events.at(-1)?.type).toBe("stop");
          // Whatever came out can be serialized (no value too deep for JSON.stringify).
          expect(() => JSON.stringify(events)).not.toThrow();
        }),
        { seed: 31, numRuns: m.name.startsWith("tiny") ? 300 : 150 },
      );
    });
  }
});

describe("over-deep tool-call arguments are an action_end error (streamToolCalls on and off)", () => {
  const s = synthetic(["a", "\n", "[", "]", "(", ")"], false);
  const G = familyOn<ChatGLM3Key>(s.model, "chatglm3").id;
  it("ChatGLM3: a deeply nested Python argument", () => {
    const spec = familyOn(s.model, "chatglm3").spec;
    // Depths where a recursive parse still fits the stack but JSON.stringify of the
    // arguments (streamToolCalls) no longer does, and beyond.
    for (const depth of [300, 2500, 4500, 5000, 50_000])
      for (const streamToolCalls of [true, false]) {
        const body = `get_weather\n\`\`\`python\ntool_call(a=${"[".repeat(depth)}${"]".repeat(depth)})\n\`\`\``;
        const events = run(spec, [...s.enc(body), G.observation], { streamToolCalls }, true);
        const end = events.find((e) => e.type === "action_end");
        expect(end).toMatchObject({ kind: "get_weather", error: expect.stringMatching(/deeper than 200/) });
        expect(events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
      }
  });

  it("Qwen3: a deeply nested JSON argument", () => {
    const tok = tokenizer("qwen3").textModel;
    const spec = compileDecoderSpecFor(tokenizer("qwen3"));
    const call = `\n{"name": "f", "arguments": {"a": ${"[".repeat(5000)}${"]".repeat(5000)}}}\n`;
    for (const streamToolCalls of [true, false]) {
      const events = run(
        spec,
        [Q.toolCall, ...tok.encode(call), Q.toolCallEnd, Q.imEnd],
        { streamToolCalls },
        true,
      );
      const end = events.find((e) => e.type === "action_end");
      expect(end).toMatchObject({ kind: "tool_call", error: expect.stringMatching(/deeper than 200/) });
      expect(() => JSON.stringify(events)).not.toThrow();
    }
  });
});

describe("held newlines and held lines: O(token) per step", () => {
  const N = 20_000;
  // Same-size hostile vs benign: linear is ~1x, a rescan of the held run per token would be
  // ~N/2 = 10,000x. 5x flaked at 8.7x and 14.6x under load average 16 (fastest of 3 runs).
  const BOUND = 40;
  const s = synthetic(["a", "\n", "bc"], false);
  const I = familyOn<InternLM2Key>(s.model, "internlm2").id;
  const A = 259;
  const NL = 260;

  function ratio(spec: DecoderSpec, hostile: number[], benign: number[], label: string): number {
    expect(benign.length).toBe(hostile.length);
    const r = timeRatio(
      () => run(spec, hostile, {}, true),
      () => run(spec, benign, {}, true),
      5,
    );
    console.log(`${label}: hostile / benign, ${hostile.length} tokens: ${r.toFixed(2)}x`);
    return r;
  }

  it("Qwen3 reasoning: a run of newline tokens", () => {
    const tok = tokenizer("qwen3").textModel;
    const spec = compileDecoderSpecFor(tokenizer("qwen3"));
    const nl = tok.encode("\n")[0] as number;
    const word = tok.encode("Hello")[0] as number;
    // (Leading newlines of reasoning are stripped: the run comes after a word.)
    const hostile = [Q.think, word, ...Array(N).fill(nl), word, Q.thinkEnd];
    const benign = [Q.think, word, ...Array(N).fill(word), word, Q.thinkEnd];
    const ev = run(spec, hostile, {}, true);
    expect(textOf(ev, "reasoning")).toBe(`Hello${"\n".repeat(N)}Hello`);
    expect(ratio(spec, hostile, benign, "qwen3 reasoning newline run")).toBeLessThan(BOUND);
  });

  it("InternLM2 after <|action_end|>: a run of newline tokens", () => {
    const spec = familyOn(s.model, "internlm2").spec;
    const head = [I.actionStart, I.interpreter, A, I.actionEnd];
    const hostile = [...head, ...Array(N).fill(NL), A];
    const benign = [...head, ...Array(N).fill(A), A];
    expect(ratio(spec, hostile, benign, "internlm2 newlines after action_end")).toBeLessThan(BOUND);
  });

  it("ChatGLM3: a metadata line that does not end", () => {
    const spec = familyOn(s.model, "chatglm3").spec;
    const hostile = Array(N).fill(A);
    const benign = [NL, ...Array(N - 1).fill(A)];
    expect(ratio(spec, hostile, benign, "chatglm3 metadata line")).toBeLessThan(BOUND);
  });

  it("InternLM2 multi-message: a header that does not end", () => {
    const spec = familyOn(s.model, "internlm2", { eosIds: [] }).spec;
    const hostile = [I.imEnd, I.imStart, ...Array(N).fill(A)];
    const benign = [I.imEnd, I.imStart, NL, ...Array(N - 1).fill(A)];
    expect(ratio(spec, hostile, benign, "internlm2 header line")).toBeLessThan(BOUND);
  });
});

describe("bounded memory: the header name", () => {
  const s = synthetic(["a", "\n", "environment", " name="], false);
  const I = familyOn<InternLM2Key>(s.model, "internlm2").id;
  it("name tokens (<|plugin|>) in a header count against maxBufferedChars", () => {
    const spec = familyOn(s.model, "internlm2", { eosIds: [] }).spec;
    const ids = [I.imEnd, I.imStart, 261, 262, ...Array(5000).fill(I.plugin), 260, 259, I.imEnd];
    const events = run(spec, ids, { maxBufferedChars: 1000 }, true);
    expect(events).toContainEqual(expect.objectContaining({ type: "error", code: "buffer-overflow" }));
    for (const e of events)
      if (e.type === "message_start") expect(e.metadata.length).toBeLessThanOrEqual(1000);
    expect(events.at(-1)?.type).toBe("stop");
  });
});

describe("InternLM2: newlines between <|action_end|> and <|im_end|>", () => {
  const s = synthetic(["a", "\n", "{}"], false);
  const I = familyOn<InternLM2Key>(s.model, "internlm2").id;
  const spec = familyOn(s.model, "internlm2").spec;
  const head = [I.actionStart, I.plugin, 261, I.actionEnd];
  const text = (ids: number[]) => textOf(run(spec, [...head, ...ids], {}, true));
  it("the template writes at most one: that one is dropped, the others are text", () => {
    expect(text([I.imEnd])).toBe("");
    expect(text([260, I.imEnd])).toBe("");
    expect(text([260, 260, 260, I.imEnd])).toBe("\n\n");
    expect(text([260, 260, 259, I.imEnd])).toBe("\n\na");
  });
});

describe("caller misuse: one rule on every path (docs/decoder.md)", () => {
  const s = synthetic(["a", "b"], false);
  const spec = familyOn(s.model, "internlm2").spec;
  it("a token id that is not an integer number throws TypeError, fast path or not", () => {
    for (const bad of ["5", "259", 259.5, Number.NaN, null, undefined, {}] as unknown as number[]) {
      const d = createDecoder(spec, eventCollector());
      d.push(259); // the stream is open: the next plain text token takes the fast path
      d.push(260);
      expect(() => d.push(bad), String(bad)).toThrow(TypeError);
      const d2 = createDecoder(spec, eventCollector());
      expect(() => d2.push(bad), String(bad)).toThrow(TypeError);
      const d3 = createDecoder(spec, eventCollector());
      expect(() => d3.pushMany([259, 260, bad]), String(bad)).toThrow(TypeError);
    }
  });

  it("push() / pushMany() after end() throws TypeError; end() again does nothing; reset() reopens", () => {
    const c = eventCollector();
    const d = createDecoder(spec, c);
    d.push(259);
    d.end();
    const n = c.events.length;
    expect(() => d.push(259)).toThrow(TypeError);
    expect(() => d.pushMany([259])).toThrow(TypeError);
    d.end();
    expect(c.events.length).toBe(n);
    d.reset();
    d.push(259);
    d.end();
    expect(c.events.length).toBe(2 * n);
  });
});

describe("DecoderHandler: every callback optional, one internal handler shape", () => {
  const s = synthetic(["a", "b", "\n"], false);
  const I = familyOn<InternLM2Key>(s.model, "internlm2").id;
  const spec = familyOn(s.model, "internlm2").spec;
  const ids = [259, I.actionStart, I.plugin, 260, I.actionEnd, 9999, I.imEnd];
  it("an empty handler, a partial one and a class-based one (methods on its prototype, using this)", () => {
    for (const streamToolCalls of [false, true]) {
      const d0 = createDecoder(spec, {}, { streamToolCalls });
      d0.pushMany(ids);
      d0.end();
      let text = "";
      let stops = 0;
      const partial: DecoderHandler = {
        onText: (t) => {
          text += t;
        },
        onStop: () => {
          stops++;
        },
      };
      const d1 = createDecoder(spec, partial, { streamToolCalls });
      d1.pushMany(ids);
      d1.end();
      expect([text, stops]).toEqual(["a", 1]);
      class Counter {
        errors = 0;
        onError(): void {
          this.errors++;
        }
      }
      const counter = new Counter();
      const d2 = createDecoder(spec, counter, { streamToolCalls });
      d2.pushMany(ids);
      d2.end();
      expect(counter.errors).toBe(1);
    }
  });

  it("handlers that lack callbacks all go behind one wrapper class; a complete one is called directly", () => {
    const partial = [
      {},
      { onText() {} },
      new (class {
        onStop() {}
      })(),
    ];
    const inner = partial.map((h) => Reflect.get(createDecoder(spec, h), "h") as object);
    const proto = Object.getPrototypeOf(inner[0]);
    for (const h of inner) {
      expect(Object.getPrototypeOf(h)).toBe(proto);
      expect(Object.keys(h)).toEqual(Object.keys(inner[0] as object));
    }
    const full = eventCollector();
    expect(Reflect.get(createDecoder(spec, full), "h")).toBe(full);
    expect(() => createDecoder(spec, { onText: 5 } as unknown as DecoderHandler)).toThrow(TypeError);
  });
});
