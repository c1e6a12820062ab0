// Web-streams adapter (a separate subpath export, as in eventsource-parser): token IDs (one
// or an array per chunk) in, DecoderEvent objects out. Allocation per event is the point of
// this form; hot-path callers use createDecoder with a handler instead.
import { createDecoder } from "./create-decoder.ts";
import { type DecoderEvent, eventHandler } from "./events.ts";
import type { DecoderSpec } from "./spec.ts";
import type { DecoderOptions } from "./types.ts";

export class DecoderStream extends TransformStream<number | readonly number[], DecoderEvent> {
  constructor(spec: DecoderSpec, options: DecoderOptions = {}) {
    let out: TransformStreamDefaultController<DecoderEvent> | undefined;
    const decoder = createDecoder(
      spec,
      eventHandler((e) => out?.enqueue(e)),
      options,
    );
    super({
      start(controller) {
        out = controller;
      },
      transform(chunk) {
        if (typeof chunk === "number") decoder.push(chunk);
        else decoder.pushMany(chunk);
      },
      flush() {
        decoder.end();
      },
    });
  }
}

/** Decodes an (async) iterable of IDs or ID chunks into DecoderEvents, lazily. */
export async function* decodeEvents(
  spec: DecoderSpec,
  ids: AsyncIterable<number | readonly number[]> | Iterable<number | readonly number[]>,
  options: DecoderOptions = {},
): AsyncGenerator<DecoderEvent, void, undefined> {
  const queue: DecoderEvent[] = [];
  const decoder = createDecoder(
    spec,
    eventHandler((e) => queue.push(e)),
    options,
  );
  for await (const chunk of ids) {
    if (typeof chunk === "number") decoder.push(chunk);
    else decoder.pushMany(chunk);
    if (queue.length > 0) yield* queue.splice(0);
    if (decoder.stopped) break;
  }
  decoder.end();
  yield* queue.splice(0);
}
