// InternLM2's decoder grammar (data; the decoder compiles it with the verified registry).
//   ‹im_start›ROLE[ name=NAME]\nCONTENT[‹action_start›‹plugin|interpreter›\nBODY‹action_end›\n]‹im_end›
// The "\n" after <|action_end|> is the template's only when <|im_end|> follows (one-before-end).
import { blockMarkers } from "../block-markers.ts";
import { CHATML_FRAME } from "../chatml.ts";
import type { Grammar } from "../grammar.ts";
import type { InternLM2Key } from "./tokens.ts";

export const grammar: Grammar<InternLM2Key> = {
  markers: {
    ...CHATML_FRAME.markers,
    eos: { move: "end-of-text" },
    ...blockMarkers("actionStart", "actionEnd", "action"),
    plugin: { move: "action-kind", kind: "plugin", body: "json-call", argumentsKey: "parameters" },
    interpreter: { move: "action-kind", kind: "interpreter", body: "raw" },
  },
  header: CHATML_FRAME.header,
  blocks: [
    {
      name: "action",
      emits: "action",
      kindFromMarker: true,
      newlines: { afterClose: "one-before-end" },
    },
  ],
  // `<|action_start|><|plugin|>\n{"name": NAME, "parameters": {...}}`, as the template writes a call.
  callOpening: {
    required: [{ marker: "actionStart" }, { marker: "plugin" }],
    named: [
      { marker: "actionStart" },
      { marker: "plugin" },
      { text: '\n{"name": ' },
      { name: "json" },
      { text: ', "parameters":' },
    ],
  },
};
