// The output grammar of a template-only model, derived from its chat template: the end of turn
// and EOS IDs the probe found, then the first reasoning part and the first tool-call part a
// recognizer finds (./recognizers/index.ts), merged into one Grammar keyed by reserved string
// with the verified IDs beside it. What was recognized is kept as evidence (`--explain`).
import type { BlockGrammar, Grammar, MarkerMove } from "../../families/grammar.ts";
import type { ProbeContext } from "./context.ts";
import type { FormatPart, Recognizer } from "./part.ts";
import { REASONING_RECOGNIZERS, TOOL_RECOGNIZERS } from "./recognizers/index.ts";
import { compileResponseTemplate } from "./response-template/compile.ts";

export interface DerivedOutput {
  /** "reasoning <think>…</think>; tool_call JSON", or "text" when nothing was recognized. */
  readonly name: string;
  readonly grammar: Grammar<string>;
  /** Marker key -> verified reserved ID (every key of grammar.markers). */
  readonly ids: Readonly<Record<string, number>>;
  /** One line per finding, prefixed by the recognizer's name. */
  readonly evidence: readonly string[];
  /** The reasoning block is open at the start of the output whatever the prompt (response_template `(?:^|<think>)`). */
  readonly startsInReasoning?: boolean;
}

/** The model's response_template as the one part, or null (absent, malformed or refused: evidence says why). */
function responsePart(
  ctx: ProbeContext,
  ends: ReadonlySet<number>,
  evidence: string[],
): [string, FormatPart, boolean] | null {
  const read = ctx.tok.config.responseTemplate;
  if (read === undefined) return null;
  if ("error" in read) {
    evidence.push(`response-template: ignored: ${read.error}`);
    return null;
  }
  const c = compileResponseTemplate(read.template, { id: ctx.id, ends });
  if ("error" in c) {
    evidence.push(`response-template: not used: ${c.error}`);
    return null;
  }
  return ["response-template", c.part, c.startsInReasoning];
}

function first(ctx: ProbeContext, list: readonly Recognizer[]): [Recognizer, FormatPart] | null {
  for (const r of list) {
    let p: FormatPart | null;
    try {
      p = r.recognize(ctx);
    } catch {
      p = null; // a recognizer never decides on an exception: the template is not its shape
    }
    if (p !== null && Object.keys(p.markers).every((s) => ctx.id(s) !== undefined)) return [r, p];
  }
  return null;
}

/** The reserved tokens of an assistant turn with content only, when the content is there as written. */
function contentMarks(ctx: ProbeContext): string[] {
  const turn = ctx.assistant({ content: CONTENT });
  if (turn === null || !turn.text.includes(CONTENT)) return [];
  return turn.pieces.flatMap((p) => ("reserved" in p ? [p.reserved] : []));
}

const CONTENT = "Probe content two.";

export function deriveOutput(ctx: ProbeContext, eosIds: readonly number[]): DerivedOutput {
  const markers: Record<string, MarkerMove> = {};
  const ids: Record<string, number> = {};
  const textMarkers: Record<string, MarkerMove> = {};
  const blocks: BlockGrammar[] = [];
  const names: string[] = [];
  const evidence: string[] = [];
  const reserved = new Set(ctx.tok.reserved.values());
  // Later keys win for the same ID: EOS first, then the end of turn, then the parts.
  for (const id of eosIds)
    if (reserved.has(id)) {
      markers[`eos ${id}`] = { move: "end-of-text" };
      ids[`eos ${id}`] = id;
    }
  if (ctx.endOfTurn !== null) {
    markers.endOfTurn = { move: "message-end" };
    ids.endOfTurn = ctx.endOfTurn;
  }
  let startBlock: string | undefined;
  let startText: string | undefined;
  let callTurn: FormatPart["callTurn"];
  let plainTextToolCall: "json-call" | undefined;
  let header: Grammar["header"] = { syntax: "none" };
  // A response_template the model ships takes precedence over the recognizers.
  const response = responsePart(ctx, new Set(Object.values(ids)), evidence);
  const parts: Array<[string, FormatPart]> = [];
  if (response !== null) parts.push([response[0], response[1]]);
  else
    for (const list of [REASONING_RECOGNIZERS, TOOL_RECOGNIZERS]) {
      const found = first(ctx, list);
      if (found !== null) parts.push([found[0].name, found[1]]);
    }
  for (const [r, p] of parts) {
    for (const [s, move] of Object.entries(p.markers)) {
      markers[s] = move;
      ids[s] = ctx.id(s) as number; // checked by first() / reserved by compileResponseTemplate
    }
    Object.assign(textMarkers, p.textMarkers ?? {});
    blocks.push(...p.blocks);
    startBlock ??= p.startBlock;
    startText ??= p.startText;
    callTurn ??= p.callTurn;
    plainTextToolCall ??= p.plainTextToolCall;
    if (p.header !== undefined) header = p.header;
    names.push(p.name);
    for (const e of p.evidence) evidence.push(`${r}: ${e}`);
    // A whole-turn syntax (harmony) is the whole grammar: no other part is added to it.
    if (p.header !== undefined) break;
  }
  // Reserved tokens a content-only turn writes around its text that no part gave a move.
  if (parts.every(([, p]) => p.header === undefined))
    for (const s of contentMarks(ctx))
      if (markers[s] === undefined && ctx.id(s) !== ctx.endOfTurn) {
        markers[s] = { move: "content-mark" };
        ids[s] = ctx.id(s) as number;
        evidence.push(`content: ${s} is written around a turn's content (read as no text)`);
      }
  const given = Object.keys(ctx.variables);
  if (given.length > 0)
    evidence.push(`probe: rendered with variables no request defines, given as "": ${given.join(", ")}`);
  const grammar: Grammar<string> = {
    markers,
    header,
    blocks,
    ...(Object.keys(textMarkers).length > 0 ? { textMarkers } : {}),
    ...(startBlock !== undefined ? { startBlock } : {}),
    ...(startText !== undefined ? { startText } : {}),
    ...(callTurn !== undefined ? { callTurn } : {}),
    ...(plainTextToolCall !== undefined ? { plainTextToolCall } : {}),
  };
  return {
    name: names.length > 0 ? names.join("; ") : "text",
    grammar,
    ids,
    evidence,
    ...(response?.[2] === true ? { startsInReasoning: true } : {}),
  };
}
