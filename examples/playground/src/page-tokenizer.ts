// The one shape the page reads of a loaded tokenizer, from either kind the loader returns: a
// native family's ChatTokenizer, or a TemplateTokenizer bound to the model's own chat template
// (fromAnyUrl's choice). The decoder spec, reserved IDs and stop IDs come from the family's
// verified registry, or from the template's reserved set and its probe (as the server does).
import {
  compileDecoderSpecFor,
  compileTemplateDecoderSpec,
  type DecoderSpec,
} from "@chatwire/stream-decoder";
import {
  type AnyTokenizer,
  type ChatTokenizer,
  probeTemplate,
  type TemplateTokenizer,
} from "@chatwire/tokenizer";

export interface PageTokenizer {
  readonly tok: AnyTokenizer;
  /** A native family's name, or "template". */
  readonly format: string;
  /** IDs only format code (or template text) places. */
  readonly reservedIds: ReadonlySet<number>;
  /** Display name per reserved ID. */
  readonly nameById: ReadonlyMap<number, string>;
  /**
   * Reserved strings the format writes; a template's: the first its source holds and the one
   * that ends a turn (from the probe), when there are such.
   */
  readonly reservedStrings: readonly string[];
  /** IDs that end a generation, the turn's end first when there is one. */
  readonly stopIds: readonly number[];
  /** The decoder spec (built on first use: a template's probe renders it several times). */
  spec(): DecoderSpec;
}

const isTemplate = (tok: AnyTokenizer): tok is TemplateTokenizer => tok.format === "template";

export function pageTokenizer(tok: AnyTokenizer): PageTokenizer {
  return isTemplate(tok) ? fromTemplate(tok) : fromNative(tok);
}

function fromNative(tok: ChatTokenizer): PageTokenizer {
  let spec: DecoderSpec | undefined;
  return {
    tok,
    format: tok.format,
    reservedIds: tok.registry.ids,
    nameById: tok.registry.nameById,
    reservedStrings: [...tok.registry.nameById.values()],
    stopIds: nativeStops(tok),
    spec: () => {
      spec ??= compileDecoderSpecFor(tok);
      return spec;
    },
  };
}

/** The EOS IDs, the first one the grammar reads as a turn's end (message-end or a role marker) first. */
function nativeStops(tok: ChatTokenizer): number[] {
  const ends = new Set<number>();
  for (const [key, m] of Object.entries(tok.family.grammar.markers)) {
    const id = tok.tokenIds[key];
    if (id !== undefined && (m?.move === "message-end" || m?.move === "role")) ends.add(id);
  }
  const eos = tok.registry.eosIds;
  const end = eos.find((id) => ends.has(id));
  return end === undefined ? [...eos] : [end, ...eos.filter((id) => id !== end)];
}

function turnMarkers(tok: TemplateTokenizer, endOfTurn: number | null): string[] {
  const source = tok.templates.default;
  let first: string | undefined;
  let at = Number.POSITIVE_INFINITY;
  let close: string | undefined;
  for (const [s, id] of tok.reserved) {
    const i = source.indexOf(s);
    if (i >= 0 && i < at) [first, at] = [s, i];
    if (id === endOfTurn) close = s;
  }
  return first === undefined || close === undefined || first === close ? [] : [first, close];
}

function fromTemplate(tok: TemplateTokenizer): PageTokenizer {
  const probe = probeTemplate(tok);
  const stops = probe.endOfTurn === null ? [...probe.eosIds] : [probe.endOfTurn];
  for (const id of probe.eosIds) if (!stops.includes(id)) stops.push(id);
  let spec: DecoderSpec | undefined;
  return {
    tok,
    format: "template",
    reservedIds: new Set(tok.reserved.values()),
    nameById: tok.nameById,
    reservedStrings: turnMarkers(tok, probe.endOfTurn),
    stopIds: stops,
    spec: () => {
      spec ??= compileTemplateDecoderSpec(tok.textModel, probe);
      return spec;
    },
  };
}
