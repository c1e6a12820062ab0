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
//
// Beside the class table, the spec carries the turn grammar (TemplateTurns, read by
// ./template-decoder.ts through templateTurnsOf): the ID sequences that open an assistant turn
// (the generation prompt) and a user turn, for decoding past the end of turn when the EOS IDs
// are overridden; and DeepSeek's fenced tool-call markers, decoded into tool-call events.
import type { FencedToolCallMarkers, TemplateProbe, TextModel } from "@chatwire/tokenizer";
import { buildDecoderSpec, Cls, type DecoderSpec, type DecoderSpecOptions } from "./spec.ts";

/** The turn grammar of a template spec (immutable, resolved once at compile time). */
export interface TemplateTurns {
  /** IDs that open an assistant turn (the generation prompt); [] when unknown. */
  readonly assistantPrompt: readonly number[];
  /** IDs that open a user turn after an end of turn; [] when unknown. */
  readonly userPrompt: readonly number[];
  /** DeepSeek's tool-call block markers, or null. */
  readonly fencedToolCalls: FencedToolCallMarkers | null;
  /** The same class table for a user turn (never starts in reasoning). */
  readonly userSpec: DecoderSpec;
}

const TURNS = new WeakMap<DecoderSpec, TemplateTurns>();

/** The turn grammar of a spec made by compileTemplateDecoderSpec, else undefined. */
export function templateTurnsOf(spec: DecoderSpec): TemplateTurns | undefined {
  return TURNS.get(spec);
}

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
  // DeepSeek's tool-call markers stay Misplaced in the table: ./template-decoder.ts reads them
  // before the per-token path sees them.
  const f = probe.fencedToolCalls;
  const eosIds = options.eosIds ?? probe.eosIds;
  const spec = buildDecoderSpec(model, "template", [...classOf], probe.names, { eosIds, startInReasoning });
  const userSpec = startInReasoning
    ? buildDecoderSpec(model, "template", [...classOf], probe.names, { eosIds, startInReasoning: false })
    : spec;
  TURNS.set(
    spec,
    Object.freeze({
      assistantPrompt: Object.freeze([...probe.generationPrompt]),
      userPrompt: Object.freeze([...probe.userPrompt]),
      fencedToolCalls: f,
      userSpec,
    }),
  );
  return spec;
}
