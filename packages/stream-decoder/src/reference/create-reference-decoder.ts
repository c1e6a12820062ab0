// createReferenceDecoder: the readable reference path over the same compiled spec as
// createDecoder (a test and debugging aid, not the hot path: docs/decoder.md "Reference path").
import type { DecoderHandler } from "../events.ts";
import type { DecoderSpec } from "../spec.ts";
import { templateTurnsOf } from "../template-spec.ts";
import type { Decoder, DecoderOptions } from "../types.ts";
import { ReferenceDecoder } from "./engine.ts";
import { ReferenceTemplateDecoder } from "./template-turns.ts";

/**
 * A decoder that runs `spec` with the reference interpreter: the same events as
 * createDecoder(spec, handler, options), with no fast path (slower; for tests and debugging).
 */
export function createReferenceDecoder(
  spec: DecoderSpec,
  handler: DecoderHandler,
  options: DecoderOptions = {},
): Decoder {
  const turns = templateTurnsOf(spec);
  if (turns !== undefined) return new ReferenceTemplateDecoder(spec, turns, handler, options);
  return new ReferenceDecoder(spec, handler, options);
}
