// The decoder spec of a template-only model: the grammar a probe of its chat template found
// (@chatwire/tokenizer probeTemplate, docs/templates.md "Decoding") as the same class table the
// native families use, so the per-token path is the same code. Format "template" means exact
// text: no newline of the text is dropped or held (the native Qwen3 spec strips the template's
// own newlines around <think> and <tool_call>; a probed template's strip rules are unknown).
//
//   the template's end of turn (<|eot_id|>, <｜end▁of▁sentence｜>)  MsgEnd
//   <think> / </think> (both reserved, spelled by the template)  Think / ThinkEnd
//   <tool_call> / </tool_call>                                   ToolCall / ToolCallEnd (JSON)
//   another EOS ID (config, generation_config.json)              EndOfText (a stop)
//   every other reserved ID                                      Misplaced (an error event)
import type { TemplateProbe, TextModel } from "@chatwire/tokenizer";
import { buildDecoderSpec, Cls, type DecoderSpec, type DecoderSpecOptions } from "./spec.ts";

export function compileTemplateDecoderSpec(
  model: TextModel,
  probe: TemplateProbe,
  options: DecoderSpecOptions = {},
): DecoderSpec {
  const classOf = new Map<number, number>();
  for (const id of probe.names.keys()) classOf.set(id, Cls.Misplaced);
  for (const id of probe.eosIds) if (classOf.has(id)) classOf.set(id, Cls.EndOfText);
  if (probe.endOfTurn !== null) classOf.set(probe.endOfTurn, Cls.MsgEnd);
  if (probe.think !== null) {
    classOf.set(probe.think.start, Cls.Think);
    classOf.set(probe.think.end, Cls.ThinkEnd);
  }
  if (probe.toolCall !== null) {
    classOf.set(probe.toolCall.start, Cls.ToolCall);
    classOf.set(probe.toolCall.end, Cls.ToolCallEnd);
  }
  const startInReasoning =
    probe.think !== null && (options.startInReasoning ?? probe.startInReasoning) === true;
  return buildDecoderSpec(model, "template", [...classOf], probe.names, {
    eosIds: options.eosIds ?? probe.eosIds,
    startInReasoning,
  });
}
