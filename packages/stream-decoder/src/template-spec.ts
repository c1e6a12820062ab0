// The decoder spec of a template-only model: the grammar a probe of its chat template found
// (@chatwire/tokenizer probeTemplate, docs/templates.md "Decoding"), written as a Grammar and
// compiled by the same compiler as the native families, so the per-token path is the same
// code. Format "template" means exact text: the grammar has no newline rules (a probed
// template's strip rules are unknown), so no newline of the text is dropped or held.
//
//   the template's end of turn (<|eot_id|>, <｜end▁of▁sentence｜>)  message-end
//   <think> / </think> (both reserved, spelled by the template)  a reasoning block
//   <tool_call> / </tool_call>                                   a tool_call action (json-call)
//   another EOS ID (config, generation_config.json)              end-of-text (a stop)
//   every other reserved ID                                      misplaced (an error event)
import type { BlockGrammar, Grammar, MarkerMove, TemplateProbe, TextModel } from "@chatwire/tokenizer";
import { compileGrammarSpec, type DecoderSpec, type DecoderSpecOptions } from "./spec.ts";

export function compileTemplateDecoderSpec(
  model: TextModel,
  probe: TemplateProbe,
  options: DecoderSpecOptions = {},
): DecoderSpec {
  // Later keys win for the same ID: EOS first, then the probed structure.
  const markers: Record<string, MarkerMove> = {};
  const ids: Record<string, number> = {};
  const blocks: BlockGrammar[] = [];
  const mark = (key: string, id: number, move: MarkerMove): void => {
    markers[key] = move;
    ids[key] = id;
  };
  for (const id of probe.eosIds) if (probe.names.has(id)) mark(`eos ${id}`, id, { move: "end-of-text" });
  if (probe.endOfTurn !== null) mark("endOfTurn", probe.endOfTurn, { move: "message-end" });
  if (probe.think !== null) {
    blocks.push({ name: "think", emits: "reasoning" });
    mark("think", probe.think.start, { move: "block-open", block: "think" });
    mark("thinkEnd", probe.think.end, { move: "block-close", block: "think" });
  }
  if (probe.toolCall !== null) {
    blocks.push({ name: "tool_call", emits: "action", body: "json-call" });
    mark("toolCall", probe.toolCall.start, { move: "block-open", block: "tool_call" });
    mark("toolCallEnd", probe.toolCall.end, { move: "block-close", block: "tool_call" });
  }
  const grammar: Grammar = {
    markers,
    header: { syntax: "none" },
    blocks,
    ...(probe.think !== null ? { startBlock: "think" } : {}),
  };
  const startInReasoning =
    probe.think !== null && (options.startInReasoning ?? probe.startInReasoning) === true;
  return compileGrammarSpec(model, "template", grammar, ids, {
    reservedIds: probe.names.keys(),
    reservedName: probe.names,
    eosIds: options.eosIds ?? probe.eosIds,
    startInReasoning,
  });
}
