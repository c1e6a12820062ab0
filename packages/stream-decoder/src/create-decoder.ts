// createDecoder: the one entry point from a compiled spec to a per-stream decoder: the grammar
// engine, with the turn layer of a probed template (TemplateTurns) around it for template specs.

import { StreamDecoder } from "./decoder.ts";
import type { DecoderHandler } from "./events.ts";
import type { DecoderSpec } from "./spec.ts";
import { TemplateDecoder } from "./template-decoder.ts";
import { templateTurnsOf } from "./template-spec.ts";
import type { Decoder, DecoderOptions } from "./types.ts";

export function createDecoder(
  spec: DecoderSpec,
  handler: DecoderHandler,
  options: DecoderOptions = {},
): Decoder {
  const turns = templateTurnsOf(spec);
  if (turns !== undefined) return new TemplateDecoder(spec, turns, handler, options);
  return new StreamDecoder(spec, handler, options);
}
