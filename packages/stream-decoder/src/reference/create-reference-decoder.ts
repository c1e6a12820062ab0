// createReferenceDecoder: the readable reference path over the same compiled spec as
// createDecoder (a test and debugging aid, not the hot path: docs/decoder.md "Reference path").
import { decoderFactory } from "../template-spec.ts";
import { ReferenceDecoder } from "./engine.ts";
import { ReferenceTemplateDecoder } from "./template-turns.ts";

/**
 * A decoder that runs `spec` with the reference interpreter: the same events as
 * createDecoder(spec, handler, options), with no fast path (slower; for tests and debugging).
 */
export const createReferenceDecoder = decoderFactory({
  Engine: ReferenceDecoder,
  TurnLayer: ReferenceTemplateDecoder,
});
