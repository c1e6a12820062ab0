// The fast-slow batteries' one-ID-at-a-time decode: every event of `ids` pushed one by one, then end().
import { createDecoder, type DecoderEvent, type DecoderOptions } from "../../src/index.ts";
import type { DecoderSpec } from "../../src/spec.ts";
import { eventsOf } from "../push-bursts.ts";

export function decodeAll(
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions,
): DecoderEvent[] {
  return eventsOf(createDecoder, spec, options, (d) => {
    for (const id of ids) d.push(id);
    d.end();
  });
}
