import type { ChatTokenizer } from "@chatwire/tokenizer";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { GptOssKey } from "../../tokenizer/src/families/gpt-oss/definition.ts";
import {
  compileDecoderSpecFor,
  compileStopStrings,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  type DecoderSpec,
  eventCollector,
  type StopStrings,
} from "../src/index.ts";
import { SLOW_PATH_ONLY } from "../src/internal.ts";
import { gptOssTokenizer } from "./models.ts";

let tok: ChatTokenizer;
/** The verified IDs of the loaded files (read after beforeAll loads them). */
const H = tokenIds<GptOssKey>(() => tok);
let spec: DecoderSpec;
let multi: DecoderSpec;

/**
 * The options with their stop strings compiled once per spec and set: the decoder's own
 * per-spec cache holds only a few sets of a 200k vocabulary (docs/decoder.md "Limits"), so 32
 * random subsets would be recompiled at almost every run.
 */
const compiledStops = new Map<string, StopStrings>();
function compiledOptions(s: DecoderSpec, o: DecoderOptions): DecoderOptions {
  const strings = o.stopStrings;
  if (!Array.isArray(strings) || strings.length === 0) return o;
  const key = `${s === spec ? "spec" : "multi"}\u0000${strings.join("\u0000")}`;
  let c = compiledStops.get(key);
  if (c === undefined) {
    c = compileStopStrings(s, strings as readonly string[]);
    compiledStops.set(key, c);
  }
  return { ...o, stopStrings: c };
}

function run(ids: readonly number[], s: DecoderSpec, o: DecoderOptions, fast: boolean): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(s, c, fast ? o : ({ ...o, [SLOW_PATH_ONLY]: true } as DecoderOptions));
  for (const id of ids) d.push(id);
  d.end();
  return c.events;
}

const WORDS = [
  "Hello",
  " world",
  "\n",
  " 日本語",
  " 🙂",
  " café",
  ' {"a": 1}',
  " to=",
  " json",
  "END",
  "  ",
  "\t",
  "ü",
  "💡🚀",
];

describe("gpt-oss decoder fast path: off and on give the same events", () => {
  beforeAll(() => {
    tok = gptOssTokenizer();
    spec = compileDecoderSpecFor(tok);
    multi = compileDecoderSpecFor(tok, { eosIds: [H.endOfText] });
  });

  it("fast-check: random harmony streams and options (2,000 runs)", () => {
    const enc = (s: string) => tok.textModel.encode(s);
    const text = fc
      .array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 6 })
      .map((w) => enc(w.join("")));
    // Split a multi-byte character's byte tokens apart: the byte-level pieces of 🙂 etc.
    const header = fc.record({
      start: fc.boolean(),
      to: fc.constantFrom("", " to=functions.get_weather", " to=browser.search"),
      channel: fc.constantFrom("analysis", "final", "commentary", "weird", ""),
      type: fc.constantFrom("", " json", "constrain"),
    });
    const message = fc.record({
      header,
      body: text,
      end: fc.constantFrom(H.end, H.end, H.call, H.return, H.endOfText, -1),
    });
    const noise = fc.oneof(
      fc.constantFrom(...[...tok.registry.ids]),
      fc.integer({ min: 0, max: 201_100 }),
      fc.constantFrom(-1, 200_019, 28, 220),
    );
    const stream = fc
      .tuple(
        fc.array(message, { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(), noise), { maxLength: 3 }),
      )
      .map(([msgs, inserts]) => {
        const ids: number[] = [];
        for (const m of msgs) {
          if (m.header.start) ids.push(H.start, ...enc("assistant"));
          if (m.header.to !== "" && m.header.channel.length % 2 === 0) ids.push(...enc(m.header.to));
          if (m.header.channel !== "") ids.push(H.channel, ...enc(m.header.channel));
          if (m.header.to !== "" && m.header.channel.length % 2 === 1) ids.push(...enc(m.header.to));
          if (m.header.type === " json") ids.push(...enc(" json"));
          if (m.header.type === "constrain") ids.push(...enc(" "), H.constrain, ...enc("json"));
          ids.push(H.message, ...m.body);
          if (m.end >= 0) ids.push(m.end);
        }
        for (const [at, id] of inserts) ids.splice(at % (ids.length + 1), 0, id);
        return ids;
      });
    const options = fc.record(
      {
        stopStrings: fc.subarray(["END", "o w", "🙂", "\n\n", "json"]),
        stopTokenIds: fc.subarray([H.end, 220, 28]),
        maxTokens: fc.integer({ min: 1, max: 80 }),
        streamToolCalls: fc.boolean(),
        maxBufferedChars: fc.integer({ min: 1, max: 64 }),
        includeStopString: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(stream, options, fc.boolean(), (ids, o, useMulti) => {
        const s = useMulti ? multi : spec;
        const oc = compiledOptions(s, o);
        expect(run(ids, s, oc, true)).toEqual(run(ids, s, oc, false));
      }),
      { numRuns: 2000, seed: 20261201 },
    );
  });

  it("misuse throws the same on both paths (a numeric string, 1.5, push after end)", () => {
    for (const fast of [true, false]) {
      const d = createDecoder(
        spec,
        eventCollector(),
        (fast ? {} : { [SLOW_PATH_ONLY]: true }) as DecoderOptions,
      );
      expect(() => d.push("5" as unknown as number)).toThrow(TypeError);
      expect(() => d.push(1.5)).toThrow(TypeError);
      d.push(H.message);
      d.push(tok.textModel.encode("hi")[0] as number);
      d.end();
      expect(() => d.push(tok.textModel.encode("hi")[0] as number)).toThrow(TypeError);
    }
  });
});
