// The decoder spec of a template-only model: the grammar a probe of its chat template found
// (@chatwire/tokenizer probeTemplate, docs/templates.md "Decoding"), written as a Grammar and
// compiled by the same compiler as the native families, so the per-token path is the same
// code. Format "template" means exact text: the grammar has no newline rules (a probed
// template's strip rules are unknown), so no newline of the text is dropped or held.
//
//   the template's end of turn (<|eot_id|>, <｜end▁of▁sentence｜>)  message-end
//   <think> / </think> (both reserved, spelled by the template)  a reasoning block
//   <tool_call> / </tool_call>                                   a tool_call action (json-call,
//                                                                or xml-call: Qwen3-Coder)
//   DeepSeek's <｜tool▁calls▁begin｜> … <｜tool▁calls▁end｜>          a container of tool_call actions
//     <｜tool▁call▁begin｜> … <｜tool▁sep｜> … <｜tool▁call▁end｜>       (fenced-json-call, sep = separator)
//   a call written as plain JSON text (Llama 3.1+), with tools    plainTextToolCall json-call
//   another EOS ID (config, generation_config.json)              end-of-text (a stop)
//   every other reserved ID                                      misplaced (an error event)
//
// The bodies are the native families' registered syntaxes (syntax/index.ts), so calls stream
// (streamToolCalls) and stop strings apply inside them exactly as in a native family. Beside
// the class table, the spec carries the turn grammar (TemplateTurns, read by
// ./template-decoder.ts through templateTurnsOf): the ID sequences that open an assistant turn
// (the generation prompt) and a user turn, for decoding past the end of turn when the EOS IDs
// are overridden; and, for HF ByteFallback models, the table of the byte-run filter.
import type { BlockGrammar, Grammar, MarkerMove, TemplateProbe, TextModel } from "@chatwire/tokenizer";
import { compileGrammarSpec, type DecoderSpec, type DecoderSpecOptions } from "./spec.ts";
import { type ByteRunTable, byteRunTable } from "./template-decoding/byte-run.ts";

/** The turn grammar of a template spec (immutable, resolved once at compile time). */
export interface TemplateTurns {
  /** IDs that open an assistant turn (the generation prompt); [] when unknown. */
  readonly assistantPrompt: readonly number[];
  /** IDs that open a user turn after an end of turn; [] when unknown. */
  readonly userPrompt: readonly number[];
  /** HF ByteFallback byte runs to resolve as a whole (./template-decoding/byte-run.ts), or null. */
  readonly byteRun: ByteRunTable | null;
  /** The same class table for a user turn (never starts in reasoning). */
  readonly userSpec: DecoderSpec;
  /** The Grammar the class table was compiled from (ChunkWriter's `grammar`: which actions are calls). */
  readonly grammar: Grammar;
}

const TURNS = new WeakMap<DecoderSpec, TemplateTurns>();

/** The turn grammar of a spec made by compileTemplateDecoderSpec, else undefined. */
export function templateTurnsOf(spec: DecoderSpec): TemplateTurns | undefined {
  return TURNS.get(spec);
}

/** The Grammar a spec made by compileTemplateDecoderSpec was compiled from, else undefined. */
export function templateGrammarOf(spec: DecoderSpec): Grammar | undefined {
  return TURNS.get(spec)?.grammar;
}

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
    blocks.push({ name: "tool_call", emits: "action", body: probe.toolCallBody });
    mark("toolCall", probe.toolCall.start, { move: "block-open", block: "tool_call" });
    mark("toolCallEnd", probe.toolCall.end, { move: "block-close", block: "tool_call" });
  }
  const f = probe.fencedToolCalls;
  if (f !== null) {
    // DeepSeek's block, as the native deepseek grammar has it (a container of action blocks
    // whose "fenced-json-call" body takes <｜tool▁sep｜> as its separator), without its
    // newline rule (exact text; whitespace between calls is dropped by the container anyway).
    blocks.push(
      { name: "tool_calls", emits: "container", children: ["fenced_call"] },
      { name: "fenced_call", emits: "action", kind: "tool_call", body: "fenced-json-call" },
    );
    mark("toolCallsBegin", f.callsBegin, { move: "block-open", block: "tool_calls" });
    mark("toolCallsEnd", f.callsEnd, { move: "block-close", block: "tool_calls" });
    mark("toolCallBegin", f.callBegin, { move: "block-open", block: "fenced_call" });
    mark("toolCallEnd2", f.callEnd, { move: "block-close", block: "fenced_call" });
    mark("toolSep", f.sep, { move: "separator", block: "fenced_call" });
  }
  const grammar: Grammar = {
    markers,
    header: { syntax: "none" },
    blocks,
    ...(probe.think !== null ? { startBlock: "think" } : {}),
    ...(probe.plainTextToolCall ? { plainTextToolCall: "json-call" as const } : {}),
  };
  const startInReasoning =
    probe.think !== null && (options.startInReasoning ?? probe.startInReasoning) === true;
  const eosIds = options.eosIds ?? probe.eosIds;
  const compile = (inReasoning: boolean): DecoderSpec =>
    compileGrammarSpec(model, "template", grammar, ids, {
      reservedIds: probe.names.keys(),
      reservedName: probe.names,
      eosIds,
      startInReasoning: inReasoning,
    });
  const spec = compile(startInReasoning);
  const userSpec = startInReasoning ? compile(false) : spec;
  TURNS.set(
    spec,
    Object.freeze({
      assistantPrompt: Object.freeze([...probe.generationPrompt]),
      userPrompt: Object.freeze([...probe.userPrompt]),
      byteRun: byteRunTable(model.decodeTable, model.family),
      userSpec,
      grammar,
    }),
  );
  return spec;
}
