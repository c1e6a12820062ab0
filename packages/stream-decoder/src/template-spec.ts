// The decoder spec of a template-only model: the output grammar derived from its chat template
// (@chatwire/tokenizer probeTemplate, whose recognizers write it as a Grammar keyed by reserved
// string with the verified IDs beside it; docs/templates.md "Decoding"), compiled by the same
// compiler as the native families, so the per-token path is the same code. Format "template"
// means exact text: the grammar has no newline rules (a probed template's strip rules are
// unknown), so no newline of the text is dropped or held. Every reserved ID the grammar gives no
// move is misplaced (an error event).
//
// Beside the class table, the spec carries the turn grammar (TemplateTurns, read by
// ./template-decoder.ts through templateTurnsOf): the ID sequences that open an assistant turn
// (the generation prompt) and a user turn, for decoding past the end of turn when the EOS IDs
// are overridden; and, for HF ByteFallback models, the table of the byte-run filter.
import type { Grammar, TemplateProbe, TextModel } from "@chatwire/tokenizer";
import type { DecoderHandler } from "./events.ts";
import { compileGrammarSpec, type DecoderSpec, type DecoderSpecOptions } from "./spec.ts";
import { type ByteRunTable, byteRunTable } from "./template-decoding/byte-run.ts";
import type { Decoder, DecoderOptions } from "./types.ts";

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
  /** Grammar.callTurn, resolved: a call written as a turn of its own after the end of turn, or null. */
  readonly callTurn: CallTurn | null;
}

/** A call turn's opening after a message end, and the spec its turn is decoded with. */
export interface CallTurn {
  /** The text the template writes between the end of turn and the header token ("\n\nfunction call"). */
  readonly text: string;
  /** The reserved header token that ends the opening (`<|role_sep|>`). */
  readonly marker: number;
  /** The same class table, starting inside the call's action block. */
  readonly spec: DecoderSpec;
}

const TURNS = new WeakMap<DecoderSpec, TemplateTurns>();

/** The turn grammar of a spec made by compileTemplateDecoderSpec, else undefined. */
export function templateTurnsOf(spec: DecoderSpec): TemplateTurns | undefined {
  return TURNS.get(spec);
}

/** A decoder implementation: its grammar engine, and the turn layer it runs a probed template's spec with. */
export interface DecoderClasses {
  readonly Engine: new (spec: DecoderSpec, handler: DecoderHandler, options: DecoderOptions) => Decoder;
  readonly TurnLayer: new (
    spec: DecoderSpec,
    turns: TemplateTurns,
    handler: DecoderHandler,
    options: DecoderOptions,
  ) => Decoder;
}

/**
 * The createDecoder of `classes`: a decoder of a spec, the turn layer for a template spec, else
 * the grammar engine.
 */
export function decoderFactory(
  classes: DecoderClasses,
): (spec: DecoderSpec, handler: DecoderHandler, options?: DecoderOptions) => Decoder {
  return (spec, handler, options = {}) => {
    const turns = templateTurnsOf(spec);
    if (turns !== undefined) return new classes.TurnLayer(spec, turns, handler, options);
    return new classes.Engine(spec, handler, options);
  };
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
  const grammar = probe.output.grammar;
  const ids = probe.output.ids;
  const startInReasoning =
    grammar.startBlock !== undefined && (options.startInReasoning ?? probe.startInReasoning) === true;
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
  const call = grammar.callTurn;
  const marker = call === undefined ? undefined : ids[call.marker];
  const callTurn: CallTurn | null =
    call === undefined || marker === undefined
      ? null
      : Object.freeze({
          text: call.text,
          marker,
          spec: compileGrammarSpec(model, "template", { ...grammar, startBlock: call.block }, ids, {
            reservedIds: probe.names.keys(),
            reservedName: probe.names,
            eosIds,
            startInReasoning: true,
          }),
        });
  TURNS.set(
    spec,
    Object.freeze({
      assistantPrompt: Object.freeze([...probe.generationPrompt]),
      userPrompt: Object.freeze([...probe.userPrompt]),
      byteRun: byteRunTable(model.decodeTable, model.family),
      userSpec,
      grammar,
      callTurn,
    }),
  );
  return spec;
}
