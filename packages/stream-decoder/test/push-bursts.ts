import type { Decoder, DecoderEvent, DecoderHandler, DecoderOptions, DecoderSpec } from "../src/index.ts";
import { eventCollector } from "../src/index.ts";

export type MakeDecoder = (spec: DecoderSpec, handler: DecoderHandler, options: DecoderOptions) => Decoder;

/** Burst sizes for the whole input in one pushMany. */
export const ONE_BURST: readonly number[] = [Number.POSITIVE_INFINITY];

/** Pushes `ids` in bursts of the given sizes in order (the last size repeats; none, or a size below 1, means one ID), then ends. */
export function pushInBursts(d: Decoder, ids: readonly number[], sizes: readonly number[]): void {
  let i = 0;
  let k = 0;
  while (i < ids.length) {
    const n = Math.max(1, sizes[Math.min(k++, sizes.length - 1)] ?? 1);
    d.pushMany(ids.slice(i, i + n));
    i += n;
  }
  d.end();
}

/** The events of a fresh decoder made by `make` that `feed` pushes into and ends. */
export function eventsOf(
  make: MakeDecoder,
  spec: DecoderSpec,
  options: DecoderOptions,
  feed: (d: Decoder) => void,
): DecoderEvent[] {
  const c = eventCollector();
  feed(make(spec, c, options));
  return c.events;
}

/** The events of `ids` fed to a fresh decoder made by `make`, in bursts of `sizes` (one ID a push by default). */
export function eventsInBursts(
  make: MakeDecoder,
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions = {},
  sizes: readonly number[] = [],
): DecoderEvent[] {
  return eventsOf(make, spec, options, (d) => pushInBursts(d, ids, sizes));
}

/** The events of `chunks` fed to a fresh decoder made by `make`, one pushMany each (empty ones too), then end(). */
export function eventsInChunks(
  make: MakeDecoder,
  spec: DecoderSpec,
  chunks: readonly (readonly number[])[],
  options: DecoderOptions = {},
): DecoderEvent[] {
  return eventsOf(make, spec, options, (d) => {
    for (const chunk of chunks) d.pushMany(chunk);
    d.end();
  });
}
