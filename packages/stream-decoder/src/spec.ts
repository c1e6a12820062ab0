// The compiled, immutable decoder spec: every table the hot path reads, resolved once per
// (text model, grammar) and shared by all streams. The per-token work is then one array read
// (the ID's class) and one switch on a small integer.
//
// Compiled from data only: the verified reserved registry of the loaded tokenizer (every
// reserved ID that the grammar gives no move is "misplaced") and the family's Grammar
// (@chatwire/tokenizer families/grammar.ts). No family is named here; the grammar's moves,
// header syntax, blocks and newline rules become the small-integer fields below.
import {
  type BlockGrammar,
  type BodySyntax,
  type DecodeTable,
  type FormatName,
  type Grammar,
  type MarkerMove,
  PLAIN_TEXT_CALL_KIND,
  type ResponseFieldBody,
  type TextModel,
  TokenKind,
} from "@chatwire/tokenizer";
import type { BodyParserFactory, BodyParserOptions } from "./syntax/body.ts";
import { BODY_SYNTAXES } from "./syntax/index.ts";
import { type CompiledTextMarkers, compileTextMarkers } from "./text-markers.ts";

/** ID classes. Text classes first; then the moves. */
export const Cls = {
  /** Text piece not ending in "\n". */
  Text: 0,
  /** Text piece ending in "\n" (only matters where the grammar holds newlines). */
  TextNl: 1,
  /** Raw bytes (byte fallback / partial UTF-8 tokens). */
  Bytes: 2,
  /** Decodes to "" (control pieces, empty text). */
  Control: 3,
  /** Not an ID of this model. */
  OutOfRange: 4,
  /** An EOS ID that is not one of the grammar's markers (e.g. a caller-chosen text ID). */
  EosPlain: 5,
  MsgStart: 6,
  MsgEnd: 7,
  /** Ends a "pair" header (the role text between message start and this marker). */
  HeaderEnd: 8,
  /** Opens / closes the block compiled at DecoderSpec.markerArg. */
  BlockOpen: 9,
  BlockClose: 10,
  /** A separator handed to the open block's body parser. */
  Separator: 11,
  /** Names the kind (and body syntax) of the action just opened. */
  ActionKind: 12,
  /** A new segment with the role at DecoderSpec.roleOf. */
  Role: 13,
  /** End of text: a stop if it is EOS, else misplaced. */
  EndOfText: 14,
  /** Any other reserved ID (BOS, [MASK], <tool_response>, ...): never valid in a generation. */
  Misplaced: 15,
  /**
   * Not classified yet: an ID of the text model that is no marker, reserved or EOS ID. Its
   * class (Text, TextNl, Bytes or Control) is computed from the decode table at its first
   * sight (classOf) and stored in place, so a compile never visits every ID.
   */
  Unseen: 16,
  /** Starts a header field (DecoderSpec.markerArg: HeaderField.*); only a harmony header has them. */
  HeaderField: 17,
} as const;

/** The fields a "header-field" marker starts (markerArg of a Cls.HeaderField ID). */
export const HeaderField = { Channel: 1, Constrain: 2 } as const;

/** Header syntaxes (Grammar.header). */
export const Header = { None: 0, Line: 1, RoleMetadataLine: 2, Pair: 3, Harmony: 4 } as const;

/** What a block's body is. */
export const Emits = { Reasoning: 0, Action: 1, Container: 2 } as const;

/** Newline rules (Grammar NewlineRules), compiled. */
export const Nl = {
  None: 0,
  One: 1,
  All: 2,
  /** afterClose only: one "\n" dropped when the message ends right after it. */
  OneBeforeEnd: 3,
} as const;

/** A body syntax with its options; `create` null when no parser is registered for it. */
export interface CompiledBody {
  readonly syntax: BodySyntax;
  readonly argumentsKey: "arguments" | "parameters";
  /** BlockGrammar.callKeys, "" for the default. */
  readonly nameKey: string;
  readonly idKey: string;
  /** BlockGrammar.responseField of the blocks sharing this body ("response-field" only). */
  readonly responseField?: ResponseFieldBody;
  readonly create: BodyParserFactory | null;
}

/** What a compiled body's parser factory is given (BodyParserOptions). */
export function bodyParserOptions(b: CompiledBody | undefined, maxBufferedChars: number): BodyParserOptions {
  return {
    maxBufferedChars,
    argumentsKey: b?.argumentsKey ?? "arguments",
    ...(b !== undefined && b.nameKey !== "" ? { nameKey: b.nameKey } : {}),
    ...(b !== undefined && b.idKey !== "" ? { idKey: b.idKey } : {}),
    ...(b?.responseField !== undefined ? { responseField: b.responseField } : {}),
  };
}

export interface CompiledBlock {
  readonly name: string;
  /** Emits.* */
  readonly emits: number;
  /** Action kind reported in action_start ("" with kindFromMarker: the marker names it). */
  readonly kind: string;
  /** Index into DecoderSpec.grammar.bodies, -1 without a body syntax. */
  readonly body: number;
  /** Nl.* per rule. */
  readonly beforeOpen: number;
  readonly afterOpen: number;
  readonly beforeClose: number;
  readonly afterClose: number;
  /** Index of the container block it must be opened in, -1 at the top level. */
  readonly parent: number;
  readonly kindFromMarker: boolean;
  /** Opening it while it is open ends the open action first (BlockGrammar.reopens). */
  readonly reopens: boolean;
  /** A child block that may also open at the top level (BlockGrammar.alsoTopLevel). */
  readonly alsoTopLevel: boolean;
  /** Its open marker inside reasoning closes the reasoning first (BlockGrammar.endsReasoning). */
  readonly endsReasoning: boolean;
  /** The "missing-action-kind" error message (kindFromMarker). */
  readonly missingKind: string;
  /** Text that must follow its reserved open marker (BlockGrammar.openText), "" for none. */
  readonly openText: string;
}

export interface CompiledActionKind {
  readonly kind: string;
  /** Index into bodies. */
  readonly body: number;
}

/** The grammar as small integers and tables (slow path only; the fast path reads classes). */
export interface CompiledGrammar {
  /** Header.* */
  readonly header: number;
  /** Header.Pair: the text the template writes after the header-end marker. */
  readonly dropAfter: string;
  readonly initialRole: string;
  readonly blocks: readonly CompiledBlock[];
  readonly kinds: readonly CompiledActionKind[];
  readonly bodies: readonly CompiledBody[];
  /** Nl.* of content: the largest beforeOpen of the top-level blocks (held trailing "\n"). */
  readonly contentNl: number;
  /** Block index decoding may start in (options.startInReasoning), -1: none. */
  readonly startBlock: number;
  /** Grammar.startText: the prompt's text at the start of that block's body ("" for none). */
  readonly startText: string;
  /** Block index of the plain-text tool call (DecoderOptions.tools), -1: none. */
  readonly plainBlock: number;
  /** Header.RoleMetadataLine: a non-empty metadata line of this role opens an action. */
  readonly metaActionRole: string;
  /** Its block index (-1: metadata never opens an action), and per metadata overrides. */
  readonly metaActionBlock: number;
  readonly metaBlockByMetadata: ReadonlyMap<string, number>;
  /** Metadata lines that make the segment content (HeaderSyntax contentMetadata). */
  readonly metaContent: ReadonlySet<string>;
}

export interface DecoderSpecOptions {
  /** Replaces the EOS IDs (default: the registry's). E.g. [] to decode several messages. */
  readonly eosIds?: readonly number[];
  /** The prompt already opened the grammar's startBlock (thinking-only models): decoding starts inside it. */
  readonly startInReasoning?: boolean;
}

/** A native family, or "template": a grammar found by probing a chat template (./template-spec.ts). */
export type DecoderFormat = FormatName | "template";

export interface DecoderSpec {
  /** The family name (diagnostics only: no behaviour reads it). */
  readonly format: string;
  /**
   * Class per ID, for IDs in [0, classes.length). Text-model IDs that are not markers,
   * reserved or EOS IDs read Cls.Unseen until classOf(spec, id) first classifies them (the
   * array is filled in place, once per ID; read it through classOf).
   */
  readonly classes: Uint8Array;
  /** The decode table's TokenKind per ID in [0, kind.length) (what classOf classifies from). */
  readonly kind: Uint8Array;
  /** 1 where the ID is an EOS ID. */
  readonly eos: Uint8Array;
  readonly eosIds: readonly number[];
  /**
   * Per ID its decoded text (mid-decode / first visible piece). Filled per ID at its first
   * classification when the decode table makes texts lazily (DecodeTable.lazyText: SentencePiece
   * and byte-level table files): read an ID's entry after classOf(spec, id), never the array whole.
   */
  readonly text: readonly string[];
  readonly textAtStart: readonly string[];
  readonly bytes: readonly (Uint8Array | undefined)[];
  readonly invalidUtf8: "per-byte" | "maximal-subpart";
  readonly startEnds: DecodeTable["startEnds"];
  /** SentencePiece flushes held bytes at ANY non-byte piece; byte-level only at text. */
  readonly controlFlushes: boolean;
  /** Role name per role marker. */
  readonly roleOf: ReadonlyMap<number, string>;
  /**
   * Block index (BlockOpen / BlockClose / Separator), kind index (ActionKind) or field
   * (HeaderField.*) per marker ID.
   */
  readonly markerArg: ReadonlyMap<number, number>;
  /** Display name per reserved ID (error messages). */
  readonly reservedName: ReadonlyMap<number, string>;
  readonly startInReasoning: boolean;
  readonly grammar: CompiledGrammar;
  /** Grammar.textMarkers compiled per place they are valid (./text-markers.ts), null: none. */
  readonly textMarkers: CompiledTextMarkers | null;
}

/** What compileDecoderSpecFor reads of a loaded ChatTokenizer (structural). */
export interface DecoderSource {
  readonly textModel: TextModel;
  readonly family: { readonly grammar: Grammar; readonly name?: string };
  /** Verified token IDs by the family's token keys. */
  readonly tokenIds: Readonly<Record<string, number>>;
  /** The verified reserved registry: every ID in `ids` is reserved. */
  readonly registry: {
    readonly ids: ReadonlySet<number>;
    readonly nameById: ReadonlyMap<number, string>;
    readonly eosIds: readonly number[];
  };
  readonly format?: string;
}

/** The decoder spec of a loaded tokenizer: its verified registry and its family's grammar. */
export function compileDecoderSpecFor(tok: DecoderSource, options: DecoderSpecOptions = {}): DecoderSpec {
  const name = tok.family.name ?? tok.format ?? "custom";
  return compileGrammarSpec(tok.textModel, name, tok.family.grammar, tok.tokenIds, {
    reservedIds: tok.registry.ids,
    reservedName: tok.registry.nameById,
    eosIds: options.eosIds ?? tok.registry.eosIds,
    startInReasoning: options.startInReasoning === true,
  });
}

export interface GrammarSpecInputs {
  readonly reservedIds: Iterable<number>;
  readonly reservedName: ReadonlyMap<number, string>;
  readonly eosIds: readonly number[];
  readonly startInReasoning: boolean;
}

function nl(rule: "none" | "one" | "all" | "one-before-end" | undefined): number {
  return rule === "one"
    ? Nl.One
    : rule === "all"
      ? Nl.All
      : rule === "one-before-end"
        ? Nl.OneBeforeEnd
        : Nl.None;
}

function headerOf(h: Grammar["header"]): number {
  switch (h.syntax) {
    case "none":
      return Header.None;
    case "line":
      return Header.Line;
    case "role-metadata-line":
      return Header.RoleMetadataLine;
    case "pair":
      return Header.Pair;
    case "harmony":
      return Header.Harmony;
  }
}

const MOVE_CLASS: Readonly<Record<MarkerMove["move"], number>> = {
  "message-start": Cls.MsgStart,
  "header-end": Cls.HeaderEnd,
  "message-end": Cls.MsgEnd,
  role: Cls.Role,
  "block-open": Cls.BlockOpen,
  "block-close": Cls.BlockClose,
  separator: Cls.Separator,
  "action-kind": Cls.ActionKind,
  "header-field": Cls.HeaderField,
  "end-of-text": Cls.EndOfText,
  // Nothing to do but what a control piece does (no text): valid wherever text is.
  "content-mark": Cls.Control,
  misplaced: Cls.Misplaced,
};

/** The class of a text-model ID (id in [0, table.size)) from its kind and texts. */
function textClass(table: Pick<DecodeTable, "kind" | "text" | "textAtStart">, id: number): number {
  const k = table.kind[id];
  if (k === TokenKind.Bytes) return Cls.Bytes;
  if (k !== TokenKind.Text) return Cls.Control;
  const t = table.text[id] ?? "";
  const t0 = table.textAtStart[id] ?? "";
  if (t === "" && t0 === "") return Cls.Control;
  return t.endsWith("\n") || t0.endsWith("\n") ? Cls.TextNl : Cls.Text;
}

/**
 * Fillers of lazy text arrays (DecodeTable.lazyText: SentencePiece, whose whole arrays cost
 * most of a cold load), by array. A spec of such a table reads those arrays and classOf fills
 * an ID at its first classification: every read of spec.text[id] / spec.textAtStart[id]
 * follows one, since only classOf gives an ID a text class.
 */
const FILL = new WeakMap<readonly (string | undefined)[], (id: number) => void>();

function specTexts(table: DecodeTable): Pick<DecodeTable, "text" | "textAtStart"> {
  const lazy = table.lazyText;
  if (lazy === undefined) return table;
  FILL.set(lazy.text, lazy.fill);
  return { text: lazy.text as readonly string[], textAtStart: lazy.textAtStart as readonly string[] };
}

/**
 * The class of `id` (an integer in [0, spec.classes.length)): a Cls.Unseen entry is
 * classified from the decode table now and stored, so every later read is the array's.
 */
export function classOf(spec: DecoderSpec, id: number): number {
  const c = spec.classes[id] as number;
  if (c !== Cls.Unseen) return c;
  FILL.get(spec.text)?.(id);
  const k = textClass(spec, id);
  spec.classes[id] = k;
  return k;
}

/** Compiles a grammar whose token keys resolve through `tokenIds` (keys without an ID are skipped). */
export function compileGrammarSpec(
  model: TextModel,
  format: string,
  grammar: Grammar,
  tokenIds: Readonly<Record<string, number>>,
  inputs: GrammarSpecInputs,
): DecoderSpec {
  const table = model.decodeTable;
  const bad = (message: string): never => {
    throw new TypeError(`grammar of ${format}: ${message}`);
  };
  // ---- blocks and bodies ----
  const bodies: CompiledBody[] = [];
  const bodyIndex = (
    syntax: BodySyntax | undefined,
    key: "arguments" | "parameters" | undefined,
    callKeys?: BlockGrammar["callKeys"],
    responseField?: ResponseFieldBody,
  ): number => {
    if (syntax === undefined) return -1;
    const argumentsKey = key ?? "arguments";
    const nameKey = callKeys?.name ?? "";
    const idKey = callKeys?.id ?? "";
    let i = bodies.findIndex(
      (b) =>
        b.syntax === syntax &&
        b.argumentsKey === argumentsKey &&
        b.nameKey === nameKey &&
        b.idKey === idKey &&
        b.responseField === responseField,
    );
    if (i === -1) {
      i = bodies.length;
      bodies.push({
        syntax,
        argumentsKey,
        nameKey,
        idKey,
        ...(responseField !== undefined ? { responseField } : {}),
        create: BODY_SYNTAXES[syntax] ?? null,
      });
    }
    return i;
  };
  const defs: BlockGrammar[] = [...(grammar.blocks ?? [])];
  if (grammar.plainTextToolCall !== undefined && !defs.some((b) => b.name === " plain"))
    defs.push({
      name: " plain",
      emits: "action",
      kind: PLAIN_TEXT_CALL_KIND,
      body: grammar.plainTextToolCall,
    });
  const blockAt = new Map<string, number>();
  defs.forEach((b, i) => {
    if (blockAt.has(b.name)) bad(`block ${JSON.stringify(b.name)} is defined twice`);
    blockAt.set(b.name, i);
  });
  const parentOf = new Map<string, number>();
  defs.forEach((b, i) => {
    for (const c of b.children ?? []) {
      if (!blockAt.has(c)) bad(`block ${JSON.stringify(b.name)} names an unknown child ${JSON.stringify(c)}`);
      parentOf.set(c, i);
    }
  });
  // ---- markers ----
  const markers: Array<readonly [id: number, cls: number, arg: number, move: MarkerMove]> = [];
  const kinds: CompiledActionKind[] = [];
  const roleOf = new Map<number, string>();
  const reservedName = new Map(inputs.reservedName);
  for (const [key, move] of Object.entries(grammar.markers) as Array<[string, MarkerMove | undefined]>) {
    const id = tokenIds[key];
    if (move === undefined || id === undefined) continue;
    if (!Number.isInteger(id) || id < 0) bad(`token ${key} has no valid id (${id})`);
    if (!reservedName.has(id)) reservedName.set(id, model.idToPiece(id) ?? key);
    let arg = -1;
    if (move.move === "block-open" || move.move === "block-close" || move.move === "separator") {
      const b = blockAt.get(move.block);
      if (b === undefined) bad(`marker ${key} names an unknown block ${JSON.stringify(move.block)}`);
      arg = b as number;
    } else if (move.move === "action-kind") {
      arg = kinds.length;
      kinds.push({ kind: move.kind, body: bodyIndex(move.body ?? "raw", move.argumentsKey) });
    } else if (move.move === "header-field")
      arg = move.field === "channel" ? HeaderField.Channel : HeaderField.Constrain;
    else if (move.move === "role") roleOf.set(id, move.role);
    markers.push([id, MOVE_CLASS[move.move], arg, move]);
  }
  const kindNames = markers
    .filter((m) => m[1] === Cls.ActionKind)
    .map((m) => reservedName.get(m[0]) as string);
  const blocks: CompiledBlock[] = defs.map((b, i) => {
    const openIds = markers.filter((m) => m[1] === Cls.BlockOpen && m[2] === i).map((m) => m[0]);
    const openName = openIds.length > 0 ? (reservedName.get(openIds[0] as number) as string) : b.name;
    return {
      name: b.name,
      emits:
        b.emits === "reasoning" ? Emits.Reasoning : b.emits === "action" ? Emits.Action : Emits.Container,
      kind: b.kindFromMarker === true ? "" : (b.kind ?? b.name),
      body: bodyIndex(b.body, b.argumentsKey, b.callKeys, b.responseField),
      beforeOpen: nl(b.newlines?.beforeOpen),
      afterOpen: nl(b.newlines?.afterOpen),
      beforeClose: nl(b.newlines?.beforeClose),
      afterClose: nl(b.newlines?.afterClose),
      parent: parentOf.get(b.name) ?? -1,
      kindFromMarker: b.kindFromMarker === true,
      reopens: b.reopens === true,
      alsoTopLevel: b.alsoTopLevel === true,
      endsReasoning: b.endsReasoning === true,
      missingKind: `${openName} was not followed by ${kindNames.join(" or ") || "a kind marker"}`,
      openText: b.openText ?? "",
    };
  });
  const textMarkers = compileTextMarkers(
    grammar,
    blocks,
    blockAt,
    { blockOpen: Cls.BlockOpen, blockClose: Cls.BlockClose, separator: Cls.Separator, role: Cls.Role },
    bad,
  );
  let contentNl: number = Nl.None;
  for (const b of blocks) if (b.parent === -1 && b.beforeOpen > contentNl) contentNl = b.beforeOpen;
  const header = grammar.header;
  const metaBlockByMetadata = new Map<string, number>();
  let metaActionBlock = -1;
  let metaActionRole = "assistant";
  const metaContent = new Set<string>();
  if (header.syntax === "role-metadata-line") {
    for (const m of header.contentMetadata ?? []) metaContent.add(m);
    metaActionRole = header.actionRole ?? "assistant";
    if (header.actionBlock !== undefined) {
      metaActionBlock = blockAt.get(header.actionBlock) ?? bad(`unknown block ${header.actionBlock}`);
    }
    for (const [m, name] of Object.entries(header.blockByMetadata ?? {}))
      metaBlockByMetadata.set(m, blockAt.get(name) ?? bad(`unknown block ${name}`));
  }
  const startBlock = grammar.startBlock === undefined ? -1 : (blockAt.get(grammar.startBlock) ?? -1);
  const compiled: CompiledGrammar = Object.freeze({
    header: headerOf(header),
    dropAfter: header.syntax === "pair" ? header.dropAfter : "",
    initialRole: grammar.initialRole ?? "assistant",
    blocks: Object.freeze(blocks),
    kinds: Object.freeze(kinds),
    bodies: Object.freeze(bodies),
    contentNl,
    startBlock,
    startText: startBlock >= 0 ? (grammar.startText ?? "") : "",
    plainBlock: grammar.plainTextToolCall === undefined ? -1 : (blockAt.get(" plain") as number),
    metaActionRole,
    metaActionBlock,
    metaBlockByMetadata,
    metaContent,
  });

  // ---- the class table ----
  const eosIds = [...inputs.eosIds];
  const reserved = [...inputs.reservedIds];
  let end = table.size;
  for (const id of reserved) end = Math.max(end, id + 1);
  for (const [id] of markers) end = Math.max(end, id + 1);
  for (const id of eosIds) {
    if (!Number.isInteger(id) || id < 0) throw new TypeError(`EOS id ${id} is not a non-negative integer`);
    end = Math.max(end, id + 1);
  }
  // Text-model IDs start Unseen (two native fills, no per-ID work: the eager pass over a 92k
  // vocabulary was ~7 ms of a ~90 ms cold start); classOf classifies one at its first sight.
  const classes = new Uint8Array(end).fill(Cls.OutOfRange).fill(Cls.Unseen, 0, table.size);
  // Every verified reserved ID is structural: misplaced unless the grammar gives it a move.
  for (const id of reserved) classes[id] = Cls.Misplaced;
  const markerArg = new Map<number, number>();
  for (const [id, cls, arg] of markers) {
    classes[id] = cls;
    if (arg >= 0) markerArg.set(id, arg);
  }
  const eos = new Uint8Array(end);
  for (const id of eosIds) {
    eos[id] = 1;
    const c = classes[id] as number;
    if (c <= Cls.OutOfRange || c === Cls.Unseen) classes[id] = Cls.EosPlain;
  }
  const texts = specTexts(table);
  return Object.freeze({
    format,
    classes,
    kind: table.kind,
    eos,
    eosIds: Object.freeze(eosIds),
    text: texts.text,
    textAtStart: texts.textAtStart,
    bytes: table.bytes,
    invalidUtf8: table.invalidUtf8,
    startEnds: table.startEnds,
    controlFlushes: model.family === "sentencepiece",
    roleOf,
    markerArg,
    reservedName,
    startInReasoning: inputs.startInReasoning && startBlock >= 0,
    grammar: compiled,
    textMarkers,
  });
}
