// A block whose reserved open marker must be followed by fixed text (BlockGrammar.openText,
// docs/decoder.md "Open-marker text"): Gemma 4 writes reasoning as ‹<|channel>›thought\n…‹<channel|>›.
// Expected events are written by hand from the rule; the engine is compared with the reference
// decoder, with its own checked path, and with itself under every burst size.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createDecoder,
  createReferenceDecoder,
  type DecoderEvent,
  type DecoderOptions,
} from "../src/index.ts";
import { SLOW_PATH_ONLY } from "../src/internal.ts";
import { calledAction } from "./expected-events.ts";
import {
  mergedAll,
  OPEN_TEXT_GRAMMAR,
  OPEN_TEXT_KEYS,
  OPEN_TEXT_PIECES,
  OPEN_TEXT_SAMPLES,
  syntheticFamily,
} from "./grammar-support.ts";
import { eventsInBursts } from "./push-bursts.ts";

const fam = syntheticFamily(OPEN_TEXT_GRAMMAR, OPEN_TEXT_KEYS, ["eos"], OPEN_TEXT_PIECES);

/** IDs of parts: "<key>" is that marker's reserved ID, anything else text encoded on its own. */
function ids(parts: readonly string[]): number[] {
  return parts.flatMap((p) => {
    const key = /^<(\w+)>$/.exec(p)?.[1];
    const id = key === undefined ? undefined : fam.id[key];
    return id === undefined ? fam.enc(p) : [id];
  });
}

function run(
  input: readonly number[],
  options: DecoderOptions = {},
  sizes: readonly number[] = [1],
  reference = false,
): DecoderEvent[] {
  return eventsInBursts(reference ? createReferenceDecoder : createDecoder, fam.spec, input, options, sizes);
}

/** Events of the parts, merged; the same under the reference decoder and in one burst. */
function decode(parts: readonly string[], options: DecoderOptions = {}): DecoderEvent[] {
  const input = ids(parts);
  const events = run(input, options);
  expect(run(input, options, [1], true)).toEqual(events);
  expect(run(input, options, [input.length])).toEqual(events);
  return mergedAll(events);
}

const START = { type: "message_start", role: "assistant", metadata: "" } as const;
const channel = fam.id.channel as number;
const notFollowed = {
  type: "error",
  code: "unexpected-reserved-token",
  token: channel,
  message: `reserved token <channel> (${channel}) is not valid here: it is not followed by "thought\\n"`,
} as const;
/** The stream's start, the marker that opened nothing (its error), then `text` as content. */
const unopened = (text: string) => [START, notFollowed, { type: "text", text }] as const;

describe("openText: the open marker and its text open the block", () => {
  it("the text after the marker is part of it, in one piece or cut anywhere", () => {
    const expected = [
      START,
      { type: "reasoning", text: "Let me see" },
      { type: "text", text: "Answer" },
      { type: "stop", reason: "end_of_input" },
    ];
    expect(decode(["<channel>", "thought\nLet me see", "<channelEnd>", "Answer"])).toEqual(expected);
    expect(decode(["<channel>", "tho", "ught\nLet", " me see", "<channelEnd>", "Answer"])).toEqual(expected);
    expect(
      decode(["<channel>", "t", "h", "o", "u", "g", "h", "t", "\n", "Let me see", "<channelEnd>", "Answer"]),
    ).toEqual(expected);
  });

  it("other text after the marker: the marker is an error, the text is content", () => {
    expect(decode(["a", "<channel>", "other text", "<channelEnd>", "x"])).toEqual([
      START,
      { type: "text", text: "a" },
      notFollowed,
      { type: "text", text: "other text" },
      {
        type: "error",
        code: "unexpected-reserved-token",
        token: fam.id.channelEnd,
        message: `reserved token <channelEnd> (${fam.id.channelEnd}) is not valid here`,
      },
      { type: "text", text: "x" },
      { type: "stop", reason: "end_of_input" },
    ]);
    // The part of the open text read so far is content too, with what broke it.
    expect(decode(["<channel>", "thou", "x"])).toEqual([
      ...unopened("thoux"),
      { type: "stop", reason: "end_of_input" },
    ]);
  });

  it("a marker or the end before the open text was all read: the marker opened nothing", () => {
    expect(
      decode(["<channel>", "thou", "<toolCall>", '{"name": "f", "arguments": {}}', "<toolCallEnd>"]),
    ).toEqual([
      ...unopened("thou"),
      ...calledAction("tool_call", '{"name": "f", "arguments": {}}', { name: "f", arguments: {} }),
      { type: "stop", reason: "end_of_input" },
    ]);
    expect(decode(["<channel>", "thought"])).toEqual([
      ...unopened("thought"),
      { type: "stop", reason: "end_of_input" },
    ]);
    expect(decode(["<channel>", "thought", "<eos>"])).toEqual([
      ...unopened("thought"),
      { type: "message_end" },
      { type: "stop", reason: "eos", token: fam.id.eos },
    ]);
  });

  it("stop strings apply to the text only once it is content or reasoning", () => {
    expect(
      decode(["<channel>", "thought\nLet me see", "<channelEnd>"], { stopStrings: ["thought", "me"] }),
    ).toEqual([
      START,
      { type: "reasoning", text: "Let " },
      { type: "stop", reason: "stop_string", text: "me" },
    ]);
    expect(decode(["<channel>", "though", "<eos>"], { stopStrings: ["ou"] })).toEqual([
      ...unopened("th"),
      { type: "stop", reason: "stop_string", text: "ou" },
    ]);
  });

  it("engine = reference = the engine's checked path only, bursts = one at a time, on samples and random IDs", () => {
    const size = fam.vocabSize;
    const part = fc.oneof(
      fc.constantFrom(...OPEN_TEXT_SAMPLES.map(ids)),
      fc.array(fc.integer({ min: 0, max: size + OPEN_TEXT_KEYS.length - 1 }), { maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
        fc.subarray(["ou", "me", "\n"], { maxLength: 2 }),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        (parts, sizes, stops, maxTokens) => {
          const input = parts.flat();
          const options: DecoderOptions = {
            ...(stops.length > 0 ? { stopStrings: stops } : {}),
            ...(maxTokens === undefined ? {} : { maxTokens }),
          };
          const one = run(input, options);
          expect(run(input, options, sizes)).toEqual(one);
          expect(run(input, options, sizes, true)).toEqual(one);
          expect(run(input, { ...options, [SLOW_PATH_ONLY]: true } as DecoderOptions, sizes)).toEqual(one);
        },
      ),
      { seed: 3703, numRuns: 300 },
    );
  });
});
