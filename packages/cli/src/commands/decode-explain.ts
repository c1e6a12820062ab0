// decode --explain: the output format the decoder would use, as one JSON line (docs/cli-contract.md
// "decode --explain"): for a template-only model what the recognizers derived from its chat
// template (TemplateProbe.output: name, evidence, markers with their moves, blocks and body
// syntaxes), for a native family its grammar. Every marker is listed with its reserved string and
// verified ID, so a user sees which token does what.
import type { Grammar, MarkerMove } from "@chatwire/tokenizer";

/** What is explained: a grammar, the IDs of its marker keys, and the facts around it. */
export interface ExplainSource {
  /** "template": derived from the chat template; "native": a built-in family's grammar. */
  readonly source: "template" | "native";
  /** The derived format's name, or the family's. */
  readonly name: string;
  readonly grammar: Grammar;
  /** Marker key -> verified ID (keys without an ID in these files are left out). */
  readonly ids: Readonly<Record<string, number>>;
  /** Display name (the reserved string) per reserved ID. */
  readonly names: ReadonlyMap<number, string>;
  /** What the renderings showed, one line per finding (template only). */
  readonly evidence: readonly string[];
  readonly eosIds: readonly number[];
  /** The ID that ends an assistant turn, when known. */
  readonly endOfTurn: number | undefined;
  /** Whether a one-message conversation's generation prompt leaves the start block open. */
  readonly startsInReasoning: boolean | undefined;
}

interface MarkerJson {
  readonly token: string;
  readonly id: number;
  readonly move: MarkerMove["move"];
  readonly [field: string]: unknown;
}

/**
 * The `{"format": {...}}` line. One marker per ID, in ID order, with the move the decoder
 * compiles (a later key of the same ID wins, as in the spec compiler: the derived end of turn
 * over the EOS entry); text markers as the grammar lists them.
 */
export function explainLine(s: ExplainSource): { format: Record<string, unknown> } {
  const byId = new Map<number, MarkerJson>();
  for (const [key, move] of Object.entries(s.grammar.markers)) {
    const id = s.ids[key];
    if (move === undefined || id === undefined) continue;
    byId.delete(id);
    byId.set(id, { token: s.names.get(id) ?? key, id, ...move });
  }
  const markers = [...byId.values()].sort((a, b) => a.id - b.id);
  const g = s.grammar;
  return {
    format: {
      source: s.source,
      name: s.name,
      evidence: s.evidence,
      markers,
      ...(g.textMarkers === undefined
        ? {}
        : { text_markers: Object.entries(g.textMarkers).map(([text, move]) => ({ text, ...move })) }),
      header: g.header,
      blocks: g.blocks ?? [],
      ...(g.startBlock === undefined ? {} : { start_block: g.startBlock }),
      ...(g.startText === undefined ? {} : { start_text: g.startText }),
      ...(g.callTurn === undefined ? {} : { call_turn: g.callTurn }),
      ...(s.startsInReasoning === undefined ? {} : { starts_in_reasoning: s.startsInReasoning }),
      ...(g.plainTextToolCall === undefined ? {} : { plain_text_tool_call: g.plainTextToolCall }),
      eos_ids: s.eosIds,
      ...(s.endOfTurn === undefined ? {} : { end_of_turn: s.endOfTurn }),
    },
  };
}
