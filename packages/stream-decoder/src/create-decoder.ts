// createDecoder: the one entry point from a compiled spec to a per-stream decoder. The spec
// says which layer runs it: a harmony header syntax, the turn layer of a probed template
// (TemplateTurns), or the grammar engine alone.

import { StreamDecoder } from "./decoder.ts";
import type { DecoderHandler } from "./events.ts";
import { HarmonyDecoder } from "./harmony-decoder.ts";
import { type DecoderSpec, Header } from "./spec.ts";
import { TemplateDecoder } from "./template-decoder.ts";
import { templateTurnsOf } from "./template-spec.ts";
import type { Decoder, DecoderOptions } from "./types.ts";

export function createDecoder(
  spec: DecoderSpec,
  handler: DecoderHandler,
  options: DecoderOptions = {},
): Decoder {
  if (spec.grammar.header === Header.Harmony) return new HarmonyDecoder(spec, handler, options);
  const turns = templateTurnsOf(spec);
  if (turns !== undefined) return new TemplateDecoder(spec, turns, handler, options);
  return new StreamDecoder(spec, handler, options);
}
