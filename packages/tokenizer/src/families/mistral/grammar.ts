// The decoder grammar of Mistral's instruct formats (docs/families/mistral.md):
//
//   TEXT[‹TOOL_CALLS›[{"name": N, "arguments": {...}[, "id": ID]}, ...]]‹/s›
//
// No headers: a generation is assistant text from the start. ‹TOOL_CALLS› opens the calls, which
// run to the end of the message (there is no close marker). Their body is a JSON list of
// json-call objects (body syntax "json-call-list"): one action per element. ‹[/INST]›, tool results, tools and the rest are never written by a model:
// misplaced.
import type { Grammar } from "../grammar.ts";
import type { MistralKey, MistralVersion } from "./tokens.ts";

export function grammar(v: MistralVersion): Grammar<MistralKey> {
  return {
    markers: {
      eos: { move: "end-of-text" },
      ...(v === 1 ? {} : { toolCalls: { move: "block-open", block: "tool_calls" } as const }),
    },
    header: { syntax: "none" },
    blocks:
      v === 1 ? [] : [{ name: "tool_calls", emits: "action", kind: "tool_call", body: "json-call-list" }],
    initialRole: "assistant",
    // The list as render.ts writes it (json.dumps spacing); the model writes the rest of it.
    ...(v === 1
      ? {}
      : {
          callOpening: {
            required: [{ marker: "toolCalls" }],
            named: [
              { marker: "toolCalls" },
              { text: '[{"name": ' },
              { name: "json" },
              { text: ', "arguments":' },
            ],
          },
        }),
  };
}
