// The one shape the server reads of a loaded tokenizer, from either kind: a native family's
// ChatTokenizer, or a TemplateTokenizer bound to the model's own chat template (docs/serve.md
// "Template-only models"). Built once per tokenizer (memoised: the template probe renders the
// template several times):
//   native    spec compileDecoderSpecFor(tok); prefill the family's callOpening over its IDs;
//             ChunkWriter grammar the family's (by format); stops the registry's EOS IDs
//   template  spec compileTemplateDecoderSpec(tok.textModel, probeTemplate(tok)); prefill
//             templateCallOpening(tok); ChunkWriter grammar the probed one; stops the probed
//             EOS IDs and end of turn
import { type PrefillSource, templateCallOpening } from "@chatwire/openai";
import {
  compileDecoderSpecFor,
  compileTemplateDecoderSpec,
  type DecoderSpec,
  templateGrammarOf,
} from "@chatwire/stream-decoder";
import {
  type AnyTokenizer,
  type ChatEncoding,
  type ChatRequest,
  type ChatTokenizer,
  type DecodeOptions,
  type Grammar,
  probeTemplate,
  type TemplateTokenizer,
  type TextEncoding,
} from "@chatwire/tokenizer";

/** What the routes call: the encoders and the decoder of the served model's tokenizer. */
export interface ServedEncoder {
  /** A native family's name, or "template". */
  readonly format: string;
  encodeChat(request: ChatRequest): ChatEncoding;
  encodeText(text: string): TextEncoding;
  decode(ids: readonly number[], options?: DecodeOptions): string;
}

export interface ServedTokenizer {
  readonly tokenizer: ServedEncoder;
  readonly spec: DecoderSpec;
  /** ChunkWriter's grammar; undefined: the native family's, found by its format name. */
  readonly grammar: Grammar | undefined;
  /** What toolChoicePrefill reads. */
  readonly prefill: PrefillSource;
  /** IDs that end the model's turn (the replay script is cut after the first). */
  readonly stopIds: readonly number[];
  /** The ID a model writes to end its turn when the rendering writes no stop. */
  readonly turnEndId: number | undefined;
}

const isTemplate = (tok: AnyTokenizer): tok is TemplateTokenizer => tok.format === "template";

const SERVED = new WeakMap<AnyTokenizer, ServedTokenizer>();

/** The served shape of `tok`; a template whose probe fails throws its TokenizerError. */
export function servedTokenizer(tok: AnyTokenizer): ServedTokenizer {
  let s = SERVED.get(tok);
  if (s === undefined) {
    s = isTemplate(tok) ? fromTemplate(tok) : fromNative(tok);
    SERVED.set(tok, s);
  }
  return s;
}

function fromNative(tok: ChatTokenizer): ServedTokenizer {
  return {
    tokenizer: tok,
    spec: compileDecoderSpecFor(tok),
    grammar: undefined,
    prefill: tok,
    stopIds: tok.registry.eosIds,
    turnEndId: nativeTurnEnd(tok),
  };
}

function fromTemplate(tok: TemplateTokenizer): ServedTokenizer {
  const probe = probeTemplate(tok);
  const spec = compileTemplateDecoderSpec(tok.textModel, probe);
  const callOpening = templateCallOpening(tok);
  const stops = [...probe.eosIds];
  if (probe.endOfTurn !== null && !stops.includes(probe.endOfTurn)) stops.push(probe.endOfTurn);
  return {
    tokenizer: tok,
    spec,
    grammar: templateGrammarOf(spec),
    prefill: { encodeText: (text) => tok.encodeText(text), callOpening },
    stopIds: stops,
    turnEndId: probe.endOfTurn ?? probe.eosIds[0],
  };
}

/**
 * The stop ID a model writes to end its turn: the first EOS ID the grammar reads as the end of
 * a message (a message-end marker, or a role marker that starts the next turn), else the first
 * EOS ID.
 */
function nativeTurnEnd(tok: ChatTokenizer): number | undefined {
  const moves = new Map<number, string>();
  for (const [key, m] of Object.entries(tok.family.grammar.markers)) {
    const id = tok.tokenIds[key];
    if (m !== undefined && id !== undefined) moves.set(id, m.move);
  }
  const eos = tok.registry.eosIds;
  return eos.find((id) => moves.get(id) === "message-end" || moves.get(id) === "role") ?? eos[0];
}
