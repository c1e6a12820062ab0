// Shared by the text-marker suites: a synthetic family's text encoded as other tokenizations of
// the same text, and its events checked across the engine, the reference decoder and bursts.
import { expect } from "vitest";
import {
  createDecoder,
  createReferenceDecoder,
  type DecoderEvent,
  type DecoderOptions,
} from "../src/index.ts";
import { mergedAll, type SyntheticFamily } from "./grammar-support.ts";
import { eventsInBursts } from "./push-bursts.ts";

/** The text cut at `cuts` (fractions), each part encoded on its own: other tokens, same text. */
export function encCut(fam: SyntheticFamily, text: string, cuts: readonly number[] = []): number[] {
  const at = [...new Set(cuts.map((c) => Math.floor(c * text.length)))].sort((a, b) => a - b);
  const ids: number[] = [];
  let from = 0;
  for (const a of [...at, text.length]) {
    // Never between the two halves of a surrogate pair (no such text piece exists).
    if (a <= from || /[\uDC00-\uDFFF]/.test(text[a] ?? "")) continue;
    ids.push(...fam.enc(text.slice(from, a)));
    from = a;
  }
  return ids;
}

/** Events of the text (then EOS), merged; the same under the reference decoder and in one burst. */
export function decodeText(fam: SyntheticFamily, text: string, options: DecoderOptions = {}): DecoderEvent[] {
  const ids = [...fam.enc(text), fam.id.eos as number];
  const events = eventsInBursts(createDecoder, fam.spec, ids, options, [1]);
  expect(eventsInBursts(createReferenceDecoder, fam.spec, ids, options, [1])).toEqual(events);
  expect(eventsInBursts(createDecoder, fam.spec, ids, options, [ids.length])).toEqual(events);
  return mergedAll(events);
}
