// createDecoder: the one entry point from a compiled spec to a per-stream decoder: the grammar
// engine, with the turn layer of a probed template (TemplateTurns) around it for template specs.

import { StreamDecoder } from "./decoder.ts";
import { TemplateDecoder } from "./template-decoder.ts";
import { decoderFactory } from "./template-spec.ts";

/** A per-stream decoder of a compiled spec that pushes its events to `handler`. */
export const createDecoder = decoderFactory({ Engine: StreamDecoder, TurnLayer: TemplateDecoder });
