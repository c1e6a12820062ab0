// Shared by the property suites that draw decoder options at random (bursts, fast-slow,
// reference-differential): the tool list they pass, the common option fields they draw, the
// drawn values turned into options, and their stop-string sets compiled once per test.
import fc from "fast-check";
import { type DecoderOptions, type DecoderSpec, StopStrings } from "../src/index.ts";

/** One tool (get_weather), for suites that only need tools to be present. */
export const WEATHER_TOOLS = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object" } } },
];

/** Option values as a property drew them; false and undefined values leave the option out. */
export interface DrawnOptions {
  readonly stops: readonly string[];
  readonly maxTokens?: number | undefined;
  readonly stream: boolean;
  readonly tools: boolean;
  readonly include: boolean;
  readonly buffered?: number | undefined;
  readonly stopToken?: number | undefined;
}

/**
 * The common option fields for fc.record (stop strings, maxTokens, tool streaming, tools,
 * includeStopString, a stop token among `markers`); a suite adds its own fields around them.
 */
export function optionFields(markers: readonly number[]) {
  return {
    stops: fc.subarray(["\n\n", "lo", "}", " the", "ab"], { maxLength: 2 }),
    maxTokens: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
    stream: fc.boolean(),
    tools: fc.boolean(),
    include: fc.boolean(),
    stopToken:
      markers.length > 0
        ? fc.option(fc.constantFrom(...markers), { nil: undefined })
        : fc.constant(undefined),
  };
}

/** The DecoderOptions of drawn values (`tools` is the list a drawn `tools: true` passes). */
export function optionsOf(r: DrawnOptions, tools: readonly unknown[] = WEATHER_TOOLS): DecoderOptions {
  const o: Record<string, unknown> = {};
  if (r.stops.length > 0) o.stopStrings = r.stops;
  if (r.maxTokens !== undefined) o.maxTokens = r.maxTokens;
  if (r.stream) o.streamToolCalls = true;
  if (r.tools) o.tools = tools;
  if (r.include) o.includeStopString = true;
  if (r.buffered !== undefined) o.maxBufferedChars = r.buffered;
  if (r.stopToken !== undefined) o.stopTokenIds = [r.stopToken];
  return o as DecoderOptions;
}

/**
 * The stop-string sets of one test, compiled once per (spec, strings) and shared by every decoder
 * of its runs that draws them: a set allocates a vocabulary-sized fast-path table from its second
 * decoder on (StopStrings.clearText), and the decoders' own per-spec cache keeps only a few sets
 * of a large vocabulary, so sets passed as arrays were compiled, and their tables made, again and
 * again. Built outside that cache, so they go with the test (a family's spec stays in the worker).
 */
export class StopSets {
  private readonly bySpec = new Map<DecoderSpec, Map<string, StopStrings>>();

  /** The set of `strings` for `spec`. */
  of(spec: DecoderSpec, strings: readonly string[]): StopStrings {
    let sets = this.bySpec.get(spec);
    if (sets === undefined) {
      sets = new Map();
      this.bySpec.set(spec, sets);
    }
    const key = JSON.stringify(strings);
    let s = sets.get(key);
    if (s === undefined) {
      s = new StopStrings(spec, strings);
      sets.set(key, s);
    }
    return s;
  }

  /** `options` with its stop strings, if any, as the set for `spec`. */
  options(spec: DecoderSpec, options: DecoderOptions): DecoderOptions {
    const strings = options.stopStrings;
    if (strings === undefined || strings instanceof StopStrings || strings.length === 0) return options;
    return { ...options, stopStrings: this.of(spec, strings) };
  }
}

/** JSON.stringify replacer for failure messages: a compiled set as its strings. */
export const stopSetsAsStrings = (_key: string, value: unknown): unknown =>
  value instanceof StopStrings ? value.patterns : value;
