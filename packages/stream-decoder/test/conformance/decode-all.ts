// The fast-slow batteries' one-ID-at-a-time decode: every event of `ids` pushed one by one, then end().
import { createDecoder, type DecoderEvent, type DecoderOptions, eventCollector } from "../../src/index.ts";
import type { DecoderSpec } from "../../src/spec.ts";

export function decodeAll(
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions,
): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(spec, c, options);
  for (const id of ids) d.push(id);
  d.end();
  return c.events;
}
