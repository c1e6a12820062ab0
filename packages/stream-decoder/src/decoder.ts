// The per-stream decoder: token IDs in, events out through a handler object.
//
// Behaviour comes ONLY from the compiled grammar of the spec (./spec.ts: small-integer fields
// made from the family's Grammar data); no family is named here. States (one `switch` in
// spanText; the per-token fast path does not even reach it):
//
//   CONTENT     message text                       ‹message-start›assistant\nHel|lo
//   REASONING   a "reasoning" block's body          ‹block-open›\nLet me |think
//   ACTION      an "action" block's body (raw kept) ‹block-open›‹action-kind›\n{"name": |...
//   HEADER      "line" header up to "\n"            ‹message-start›environment na|me=‹action-kind›\n
//   META        "role-metadata-line" metadata       ‹role›get_wea|ther\n```python
//   ACTION_KIND after the open marker of a block whose kind comes from an action-kind marker
//   BETWEEN     after a message end (only when EOS is overridden), waiting for a start marker
//   PAIR        "pair" header: role text up to the header-end marker
//   CONTAINER   inside a "container" block, between its child blocks
//   FIELDS      a header of named fields (Header.Harmony) up to its header-end marker:
//               ROLE[ to=R]‹header-field›CHANNEL[ TYPE]‹header-field›TYPE‹header-end›; parsed
//               there (./harmony-header.ts), it routes the content: reasoning, text, or an
//               action addressed to a tool (its content read by ./syntax/json-arguments.ts)
//   SKIP        after a FIELDS header overflow: everything dropped until a message start
//   OPEN_TEXT   after a reserved open marker whose block has openText: that text, not yet all
//               read                                 ‹<|channel>›thou|ght\n
//
// Structure comes from reserved IDs (classes resolved in ./spec.ts); decoded text is matched
// against marker strings only where the grammar says so: its text markers (Grammar.textMarkers,
// ./text-markers.ts: found where their move is valid, before the newline rules and stop
// strings: markedText), a block's openText, and the plainTextToolCall (a call written as plain
// JSON text, docs/decoder.md), read only when the caller passed the request's tools. Text
// between two reserved IDs is a span: the deltas of a span concatenate to the reference
// one-shot decode of its IDs.
import { type ActionCall, type ActionResult, NO_KIND_ERROR } from "./action-parse.ts";
import type { DecoderErrorCode, DecoderHandler, MessageHeader, StopInfo, StopReason } from "./events.ts";
import {
  byteSplitsOf,
  flatText,
  joinedText,
  jsonPlainness,
  jsonPlainOf,
  type NlAllCut,
  nl2TextOf,
  nlAllCutOf,
  nlCutOf,
  nlTextOf,
  PLAIN_UNKNOWN,
  PLAIN_YES,
  plainTextOf,
} from "./fast-tables.ts";
import { type CoreHandler, coreHandler } from "./handler.ts";
import { CHANNELS, P_CHANNEL, P_CONSTRAIN, P_HEAD, parseHarmonyHeader } from "./harmony-header.ts";
import { SLOW_PATH_ONLY } from "./internal.ts";
import { quote40 } from "./model-text.ts";
import { newlines, trailingNewlines } from "./newlines.ts";
import { checkPush } from "./push-guard.ts";
import {
  bodyParserOptions,
  Cls,
  type CompiledBlock,
  type CompiledGrammar,
  classOf,
  type DecoderSpec,
  Emits,
  Header,
  HeaderField,
  Nl,
} from "./spec.ts";
import {
  AFTER_NEWLINE,
  checkStopStrings,
  compileStopStrings,
  type DerivedText,
  StopMatcher,
  StopStrings,
  WITHOUT_NEWLINE,
  WITHOUT_NEWLINES,
} from "./stop-matcher.ts";
import type { BodyParser, ToolSchemas } from "./syntax/body.ts";
import { JsonArgumentsParser } from "./syntax/json-arguments.ts";
import type { CompiledTextMarker, CompiledTextMarkers, TextMarkerSet } from "./text-markers.ts";
import type { ToolCallSink } from "./tool-call-scanner.ts";
import { toolCallSink } from "./tool-call-stream.ts";
import { toolSchemas } from "./tool-schemas.ts";
import type { Decoder, DecoderOptions } from "./types.ts";
import { type ByteSplit, byteSplitOf, Utf8Pending } from "./utf8-pending.ts";

const S_CONTENT = 0;
const S_REASONING = 1;
const S_ACTION = 2;
const S_HEADER = 3;
const S_META = 4;
const S_ACTION_KIND = 5;
const S_BETWEEN = 6;
const S_PAIR = 7;
const S_CONTAINER = 8;
const S_FIELDS = 9;
const S_SKIP = 10;
const S_OPEN_TEXT = 11;

/** Most parts (field markers + 1) of a FIELDS header. */
const MAX_HEADER_PARTS = 64;

/** How trailing "\n" of a text state is held back (the grammar's newline rules). */
const NL_NONE = 0;
/** Hold ONE trailing "\n" (a block's beforeOpen "one": the template's "\n" before it). */
const NL_ONE = 1;
/** Hold every trailing "\n" (beforeClose "all": the template strips them). */
const NL_ALL = 2;
/** Right after a block with afterClose "one-before-end": one "\n" before the message end. */
const NL_AFTER_ACTION = 3;

/** How many held "\n" a span end drops (the ones the template wrote), see closeSpan. Same numbers as Nl. */
const DROP_NONE = 0;
const DROP_ONE = 1;
const DROP_ALL = 2;

/** JSON whitespace (what may precede a plain-text call's "{"). */
function isJsonWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Bits of StreamDecoder.slow: why the per-token fast path cannot be taken right now. */
const SLOW_NOT_BEGUN = 1;
const SLOW_STATE = 2;
const SLOW_UTF8 = 4;
const SLOW_AT_START = 8;
const SLOW_HELD_NL = 16;
/** Leading text is being dropped (lstrip / a dropAfter prefix) or read (plain-text call). */
const SLOW_LEAD = 32;
const SLOW_AFTER_ACTION = 64;
const SLOW_STOPPED = 128;
const SLOW_CALLER_STOPS = 256;
/** Internal test mode (./internal.ts SLOW_PATH_ONLY): never the fast path. */
const SLOW_FORCED = 512;
/** Text markers are valid in the current state: every text piece is scanned (markedText). */
const SLOW_MARKERS = 1024;

/** StreamDecoder.fast (see there). */
const FAST_OFF = 0;
const FAST_CONTENT = 1;
const FAST_REASONING = 2;
const FAST_FILTERED = 3;
const FAST_ACTION = 4;

const NO_CALLER_STOPS: ReadonlySet<number> = new Set();

/** The handler's per-token callbacks. */
type TextCallbacks = Pick<CoreHandler, "onText" | "onReasoning" | "onActionText">;

function hasTextCallbacks(h: DecoderHandler): h is DecoderHandler & TextCallbacks {
  return (
    typeof h.onText === "function" &&
    typeof h.onReasoning === "function" &&
    typeof h.onActionText === "function"
  );
}

/**
 * One stream. A class with prototype methods and every field set in the constructor (one
 * hidden class, small-integer fields). Measured (bench --quick, headline fixture): the closure
 * version made ~31 closures per stream, 10.9 KB and 23.6 µs per createDecoder() (38 µs with 2
 * stop strings) and read every captured `let` through a context slot per token; this one is
 * ~575 B and ~150 ns (~180 ns with 2 stop strings).
 */
export class StreamDecoder implements Decoder {
  // ---- per spec / options (never change) ----
  /** The caller's handler, or one wrapper class when it lacks callbacks (./handler.ts). */
  private readonly h: CoreHandler;
  /**
   * Where the per-token text goes (onText, onReasoning, onActionText): the caller's own object
   * when it has all three, even if `h` is the wrapper (a handler without, say, onStop), so the
   * per-token call is a direct call the JIT can inline, not one more through the wrapper.
   */
  private readonly ht: TextCallbacks;
  private readonly spec: DecoderSpec;
  private readonly g: CompiledGrammar;
  private readonly classes: Uint8Array;
  private readonly textOf: readonly string[];
  /**
   * The fast path's table: the spec's plain-text table (plainTextOf), or with stop strings the
   * set's clearText() (only IDs whose text cannot start a stop string) once the set has one;
   * filled by textNlPush.
   */
  private readonly plainText: (string | undefined)[];
  /** plainTextOf(spec): the flat copies (the same array as plainText without stop strings). */
  private readonly specPlain: (string | undefined)[];
  /** nlTextOf(spec), once a newline rule needed it. */
  private nlText: (string | undefined)[] | null = null;
  /** nl2TextOf(spec), once a paragraph break was held. */
  private nl2Text: (string | undefined)[] | null = null;
  /** nlCutOf(spec), once a newline rule needed it. */
  private nlCut: (string | undefined)[] | null = null;
  /** nlAllCutOf(spec), once the NL_ALL rule needed it. */
  private nlAll: NlAllCut | null = null;
  /** byteSplitsOf(spec), once a byte piece came. */
  private splits: (ByteSplit | null | undefined)[] | null = null;
  private readonly spanStarts: boolean;
  // When the start state of a span ends (DecodeTable.startEnds, matching the reference):
  // Text ends it unless it printed nothing under "first-visible"; Bytes always end it (they
  // always print); Control ends it only under "first-piece".
  private readonly firstPiece: boolean;
  private readonly firstVisible: boolean;
  private readonly maxBuffered: number;
  private readonly maxTokens: number;
  /** maxTokens was given: pushes are counted, so the uncounted fast modes are never set. */
  private readonly counted: boolean;
  /**
   * The uncounted fast modes are never set: pushes are counted, or stop strings are checked
   * per token because plainText is the spec's table (the set's first decoder, clearText()).
   */
  private readonly filtered: boolean;
  /**
   * No maxTokens: pushes are not counted, so the newline rules' common cases (leanNewline,
   * afterHeldNewlines) skip the generic layers (their text still goes through emitText: the
   * stop matcher, if any).
   */
  private readonly lean: boolean;
  private readonly includeStop: boolean;
  /** Caller stop IDs (empty: then SLOW_CALLER_STOPS is never set). */
  private readonly callerStops: ReadonlySet<number>;
  /** Null without stop strings. */
  private readonly matcher: StopMatcher | null;
  /** Where body parsers stream tool calls; null unless streamToolCalls. */
  private readonly sink: ToolCallSink | null;
  private readonly tools: ToolSchemas | undefined;
  /** The grammar's plainTextToolCall is read (tools were given). */
  private readonly plainCalls: boolean;
  /** SLOW_FORCED or 0. */
  private readonly forced: number;
  /** One parser per body syntax of the grammar, made at its first use (null until an action). */
  private parsers: (BodyParser | undefined)[] | null = null;
  /** The spec's text markers (null: the grammar has none, and no text is scanned for them). */
  private readonly tm: CompiledTextMarkers | null;

  // ---- per-stream state (all reset by reset()) ----
  private readonly utf: Utf8Pending;
  private state = S_CONTENT;
  private begun = false;
  private isStopped = false;
  private ended = false;
  /** Pushes left before "max_tokens" (maxTokens, counting down; negative: no limit). */
  private left = -1;
  /** Nonzero when the per-token fast path must not be taken (SLOW_* bits, see computeSlow). */
  private slow = SLOW_NOT_BEGUN;
  /**
   * What the fast path does with an ID of its table, derived from `slow`, the state and the
   * stop matcher by setSlow() (the only writer of both): FAST_OFF (slow != 0), FAST_CONTENT /
   * FAST_REASONING (straight to onText / onReasoning, uncounted: no maxTokens, and no stop
   * strings or nothing held by the matcher, the table then having only IDs that cannot start
   * one), FAST_ACTION (the same for an action's text, whose body parser reads chunks with
   * feed(): every syntax but a list of calls, whose cuts end actions), FAST_FILTERED (the
   * matcher holds a prefix, or maxTokens counts).
   * State and matcher changes only happen where setSlow() runs after them (the slow paths,
   * and the FAST_FILTERED branch of pushOther()).
   */
  private fast = FAST_OFF;
  private atStart = false;
  private heldNl = 0;
  private lstrip = false;
  /** A prefix still to drop from the next text (dropAfter, afterOpen/afterClose "one"), at dropPos; -1: none. */
  private dropStr = "";
  private dropPos = -1;
  /** The next content may be a plain-text tool call; its leading whitespace so far. */
  private plainPending = false;
  private plainWs = "";
  private nlMode = NL_NONE;
  private role = "assistant";
  /** Open block (index into g.blocks), -1: none; the open container block, -1: none. */
  private block = -1;
  private container = -1;
  /** HEADER / META / PAIR text. */
  private line = "";
  private headerName = "";
  private actionKind = "";
  /** Body index of the open action (g.bodies), -1: no kind marker came. */
  private actionBody = -1;
  private parser: BodyParser | null = null;
  /** The open action's parser reads chunks (BodyParser.readsText); false: only raw at its end. */
  private parserReads = false;
  /** The open action's parser when it takes JSON-plain pieces whole (BodyParser.feedPlain), else null. */
  private plainFeeder: BodyParser | null = null;
  /** jsonPlainOf(spec), once a parser with feedPlain opened. */
  private jsonPlain: Uint8Array | null = null;
  /** The open action's parser cuts a list of calls (BodyParser.feedCall). */
  private callList = false;
  /**
   * The parser's defersPlain as read after it last took text (or a separator, or opened): it
   * changes only then, and reading it per token would be a getter call on one of several
   * parser classes.
   */
  private defers = false;
  /**
   * Action text so far, but for `run`: a string grown per chunk, i.e. a rope that V8 makes flat
   * only when someone reads its text (the consumer of action_end.raw, or a parser that reads
   * it at the close), so an action costs one concatenation per token and no copy.
   */
  private raw = "";
  /**
   * JSON-plain pieces deferred while the parser defersPlain: the raw text's tail, and ONE
   * feedPlain() for the parser when anything else comes (flushRun): the same rope node.
   */
  private run = "";
  /** Units of the action text (raw and run) counted against maxBufferedChars. */
  private rawChars = 0;
  private rawOverflow = false;
  /** FIELDS header: its parts (P_* kinds and texts), their total length, the role the prompt preset. */
  private fieldKinds: number[] = [];
  private fieldTexts: string[] = [];
  private fieldChars = 0;
  private presetRole: string | undefined = undefined;
  /** FIELDS headers: text outside a message was reported in this stretch (once per stretch). */
  private outsideReported = false;
  /** FIELDS headers: the body of a message addressed to a tool (made at first use). */
  private toolArgs: JsonArgumentsParser | null = null;
  /** The state of the current place's text-marker automaton (markerSet()): 0, nothing held. */
  private tmState = 0;
  /** OPEN_TEXT: units of the block's openText read; the reserved open marker's ID. */
  private openPos = 0;
  private openId = -1;

  constructor(spec: DecoderSpec, handler: DecoderHandler, options: DecoderOptions) {
    this.spec = spec;
    this.g = spec.grammar;
    this.tm = spec.textMarkers;
    this.classes = spec.classes;
    this.textOf = spec.text;
    this.specPlain = plainTextOf(spec);
    this.spanStarts = spec.startEnds !== "never";
    this.firstPiece = spec.startEnds === "first-piece";
    this.firstVisible = spec.startEnds === "first-visible";

    const stopStrings = options.stopStrings ?? [];
    let stops: StopStrings | null = null;
    if (stopStrings instanceof StopStrings) {
      // (A compiled set was checked against the limits when it was compiled.)
      if (stopStrings.spec !== spec)
        throw new TypeError("stopStrings were compiled for another decoder spec");
      stops = stopStrings;
    } else if (stopStrings.length > 0) stops = compileStopStrings(spec, stopStrings);
    else checkStopStrings(stopStrings);
    const maxBuffered = options.maxBufferedChars ?? 1_000_000;
    if (!Number.isInteger(maxBuffered) || maxBuffered < 1)
      throw new TypeError("maxBufferedChars must be a positive integer");
    const maxTokens = options.maxTokens ?? -1;
    if (!Number.isInteger(maxTokens) || (options.maxTokens !== undefined && maxTokens < 1)) {
      throw new TypeError("maxTokens must be a positive integer");
    }
    this.maxBuffered = maxBuffered;
    // The handler is the caller's own (or one wrapper when it lacks callbacks): the option
    // streamToolCalls adds no layer in between, it only gives the body parsers a sink.
    this.h = coreHandler(handler);
    this.ht = hasTextCallbacks(handler) ? handler : this.h;
    this.sink = options.streamToolCalls === true ? toolCallSink(this.h) : null;
    const tools = options.tools;
    if (tools !== undefined && !Array.isArray(tools)) throw new TypeError("tools must be an array");
    this.tools = tools === undefined || tools.length === 0 ? undefined : toolSchemas(tools);
    this.plainCalls = this.tools !== undefined && this.g.plainBlock >= 0;
    this.forced =
      (options as { readonly [SLOW_PATH_ONLY]?: boolean })[SLOW_PATH_ONLY] === true ? SLOW_FORCED : 0;
    this.maxTokens = maxTokens;
    this.counted = maxTokens > 0;
    this.left = maxTokens;
    this.includeStop = options.includeStopString === true;
    let callerStops: Set<number> | null = null;
    for (const id of options.stopTokenIds ?? []) {
      if (!Number.isInteger(id)) throw new TypeError(`stop token id ${id} is not an integer`);
      // A format EOS ID stays reason "eos".
      if (!(id >= 0 && id < spec.eos.length && spec.eos[id] === 1)) {
        if (callerStops === null) callerStops = new Set();
        callerStops.add(id);
      }
    }
    this.callerStops = callerStops ?? NO_CALLER_STOPS;
    this.matcher = stops === null ? null : new StopMatcher(stops);
    this.lean = !this.counted;
    const clear = stops === null ? null : stops.clearText();
    this.plainText = clear ?? this.specPlain;
    this.filtered = this.counted || (stops !== null && clear === null);
    this.utf = new Utf8Pending(spec.invalidUtf8);
    this.setSlow(SLOW_NOT_BEGUN | this.forced);
  }

  private setSlow(bits: number): void {
    this.slow = bits;
    this.fast =
      bits !== 0
        ? FAST_OFF
        : this.filtered || (this.matcher !== null && this.matcher.state !== 0)
          ? FAST_FILTERED
          : this.state === S_CONTENT
            ? FAST_CONTENT
            : this.state === S_REASONING
              ? FAST_REASONING
              : this.state === S_ACTION && !this.callList
                ? FAST_ACTION
                : FAST_FILTERED;
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  private computeSlow(): number {
    return (
      (this.begun ? 0 : SLOW_NOT_BEGUN) |
      (this.state > S_ACTION ? SLOW_STATE : 0) |
      (this.utf.held !== 0 ? SLOW_UTF8 : 0) |
      (this.atStart ? SLOW_AT_START : 0) |
      (this.heldNl > 0 ? SLOW_HELD_NL : 0) |
      (this.lstrip || this.dropPos >= 0 || this.plainPending ? SLOW_LEAD : 0) |
      (this.nlMode === NL_AFTER_ACTION ? SLOW_AFTER_ACTION : 0) |
      (this.isStopped || this.ended ? SLOW_STOPPED : 0) |
      (this.callerStops.size > 0 ? SLOW_CALLER_STOPS : 0) |
      (this.tm !== null && this.markerSet() !== null ? SLOW_MARKERS : 0) |
      this.forced
    );
  }

  private error(code: DecoderErrorCode, message: string, token?: number): void {
    this.h.onError(token === undefined ? { code, message } : { code, token, message });
  }

  private begin(): void {
    this.begun = true;
    const g = this.g;
    if (g.header === Header.Harmony) {
      // The prompt ended with the message start and the assistant's role: its fields come first.
      this.fieldsHeader(g.initialRole);
      this.atStart = this.spanStarts;
      return;
    }
    if (g.header === Header.RoleMetadataLine) {
      // The prompt ended with the role marker: the metadata line comes first.
      this.openSegment(g.initialRole);
      return;
    }
    // The prompt ended with the header: content (or the start block) comes first.
    this.h.onMessageStart(g.initialRole, "");
    if (this.spec.startInReasoning) {
      this.openBlock(g.startBlock);
      // The prompt's own text of the block (Grammar.startText): the body's start, not model
      // output, so no stop string reads it.
      if (g.startText !== "") this.h.onReasoning(g.startText);
    } else this.enterMessage(g.initialRole);
    this.atStart = this.spanStarts;
  }

  private enterContent(): void {
    this.state = S_CONTENT;
    this.nlMode = this.g.contentNl;
  }

  /** The content of a new message with role `r` (a plain-text call may start it). */
  private enterMessage(r: string): void {
    this.enterContent();
    this.role = r;
    if (this.plainCalls && r === "assistant") {
      this.plainPending = true;
      this.plainWs = "";
    }
  }

  /** Leading text the template writes after a marker: Nl.All = every "\n", Nl.One = one. */
  private dropLeading(rule: number): void {
    if (rule === Nl.All) this.lstrip = true;
    else if (rule === Nl.One) this.dropPrefix("\n");
  }

  private dropPrefix(s: string): void {
    this.dropStr = s;
    this.dropPos = s === "" ? -1 : 0;
  }

  private openSegment(r: string): void {
    this.state = S_META;
    this.role = r;
    this.line = "";
    this.atStart = this.spanStarts;
  }

  /** Enters block `b` (its open marker, if any, is already handled). */
  private openBlock(b: number): void {
    const blk = this.g.blocks[b] as CompiledBlock;
    this.block = b;
    switch (blk.emits) {
      case Emits.Reasoning:
        this.state = S_REASONING;
        this.nlMode = blk.beforeClose === Nl.None ? NL_NONE : blk.beforeClose === Nl.One ? NL_ONE : NL_ALL;
        this.dropLeading(blk.afterOpen);
        return;
      case Emits.Action:
        if (blk.kindFromMarker) {
          this.state = S_ACTION_KIND;
          return;
        }
        this.startAction(blk.kind, blk.body);
        return;
      default:
        this.state = S_CONTAINER;
        this.container = b;
        this.nlMode = NL_NONE;
    }
  }

  /** Leaves the open (non-container) block: back to its container or to content. */
  private leaveBlock(): void {
    const blk = this.g.blocks[this.block];
    this.block = -1;
    // A child opened at the top level (alsoTopLevel) has no open container to go back to.
    if (blk !== undefined && blk.parent >= 0 && this.container === blk.parent) {
      this.state = S_CONTAINER;
      this.nlMode = NL_NONE;
    } else this.enterContent();
  }

  // ---- output: stop strings, then the handler ----

  private deliver(t: string): void {
    switch (this.state) {
      case S_CONTENT:
        this.ht.onText(t);
        return;
      case S_REASONING:
        this.ht.onReasoning(t);
        return;
      case S_ACTION:
        this.actionText(t);
        return;
    }
  }

  private actionText(t: string): void {
    const p = this.parser;
    if (p !== null && p.feedCall !== undefined) {
      this.callListText(p, t);
      return;
    }
    this.ht.onActionText(t);
    this.actionTail(t);
  }

  /**
   * actionTail for the table text `t` of ID `id` (the fast path), for a JSON reader
   * (BodyParser.feedPlain): a per-spec byte per ID says whether the piece is JSON-plain, so the
   * reader does not scan it again at every token; while the reader defers plain pieces (inside
   * a string, not streamed) the piece only joins `run`, one concatenation and no call.
   */
  private actionPiece(id: number, t: string): void {
    const p = this.plainFeeder;
    if (p === null) {
      this.actionTail(t);
      return;
    }
    const plain = this.jsonPlain as Uint8Array;
    let f = plain[id];
    if (f === PLAIN_UNKNOWN) {
      f = jsonPlainness(t);
      plain[id] = f;
    }
    if (f === PLAIN_YES) {
      if (this.defers && this.deferPlain(t)) return;
      if (this.run !== "") this.flushRun(p);
      (p.feedPlain as (text: string) => void).call(p, t);
    } else {
      if (this.run !== "") this.flushRun(p);
      p.feed(t);
    }
    this.defers = p.defersPlain === true;
    this.keepAction(t);
  }

  /** A JSON-plain chunk joins the deferred run (false: it would pass maxBufferedChars). */
  private deferPlain(t: string): boolean {
    const n = this.rawChars + t.length;
    if (this.rawOverflow || n > this.maxBuffered) return false;
    this.rawChars = n;
    this.run += t;
    return true;
  }

  /**
   * The deferred run (non-empty) to the raw text and, as one chunk, to the parser `p`. Every
   * caller gives `p` more (a chunk, a separator) or ends the action, so `defers` is read after
   * that, not here.
   */
  private flushRun(p: BodyParser): void {
    const r = this.run;
    this.run = "";
    this.raw += r;
    (p.feedPlain as (text: string) => void).call(p, r);
  }

  /**
   * After an action text's event: the parser's chunk (only when it reads chunks; one that does
   * not reads `raw` at the close) and the raw text.
   */
  private actionTail(t: string): void {
    if (this.parserReads) {
      const p = this.parser as BodyParser;
      // A piece with no table entry (a byte piece's characters, an emoji) inside a string.
      if (this.defers && jsonPlainness(t) === PLAIN_YES && this.deferPlain(t)) return;
      if (this.run !== "") this.flushRun(p);
      p.feed(t);
      this.defers = p.defersPlain === true;
    }
    this.keepAction(t);
  }

  /** An action chunk into the raw text (within maxBufferedChars, else keepRaw's error). */
  private keepAction(t: string): void {
    const n = this.rawChars + t.length;
    if (!this.rawOverflow && n <= this.maxBuffered) {
      this.rawChars = n;
      this.raw += t;
    } else this.keepRaw(t);
  }

  /**
   * A body of several calls (BodyParser.feedCall): where the parser says the next call starts,
   * the current action ends and one of the same kind opens, so each call is one action. Each
   * pass reads part of `t` or ends one action: linear in `t`.
   */
  private callListText(p: BodyParser, t: string): void {
    let rest = t;
    for (;;) {
      const n = (p.feedCall as (text: string) => number).call(p, rest);
      const head = n < rest.length ? rest.slice(0, n) : rest;
      if (head !== "") {
        this.ht.onActionText(head);
        this.keepRaw(head);
      }
      if (n >= rest.length) return;
      rest = rest.slice(n);
      const kind = this.actionKind;
      this.finishAction(p);
      this.h.onActionStart(kind);
      this.raw = "";
      this.run = "";
      this.rawChars = 0;
      this.rawOverflow = false;
      p.nextCall?.();
    }
  }

  /** Keeps action text for the action's end (bounded by maxBufferedChars). */
  private keepRaw(t: string): void {
    if (this.rawOverflow) return;
    if (this.rawChars + t.length > this.maxBuffered) {
      this.rawOverflow = true;
      this.error(
        "buffer-overflow",
        `action text longer than maxBufferedChars (${this.maxBuffered}); its call will not be parsed`,
      );
      return;
    }
    this.rawChars += t.length;
    this.raw += t;
  }

  /**
   * Text of an open span after the grammar's newline rules; stop strings are found here.
   * Small on purpose (inlined into its callers): the matcher's work is emitMatched.
   */
  private emitText(t: string): void {
    const m = this.matcher;
    if (m === null) this.deliver(t);
    else this.emitMatched(t, m);
  }

  /** emitText with stop strings. */
  private emitMatched(t: string, m: StopMatcher): void {
    const s0 = m.state;
    let from = 0;
    if (s0 === 0) {
      // Fast path: nothing held and no unit of t can start a stop string -> t goes out as is.
      from = m.automaton.firstCandidate(t, 0);
      if (from === -1) {
        this.deliver(t);
        return;
      }
    }
    const held0 = s0 === 0 ? "" : m.automaton.heldText(s0);
    if (m.feed(t, from)) {
      const p = m.automaton.patterns[m.matched] as string;
      const upto = held0 + t.slice(0, m.matchEnd + 1);
      const before = upto.slice(0, upto.length - p.length);
      m.reset();
      if (before !== "") this.deliver(before);
      if (this.includeStop) this.deliver(p);
      this.finish("stop_string", undefined, p);
      return;
    }
    const keep = m.automaton.depth[m.state] as number;
    if (s0 === 0) {
      if (t.length > keep) this.deliver(keep === 0 ? t : t.slice(0, t.length - keep));
      return;
    }
    // held0 + t minus the `keep` units still held, without building (and flattening) the
    // concatenation: O(token), not O(held) per token while a long stop-string prefix is held.
    const out = held0.length + t.length - keep;
    if (out <= 0) return;
    if (out <= held0.length) this.deliver(held0.slice(0, out));
    else this.deliver(held0 + t.slice(0, out - held0.length));
  }

  /**
   * emitText for a text the newline rules derive from ID `id` (kind `kind`): while the matcher
   * holds nothing, a text the set says passes it unchanged goes out with no scan (what
   * emitMatched would do with it).
   */
  private emitDerived(kind: DerivedText, id: number, t: string): void {
    const m = this.matcher;
    if (m === null || (m.state === 0 && m.automaton.passes(kind, id, t))) this.deliver(t);
    else this.emitMatched(t, m);
  }

  /** Releases the text held for a possible stop string (span end). */
  private flushStopHold(): void {
    const m = this.matcher;
    if (m === null || m.state === 0) return;
    const held = m.automaton.heldText(m.state);
    m.reset();
    this.deliver(held);
  }

  /** Leading-text rules (lstrip, a prefix to drop, a plain-text call), then the newline rules, then stop strings. */
  private shaped(chunk: string): void {
    let t = chunk;
    if (this.lstrip) {
      let i = 0;
      while (i < t.length && t.charCodeAt(i) === 10) i++;
      if (i === t.length) return;
      this.lstrip = false;
      if (i > 0) t = t.slice(i);
    }
    if (this.dropPos >= 0) {
      const d = this.dropStr;
      let p = this.dropPos;
      let i = 0;
      while (i < t.length && p < d.length && t.charCodeAt(i) === d.charCodeAt(p)) {
        i++;
        p++;
      }
      // All of the prefix matched, or the text differs from it: dropping is over.
      this.dropPos = p === d.length || i < t.length ? -1 : p;
      if (i === t.length) return;
      if (i > 0) t = t.slice(i);
    }
    if (this.plainPending) {
      let i = 0;
      while (i < t.length && isJsonWs(t.charCodeAt(i))) i++;
      if (i === t.length) {
        this.plainWs += t;
        if (this.plainWs.length > this.maxBuffered) this.plainOff();
        return;
      }
      this.plainPending = false;
      const ws = this.plainWs;
      this.plainWs = "";
      if (t.charCodeAt(i) === 123) {
        // "{": the message is a tool call written as text (plainTextToolCall, tools given).
        this.block = this.g.plainBlock;
        const blk = this.g.blocks[this.block] as CompiledBlock;
        this.startAction(blk.kind, blk.body);
      }
      if (ws !== "") t = ws + t;
    }
    const nlMode = this.nlMode;
    if (nlMode === NL_NONE) {
      this.emitText(t);
      return;
    }
    // O(chunk) per call: a held run is a COUNT, added to while chunks are all newlines, and
    // built once when text follows it (it used to be rebuilt and rescanned per token: a run
    // of N newline tokens cost O(N^2)).
    const nl = trailingNewlines(t);
    if (nl === t.length) {
      if (nlMode === NL_ONE) {
        // Only the last "\n" can be the template's; the earlier ones are text.
        const out = this.heldNl + nl - 1;
        this.heldNl = 1;
        if (out > 0) this.emitText(newlines(out));
      } else this.heldNl += nl;
      return;
    }
    if (this.heldNl > 0) {
      t = newlines(this.heldNl) + t;
      this.heldNl = 0;
    }
    if (nlMode === NL_AFTER_ACTION) {
      this.nlMode = NL_NONE;
      this.emitText(t);
      return;
    }
    const hold = nlMode === NL_ALL ? nl : nl > 0 ? 1 : 0;
    this.heldNl = hold;
    this.emitText(hold === 0 ? t : t.slice(0, t.length - hold));
  }

  /** The plain-text call is not read any more: held whitespace is content. */
  private plainOff(): void {
    this.plainPending = false;
    const ws = this.plainWs;
    this.plainWs = "";
    if (ws !== "") this.emitText(ws);
  }

  /** Decoded text of the current span: its text markers first (markedText), then by state. */
  private spanText(t: string): void {
    if (this.tm !== null) {
      const set = this.markerSet();
      if (set !== null) {
        this.markedText(t, set);
        return;
      }
    }
    this.stateText(t);
  }

  /** Text of the current span (no text marker in it), routed by state. */
  private stateText(t: string): void {
    switch (this.state) {
      case S_CONTENT:
      case S_REASONING:
      case S_ACTION:
        this.shaped(t);
        return;
      case S_HEADER:
        this.headerText(t);
        return;
      case S_META:
        this.metaText(t);
        return;
      case S_PAIR:
        this.line += t;
        if (this.line.length > this.maxBuffered) this.headerOverflow();
        return;
      case S_ACTION_KIND: {
        const blk = this.g.blocks[this.block] as CompiledBlock;
        this.error("missing-action-kind", blk.missingKind);
        this.startAction("unknown", -1);
        this.spanText(t);
        return;
      }
      case S_OPEN_TEXT:
        this.openTextPart(t);
        return;
      case S_FIELDS:
        this.fieldText(t);
        return;
      case S_SKIP:
        return;
      case S_BETWEEN:
        if (this.g.header === Header.Harmony) {
          // No template text between these messages: any text is reported, once per stretch.
          if (!this.outsideReported) {
            this.outsideReported = true;
            this.error("text-outside-message", `text outside a message: ${quote40(t)}`);
          }
          return;
        }
        // The templates write "\n" after a message end: whitespace here is not content.
        if (/^\s*$/.test(t)) return;
        this.error("text-outside-message", `text outside a message: ${quote40(t)}`);
        return;
      case S_CONTAINER:
        // The templates write "\n" between the blocks of a container.
        if (/^\s*$/.test(t)) return;
        this.error(
          "text-outside-block",
          `text between the blocks of ${JSON.stringify(this.g.blocks[this.container]?.name ?? "")}: ${quote40(t)}`,
        );
        return;
    }
  }

  /** Header text: only the new chunk is searched for "\n" (O(chunk), not O(line)). */
  private headerText(t: string): void {
    const i = t.indexOf("\n");
    if (i === -1) {
      this.line += t;
      if (this.line.length + this.headerName.length > this.maxBuffered) this.headerOverflow();
      return;
    }
    const header = this.line + t.slice(0, i);
    const rest = t.slice(i + 1);
    this.line = "";
    this.openHeader(header);
    // Header and content are one text run of the template: same span, no new start.
    if (rest !== "") this.spanText(rest);
  }

  /** A header (text + name tokens) over maxBufferedChars: what is held becomes content. */
  private headerOverflow(): void {
    const line = this.line;
    this.line = "";
    const name = this.headerName;
    this.headerName = "";
    this.h.onMessageStart("", name);
    this.enterContent();
    if (line !== "") this.spanText(line);
    if (this.isStopped) return;
    this.error("buffer-overflow", `message header longer than maxBufferedChars (${this.maxBuffered})`);
  }

  /** "ROLE[ name=NAME]" (NAME may also come as action-kind marker tokens). */
  private openHeader(header: string): void {
    const sp = header.indexOf(" ");
    const r = sp === -1 ? header : header.slice(0, sp);
    let name = this.headerName;
    if (sp !== -1) {
      const attr = header.slice(sp + 1);
      const value = attr.startsWith("name=") ? attr.slice(5) : attr;
      if (value !== "") name = value + name;
    }
    this.headerName = "";
    this.h.onMessageStart(r, name);
    this.enterMessage(r);
  }

  /** A "pair" header ended (header-end marker, or a stop): ROLE is the text between the markers. */
  private openPair(): void {
    const r = this.line;
    this.line = "";
    this.h.onMessageStart(r, "");
    this.enterMessage(r);
  }

  /** Metadata text: only the new chunk is searched for "\n" (O(chunk), not O(line)). */
  private metaText(t: string): void {
    const i = t.indexOf("\n");
    if (i === -1) {
      this.line += t;
      if (this.line.length > this.maxBuffered) {
        this.metaAsContent();
        // Unless the held text, now content, ended the stream (a stop string): then nothing.
        if (this.isStopped) return;
        this.error("buffer-overflow", `metadata line longer than maxBufferedChars (${this.maxBuffered})`);
      }
      return;
    }
    const metadata = this.line + t.slice(0, i);
    const rest = t.slice(i + 1);
    this.line = "";
    const role = this.role;
    const g = this.g;
    this.h.onMessageStart(role, metadata);
    if (
      metadata !== "" &&
      g.metaActionBlock >= 0 &&
      role === g.metaActionRole &&
      !g.metaContent.has(metadata)
    ) {
      // A metadata-named action: its kind is the metadata (a tool name, or a listed one).
      this.block = g.metaBlockByMetadata.get(metadata) ?? g.metaActionBlock;
      this.startAction(metadata, (g.blocks[this.block] as CompiledBlock).body);
    } else this.enterMessage(role);
    // The content is its own enc() call: a new span with its own start rule.
    this.atStart = this.spanStarts && rest === "";
    if (rest !== "") this.spanText(rest);
  }

  /** A metadata line that never ended: like the vendor's process_response, it was content. */
  private metaAsContent(): void {
    const held = this.line;
    this.line = "";
    this.h.onMessageStart(this.role, "");
    this.enterContent();
    if (held !== "") this.spanText(held);
  }

  /** An action of `kind` starts; `body` indexes g.bodies (-1: no kind marker came). */
  private startAction(kind: string, body: number): void {
    this.h.onActionStart(kind);
    this.state = S_ACTION;
    this.nlMode = NL_NONE;
    this.actionKind = kind;
    this.actionBody = body;
    this.raw = "";
    this.run = "";
    this.rawChars = 0;
    this.rawOverflow = false;
    let p: BodyParser | null = null;
    if (body >= 0) {
      if (this.parsers === null) this.parsers = [];
      p = this.parsers[body] ?? null;
      if (p === null) {
        const create = this.g.bodies[body]?.create ?? null;
        if (create !== null) {
          p = create(bodyParserOptions(this.g.bodies[body], this.maxBuffered));
          this.parsers[body] = p;
        }
      }
      if (p !== null) p.reset(this.sink, this.tools, kind);
    }
    this.useParser(p);
  }

  private useParser(p: BodyParser | null): void {
    this.parser = p;
    this.parserReads = p !== null && (p.readsText === undefined || p.readsText());
    this.plainFeeder = this.parserReads && p?.feedPlain !== undefined && p.feedCall === undefined ? p : null;
    if (this.plainFeeder !== null && this.jsonPlain === null) this.jsonPlain = jsonPlainOf(this.spec);
    this.callList = p !== null && p.feedCall !== undefined;
    this.defers = p !== null && p.defersPlain === true;
  }

  private endAction(): void {
    const p = this.parser;
    this.useParser(null);
    this.finishAction(p);
    this.leaveBlock();
  }

  /** The action_end of the current action (its parser `p`, null without one). */
  private finishAction(p: BodyParser | null): void {
    const kind = this.actionKind;
    if (p !== null && this.run !== "") this.flushRun(p);
    const text = this.raw;
    this.raw = "";
    this.run = "";
    this.rawChars = 0;
    if (this.rawOverflow)
      this.h.onActionEnd({ kind, raw: text, error: "action text exceeded maxBufferedChars" });
    else {
      let r: ActionResult;
      if (p !== null) r = p.end(text);
      else if (this.actionBody < 0) r = { error: NO_KIND_ERROR };
      else r = { error: `no parser for body syntax ${this.g.bodies[this.actionBody]?.syntax ?? "?"}` };
      if ("call" in r) this.h.onActionEnd({ kind, raw: text, call: r.call as ActionCall });
      else this.h.onActionEnd({ kind, raw: text, error: r.error });
    }
  }

  // ---- pieces ----

  private textPiece(id: number): void {
    if (this.utf.held !== 0) {
      const f = this.utf.flush();
      if (f !== "") this.spanText(f);
      if (this.isStopped) return;
    }
    let t: string;
    if (this.atStart) {
      t = this.spec.textAtStart[id] as string;
      if (!this.firstVisible || t !== "") this.atStart = false;
    } else t = this.textOf[id] as string;
    if (t !== "") this.spanText(t);
  }

  private bytesPiece(id: number): void {
    const b = this.spec.bytes[id];
    this.atStart = false;
    if (b === undefined) return;
    // First sight of a byte piece: its split, for knownSplit.
    let sp = this.splits;
    if (sp === null) {
      sp = byteSplitsOf(this.spec);
      this.splits = sp;
    }
    if (sp[id] === undefined) sp[id] = byteSplitOf(b);
    const out = this.utf.feed(b);
    if (out !== "") this.spanText(out);
  }

  private controlPiece(): void {
    if (this.firstPiece) this.atStart = false;
    if (this.spec.controlFlushes && this.utf.held !== 0) {
      const f = this.utf.flush();
      if (f !== "") this.spanText(f);
    }
  }

  /**
   * A reserved ID ends the span: held bytes resolve (U+FFFD if cut), held newlines go out
   * (or are dropped when the template wrote them), held stop-string text goes out.
   */
  private closeSpan(drop: number): void {
    if (this.utf.held !== 0) {
      const f = this.utf.flush();
      if (f !== "") this.spanText(f);
      if (this.isStopped) return;
    }
    if (this.tmState !== 0) {
      this.flushMarkerHold();
      if (this.isStopped) return;
    }
    this.closeText(drop);
    this.atStart = this.spanStarts;
  }

  /**
   * closeSpan at a text marker: held bytes of a partial UTF-8 character stay held (they come
   * after the marker) and the text after it is the same text run (no new span start).
   */
  private closeText(drop: number): void {
    if (this.plainPending) {
      this.plainOff();
      if (this.isStopped) return;
    }
    if (this.heldNl > 0) {
      const n = drop === DROP_ALL ? 0 : drop === DROP_ONE ? this.heldNl - 1 : this.heldNl;
      this.heldNl = 0;
      if (n > 0) this.emitText(newlines(n));
      if (this.isStopped) return;
    }
    this.flushStopHold();
    this.lstrip = false;
    this.dropPos = -1;
  }

  private misplaced(id: number): void {
    if (this.state === S_REASONING && this.g.header !== Header.Harmony) {
      this.markerInReasoning(id);
      return;
    }
    this.closeSpan(DROP_NONE);
    if (this.isStopped) return;
    const name = this.spec.reservedName.get(id) ?? String(id);
    this.error("unexpected-reserved-token", `reserved token ${name} (${id}) is not valid here`, id);
  }

  /**
   * A reserved marker the grammar gives no move inside reasoning (`<tool_call>` while the model
   * thinks about calling a tool, a second `<think>`) is reasoning text, as the peers keep it: its
   * string goes out through the span like any piece, so newline rules and stop strings apply.
   * Only the block's own close marker (and message ends, role markers, stops) leave reasoning.
   */
  private markerInReasoning(id: number): void {
    if (this.utf.held !== 0) {
      const f = this.utf.flush();
      if (f !== "") this.spanText(f);
      if (this.isStopped) return;
    }
    this.atStart = false;
    this.spanText(this.spec.reservedName.get(id) ?? "");
  }

  /** A held header (a stop, or a role marker, came first): it opens its message as it is. */
  private flushHeader(): void {
    if (this.state === S_HEADER) {
      const l = this.line;
      this.line = "";
      this.openHeader(l);
    } else if (this.state === S_PAIR) this.openPair();
  }

  /** A segment ends at a role marker (a text marker: `text`): what is open closes. */
  private closeSegment(text = false): void {
    if (this.state === S_META) this.metaAsContent();
    if (this.isStopped) return;
    this.flushHeader();
    this.endSpanAt(DROP_NONE, text);
    if (this.isStopped) return;
    if (this.state === S_ACTION) this.endAction();
    this.block = -1;
    this.container = -1;
  }

  private marker(cls: number, id: number): void {
    if (this.state === S_OPEN_TEXT) {
      // A marker before the open text was all read: the open marker opened nothing.
      this.openTextFailed("");
      if (this.isStopped) return;
    }
    const state = this.state;
    const g = this.g;
    if (g.header === Header.Harmony) {
      this.fieldsMarker(cls, id);
      return;
    }
    switch (cls) {
      case Cls.MsgEnd:
        if (state === S_ACTION_KIND || state === S_CONTAINER) this.state = S_CONTENT;
        if (this.state > S_ACTION) {
          this.misplaced(id);
          return;
        }
        // After a block with afterClose "one-before-end": the template writes at most ONE
        // "\n" before the message end; more are text.
        this.closeSpan(this.nlMode === NL_AFTER_ACTION ? DROP_ONE : DROP_NONE);
        if (this.isStopped) return;
        if (this.state === S_ACTION) this.endAction();
        this.h.onMessageEnd();
        this.state = S_BETWEEN;
        this.block = -1;
        this.container = -1;
        return;
      case Cls.MsgStart:
        if (state !== S_BETWEEN) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        this.state = g.header === Header.Pair ? S_PAIR : S_HEADER;
        this.line = "";
        this.headerName = "";
        return;
      case Cls.HeaderEnd:
        if (state !== S_PAIR) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        this.openPair();
        this.dropPrefix(g.dropAfter);
        return;
      case Cls.BlockOpen:
        this.blockOpen(this.spec.markerArg.get(id) as number, id, false);
        return;
      case Cls.BlockClose:
        this.blockClose(this.spec.markerArg.get(id) as number, id, false);
        return;
      case Cls.Separator:
        this.separatorMove(this.spec.markerArg.get(id) as number, id, false);
        return;
      case Cls.ActionKind: {
        const k = g.kinds[this.spec.markerArg.get(id) as number];
        if (k === undefined) return;
        if (state === S_HEADER) {
          this.closeSpan(DROP_NONE);
          this.headerName += k.kind;
          // Name tokens count against the cap like header text (a run of them was unbounded).
          if (this.line.length + this.headerName.length > this.maxBuffered) this.headerOverflow();
          return;
        }
        if (state !== S_ACTION_KIND) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        this.startAction(k.kind, k.body);
        return;
      }
      case Cls.Role:
        this.roleMove(this.spec.roleOf.get(id) ?? "assistant", this.spec.eos[id] === 1, false);
        return;
      case Cls.EndOfText:
        if (this.spec.eos[id] !== 1) this.misplaced(id);
        return;
      default:
        this.misplaced(id);
    }
  }

  /**
   * A role marker (reserved, or a text marker: `text`): the segment ends here, and one with role
   * `r` starts unless the marker is an EOS ID.
   */
  private roleMove(r: string, eos: boolean, text: boolean): void {
    if (this.state === S_BETWEEN) this.endSpanAt(DROP_NONE, text);
    else {
      this.closeSegment(text);
      if (this.isStopped) return;
      this.h.onMessageEnd();
    }
    // An EOS role marker stops here: no new segment opens.
    if (eos) this.state = S_BETWEEN;
    else if (this.g.header === Header.RoleMetadataLine) this.openSegment(r);
    else {
      this.h.onMessageStart(r, "");
      this.enterMessage(r);
      this.atStart = this.spanStarts;
    }
  }

  /** The span ends at a marker: a reserved one (closeSpan) or a text marker (closeText). */
  private endSpanAt(drop: number, text: boolean): void {
    if (text) this.closeText(drop);
    else this.closeSpan(drop);
  }

  /** Block `b`'s open marker (reserved ID `id`, or a text marker: `text`). */
  private blockOpen(b: number, id: number, text: boolean): void {
    const state = this.state;
    const blk = this.g.blocks[b] as CompiledBlock;
    if (state === S_REASONING && blk.endsReasoning && (blk.parent < 0 || blk.alsoTopLevel)) {
      // The reasoning ends here as at its close marker; the block opens at the top level.
      const r = this.g.blocks[this.block] as CompiledBlock;
      this.endSpanAt(r.beforeClose === Nl.OneBeforeEnd ? DROP_NONE : r.beforeClose, text);
      if (this.isStopped) return;
      this.leaveBlock();
      this.blockOpen(b, id, text);
      return;
    }
    const topLevel = blk.parent < 0 || (blk.alsoTopLevel && state === S_CONTENT);
    if (state === S_ACTION && this.block === b && blk.reopens) {
      // The next call of a block without a close marker: this one ends here.
      this.endSpanAt(DROP_NONE, text);
      if (this.isStopped) return;
      this.endAction();
    } else if (topLevel ? state !== S_CONTENT : state !== S_CONTAINER || this.container !== blk.parent) {
      this.misplaced(id);
      return;
    } else {
      this.endSpanAt(blk.beforeOpen, text);
      if (this.isStopped) return;
    }
    if (text || blk.openText === "") this.openBlock(b);
    else {
      // The block opens once its open text follows (openTextPart).
      this.state = S_OPEN_TEXT;
      this.block = b;
      this.openPos = 0;
      this.openId = id;
    }
  }

  /** Block `b`'s close marker (reserved ID `id`, or a text marker: `text`). */
  private blockClose(b: number, id: number, text: boolean): void {
    const state = this.state;
    const blk = this.g.blocks[b] as CompiledBlock;
    if ((state === S_REASONING || state === S_ACTION) && this.block === b) {
      this.endSpanAt(blk.beforeClose === Nl.OneBeforeEnd ? DROP_NONE : blk.beforeClose, text);
      if (this.isStopped) return;
      if (state === S_ACTION) this.endAction();
      else this.leaveBlock();
    } else if (state === S_CONTAINER && this.container === b) {
      this.endSpanAt(DROP_NONE, text);
      if (this.isStopped) return;
      this.container = -1;
      this.enterContent();
    } else {
      this.misplaced(id);
      return;
    }
    if (blk.afterClose === Nl.OneBeforeEnd) this.nlMode = NL_AFTER_ACTION;
    else this.dropLeading(blk.afterClose);
  }

  /** A separator of block `b` (reserved ID `id`, or a text marker: `text`): to the body parser. */
  private separatorMove(b: number, id: number, text: boolean): void {
    if (this.state !== S_ACTION || this.block !== b) {
      this.misplaced(id);
      return;
    }
    this.endSpanAt(DROP_NONE, text);
    if (this.isStopped) return;
    const p = this.parser;
    if (p === null) return;
    if (this.run !== "") this.flushRun(p);
    p.separator();
    this.defers = p.defersPlain === true;
  }

  // ---- text markers and open text ----

  /** The text markers valid where the decoder is (./text-markers.ts), null: none. */
  private markerSet(): TextMarkerSet | null {
    const tm = this.tm;
    if (tm === null) return null;
    switch (this.state) {
      case S_CONTENT:
        return tm.content;
      case S_REASONING:
      case S_ACTION:
        return this.block >= 0 ? (tm.inBlock[this.block] ?? null) : null;
      case S_CONTAINER:
        return tm.inBlock[this.container] ?? null;
      default:
        return null;
    }
  }

  /**
   * Span text where text markers are valid (`set`): the text that cannot be part of one goes
   * on by state (stateText: newline rules, stop strings, the handler), a marker makes its move,
   * and a tail that may still become one is held (tmState; at most the longest marker). The held
   * text is scanned once: this chunk's units are stepped from the held state. A marker is found
   * before the newline rules and stop strings see its text, so stop strings never match into it.
   *
   *   content  Hello <func|tion=get_weather>…    "Hello " out, "<func" held, then the move
   */
  private markedText(t: string, set: TextMarkerSet): void {
    let a = set;
    let s = this.tmState;
    this.tmState = 0;
    const held = s === 0 ? "" : a.heldText(s);
    const buf = held === "" ? t : held + t;
    let from = 0;
    for (let i = held.length; i < buf.length; i++) {
      s = a.next(s, buf.charCodeAt(i));
      const m = a.match[s] as number;
      if (m < 0) continue;
      const mk = a.markers[m] as CompiledTextMarker;
      const at = i + 1 - mk.text.length;
      if (at > from) {
        this.stateText(buf.slice(from, at));
        if (this.isStopped) return;
        // That text changed where the decoder is (a plain-text call began): the rest, marker
        // included, is read there.
        if (this.markerSet() !== a) {
          this.spanText(buf.slice(at));
          return;
        }
      }
      this.textMarker(mk);
      if (this.isStopped) return;
      from = i + 1;
      const next = this.markerSet();
      if (next === null) {
        if (from < buf.length) this.spanText(buf.slice(from));
        return;
      }
      a = next;
      s = 0;
    }
    const end = buf.length - (a.depth[s] as number);
    if (end > from) {
      this.stateText(buf.slice(from, end));
      if (this.isStopped) return;
      if (this.markerSet() !== a) {
        if (end < buf.length) this.spanText(buf.slice(end));
        return;
      }
    }
    this.tmState = s;
  }

  /** A text marker's move (valid where it was found: markedText only looks for those). */
  private textMarker(mk: CompiledTextMarker): void {
    if (mk.cls === Cls.BlockOpen) this.blockOpen(mk.block, -1, true);
    else if (mk.cls === Cls.BlockClose) this.blockClose(mk.block, -1, true);
    else if (mk.cls === Cls.Role) this.roleMove(mk.role, false, true);
    else this.separatorMove(mk.block, -1, true);
  }

  /** The held start of a possible text marker is text after all (a span ends). */
  private flushMarkerHold(): void {
    const set = this.markerSet();
    const s = this.tmState;
    this.tmState = 0;
    if (set !== null) this.stateText(set.heldText(s));
  }

  /**
   * OPEN_TEXT: text after a reserved open marker, compared with its block's openText; all of it
   * opens the block (the rest is its body), other text means the marker opened nothing.
   *
   *   ‹<|channel>›thou|ght\nLet me see    "thou" read, "ght\n" completes it, "Let me see" reasoning
   */
  private openTextPart(t: string): void {
    const want = (this.g.blocks[this.block] as CompiledBlock).openText;
    let p = this.openPos;
    let i = 0;
    while (i < t.length && p < want.length && t.charCodeAt(i) === want.charCodeAt(p)) {
      i++;
      p++;
    }
    this.openPos = p;
    if (p === want.length) {
      this.openPos = 0;
      this.openBlock(this.block);
      if (i < t.length) this.spanText(t.slice(i));
    } else if (i < t.length) this.openTextFailed(t.slice(i));
  }

  /**
   * The open marker was not followed by its open text (other text, a marker or the end came): an
   * "unexpected-reserved-token" error, and the text read after it is text where the marker was.
   */
  private openTextFailed(rest: string): void {
    const b = this.block;
    const blk = this.g.blocks[b] as CompiledBlock;
    const read = blk.openText.slice(0, this.openPos);
    this.openPos = 0;
    this.block = -1;
    if (blk.parent >= 0) {
      this.state = S_CONTAINER;
      this.nlMode = NL_NONE;
    } else this.enterContent();
    const id = this.openId;
    const name = this.spec.reservedName.get(id) ?? String(id);
    this.error(
      "unexpected-reserved-token",
      `reserved token ${name} (${id}) is not valid here: it is not followed by ${quote40(blk.openText)}`,
      id,
    );
    const text = read + rest;
    if (text !== "") this.spanText(text);
  }

  // ---- FIELDS headers (Header.Harmony) ----

  /** A new FIELDS header; `preset`: the role the prompt already wrote (undefined: none). */
  private fieldsHeader(preset: string | undefined): void {
    this.state = S_FIELDS;
    this.presetRole = preset;
    this.fieldKinds = [P_HEAD];
    this.fieldTexts = [""];
    this.fieldChars = 0;
  }

  /** Whether the FIELDS header has any field marker or text yet. */
  private fieldsBegun(): boolean {
    return this.fieldKinds.length > 1 || (this.fieldTexts[0] ?? "") !== "";
  }

  /** FIELDS header text: appended to the current part, the total bounded by maxBufferedChars. */
  private fieldText(t: string): void {
    this.fieldChars += t.length;
    if (this.fieldChars > this.maxBuffered) {
      this.error("buffer-overflow", `message header longer than maxBufferedChars (${this.maxBuffered})`);
      this.state = S_SKIP;
      return;
    }
    const k = this.fieldTexts.length - 1;
    this.fieldTexts[k] += t;
  }

  /** The message of a FIELDS header opens: its start event, then content routed by the fields. */
  private openFields(): void {
    const p = parseHarmonyHeader(this.fieldKinds, this.fieldTexts, this.presetRole);
    this.fieldKinds = [];
    this.fieldTexts = [];
    if (p.problems.length > 0) this.error("invalid-header", `harmony header: ${p.problems.join("; ")}`);
    const hd = p.header;
    const header: MessageHeader = {
      ...(hd.channel === undefined ? {} : { channel: hd.channel }),
      ...(hd.recipient === undefined ? {} : { recipient: hd.recipient }),
      ...(hd.contentType === undefined ? {} : { contentType: hd.contentType }),
    };
    const role = p.role === "tool" && p.name !== undefined ? p.name : p.role;
    this.role = role;
    this.block = -1;
    this.h.onMessageStart(role, hd.recipient ?? "", header);
    if (hd.channel !== undefined && !CHANNELS.has(hd.channel))
      this.error("unknown-channel", `unknown channel ${quote40(hd.channel)}; its content is text`);
    const r = hd.recipient;
    if (p.role === "assistant" && r !== undefined && r !== "all" && r !== "assistant") {
      // Addressed to a tool: a function ("functions.NAME") is a streamed tool call; any
      // other recipient (a built-in tool) an action of that kind.
      const fn = r.startsWith("functions.");
      const kind = fn ? "tool_call" : r;
      this.h.onActionStart(kind);
      this.state = S_ACTION;
      this.nlMode = NL_NONE;
      this.actionKind = kind;
      this.actionBody = -1;
      this.raw = "";
      this.run = "";
      this.rawChars = 0;
      this.rawOverflow = false;
      // The content is the call's arguments, read as json-arguments reads them (name from the header).
      const parser = this.toolArgs ?? new JsonArgumentsParser(this.maxBuffered);
      this.toolArgs = parser;
      parser.reset(fn ? this.sink : null, fn ? this.tools : undefined, fn ? r.slice(10) : r);
      this.useParser(parser);
    } else if (p.role === "assistant" && hd.channel === "analysis") {
      this.state = S_REASONING;
      this.nlMode = NL_NONE;
    } else this.enterContent();
  }

  /** The open message ends (its action first). */
  private closeFieldsMessage(): void {
    if (this.state === S_ACTION) this.endAction();
    this.h.onMessageEnd();
  }

  /** A reserved ID under a FIELDS header syntax (class `cls`: its move, or misplaced). */
  private fieldsMarker(cls: number, id: number): void {
    this.closeSpan(DROP_NONE);
    if (this.isStopped) return;
    const state = this.state;
    const inMessage = state === S_CONTENT || state === S_REASONING || state === S_ACTION;
    if (cls === Cls.MsgStart) {
      // The prompt may or may not end in the message start and role: one before any header
      // text just starts the header over (no preset role).
      const name = this.spec.reservedName.get(id) ?? String(id);
      if (state === S_FIELDS && this.fieldsBegun())
        this.error("invalid-header", `${name} inside a message header`, id);
      else if (inMessage) {
        this.error("unexpected-reserved-token", `${name} before the message ended`, id);
        this.closeFieldsMessage();
      }
      this.outsideReported = false;
      this.fieldsHeader(undefined);
      return;
    }
    if (state === S_FIELDS) {
      if (cls === Cls.HeaderField) {
        if (this.fieldKinds.length >= MAX_HEADER_PARTS) {
          this.error("buffer-overflow", "message header has too many parts");
          this.state = S_SKIP;
          return;
        }
        this.fieldKinds.push(this.spec.markerArg.get(id) === HeaderField.Channel ? P_CHANNEL : P_CONSTRAIN);
        this.fieldTexts.push("");
        return;
      }
      if (cls === Cls.HeaderEnd) {
        this.openFields();
        return;
      }
      if (this.spec.eos[id] === 1) {
        const name = this.spec.reservedName.get(id) ?? String(id);
        this.error("invalid-header", `stop token ${name} inside a message header`, id);
        return;
      }
      this.misplaced(id);
      return;
    }
    if (inMessage) {
      // A message end, or any EOS ID (which then stops).
      if (cls === Cls.MsgEnd || this.spec.eos[id] === 1) {
        this.closeFieldsMessage();
        this.state = S_BETWEEN;
        this.outsideReported = false;
        return;
      }
      this.misplaced(id);
      return;
    }
    // Between messages only a message start (above) or the end of text is expected; after a
    // header overflow everything up to the next message start is dropped.
    if (state === S_BETWEEN && cls !== Cls.EndOfText) this.misplaced(id);
  }

  private finish(reason: StopReason, token?: number, text?: string): void {
    if (this.isStopped) return;
    if (this.state === S_OPEN_TEXT) {
      this.openTextFailed("");
      if (this.isStopped) return;
    }
    if (reason !== "stop_string") {
      if (this.state === S_META) this.metaAsContent();
      if (this.isStopped) return;
      this.flushHeader();
      this.closeSpan(DROP_NONE);
      if (this.isStopped) return;
    }
    if (this.state === S_FIELDS && reason !== "eos" && this.fieldsBegun())
      this.error("invalid-header", "the stream ended inside a message header");
    this.isStopped = true;
    this.setSlow(this.slow | SLOW_STOPPED);
    if (this.state === S_ACTION) this.endAction();
    const info: StopInfo =
      token !== undefined ? { reason, token } : text !== undefined ? { reason, text } : { reason };
    this.h.onStop(info);
  }

  private slowPush(id: number, cls: number): void {
    if (!this.begun) this.begin();
    if (this.callerStops.has(id)) {
      // A caller stop ID: its structural effect first (a marker still closes its block),
      // its text is not emitted.
      if (cls >= Cls.MsgStart) this.marker(cls, id);
      this.finish("stop_token", id);
      return;
    }
    switch (cls) {
      case Cls.Text:
      case Cls.TextNl:
        this.textPiece(id);
        return;
      case Cls.Bytes:
        this.bytesPiece(id);
        return;
      case Cls.Control:
        this.controlPiece();
        return;
      case Cls.OutOfRange:
        this.error("unknown-token", `token id ${id} is outside the vocabulary`, id);
        return;
      case Cls.EosPlain:
        this.finish("eos", id);
        return;
      default:
        this.marker(cls, id);
        if (this.spec.eos[id] === 1) this.finish("eos", id);
    }
  }

  push(id: number): void {
    // One load decides the common case: the ID's complete text if it is plain text (class
    // Text, non-empty; filled at its first sight, see plainTextOf), else undefined (every
    // other class, and IDs outside the table: negative, non-integer and too large ones read
    // undefined and take the checked path). The typeof test keeps a numeric string ("5",
    // which an array would index like 5) off the fast path: it throws there like everywhere.
    const t = typeof id === "number" ? this.plainText[id] : undefined;
    // Fast path (docs/decoder.md "Fast path"): plain text in an open content, reasoning or
    // action span with nothing held (no partial UTF-8, no span start, no held newline, no
    // leading-text rule, no stop-string prefix), no caller stop IDs, no maxTokens, not
    // stopped: the precomputed string goes straight to the handler. Nothing is counted here
    // (`left` only matters with maxTokens, whose decoders never take these modes). Every
    // other case is one call, so push() stays small enough to inline into a caller's loop.
    if (t !== undefined) {
      const f = this.fast;
      if (f === FAST_CONTENT) {
        this.ht.onText(t);
        return;
      }
      if (f === FAST_REASONING) {
        this.ht.onReasoning(t);
        return;
      }
      if (f === FAST_ACTION) {
        this.ht.onActionText(t);
        this.actionPiece(id, t);
        return;
      }
    } else if (this.knownSplit(id)) return;
    this.pushOther(id, t);
  }

  /**
   * A byte piece seen before, in an open text span with at most held bytes and newlines: its
   * split (splitPiece; true: done). Tried before pushOther, whose size would keep it a call.
   */
  private knownSplit(id: number): boolean {
    const sp = this.splits;
    if (sp === null || (this.slow & ~(SLOW_UTF8 | SLOW_HELD_NL)) !== 0 || typeof id !== "number")
      return false;
    const p = sp[id];
    return p !== undefined && p !== null && this.splitPiece(p);
  }

  /** push() of everything but the two uncounted fast modes; `t` is push()'s table read. */
  private pushOther(id: number, t: string | undefined): void {
    if (t !== undefined) {
      if (this.fast === FAST_FILTERED) {
        const m = this.matcher;
        // With stop strings: a byte per ID says whether its text can start one (computed
        // once per ID and stop set), so most tokens skip the per-character scan.
        if (m === null || (m.state === 0 && !m.automaton.mayStart(id))) {
          const state = this.state;
          if (state === S_CONTENT) this.ht.onText(t);
          else if (state === S_REASONING) this.ht.onReasoning(t);
          else if (this.callList) this.actionText(t);
          else {
            this.ht.onActionText(t);
            this.actionPiece(id, t);
          }
        } else this.emitText(t);
        // The stop matcher's state decides the mode too.
        if (m !== null) this.setSlow(this.slow);
        if (--this.left === 0) this.finish("max_tokens");
        return;
      }
      // Plain text right after a held newline run (about 1 token in 25 in the mixed 8k
      // fixture): the run goes out in front of it.
      if (this.slow === SLOW_HELD_NL) {
        this.afterHeldNewlines(id, t);
        return;
      }
      // Where text markers are valid and nothing is held: a piece with no unit a marker starts
      // with cannot begin one, so it is text of the state as it is (what checkedPush ->
      // markedText do with it, without the scan; a byte per ID and place says which pieces).
      if (this.slow === SLOW_MARKERS && this.tmState === 0 && this.state <= S_ACTION) {
        const set = this.markerSet();
        if (set?.clearOf(id, t, this.classes.length) === true) {
          this.left--;
          this.stateText(t);
          this.setSlow(this.computeSlow());
          if (this.left === 0 && !this.isStopped) this.finish("max_tokens");
          return;
        }
      }
    } else if (typeof id === "number") {
      const slow = this.slow;
      // A newline-ending piece seen before (an entry in the rule's cut table: class TextNl)
      // with only SLOW_HELD_NL or nothing set: what textNlPush -> leanNewline do, from the
      // table (no class table, no text table, no scan for the trailing newlines).
      if (this.lean && (slow === 0 || slow === SLOW_HELD_NL)) {
        const mode = this.nlMode;
        const nc = this.nlCut;
        const na = this.nlAll;
        if (mode === NL_ONE && nc !== null) {
          const cut = nc[id];
          if (cut !== undefined) {
            this.oneNewlineCut(id, cut);
            return;
          }
        } else if (mode === NL_ALL && na !== null) {
          const cut = na.cut[id];
          if (cut !== undefined) {
            this.allNewlineCut(id, cut, na.count[id] as number);
            return;
          }
        }
      }
    }
    const slow = this.slow;
    if (slow === 0 || slow === SLOW_HELD_NL) this.textNlPush(id);
    else this.checkedPush(id);
  }

  /**
   * What checkedPush -> bytesPiece do for a byte piece whose bytes, with the held ones, are
   * valid UTF-8 (Utf8Pending.feedSplit; false: they are not, nothing changed): the completed
   * text through shaped() (only the newline rules and stop strings apply here: `slow` holds
   * at most SLOW_UTF8 and SLOW_HELD_NL), held bytes kept for the next piece.
   */
  private splitPiece(p: ByteSplit): boolean {
    const out = this.utf.feedSplit(p);
    if (out === undefined) return false;
    // Nothing held and no trailing "\n": the newline rules keep it as it is (shaped()).
    if (out !== "") {
      if (this.heldNl === 0 && !p.midEndsNl) this.emitText(out);
      else this.shaped(out);
    }
    this.setSlow(
      (this.slow & ~(SLOW_UTF8 | SLOW_HELD_NL)) |
        (this.utf.held !== 0 ? SLOW_UTF8 : 0) |
        (this.heldNl > 0 ? SLOW_HELD_NL : 0),
    );
    if (--this.left === 0) this.finish("max_tokens");
    return true;
  }

  /** The spec's nlTextOf table, kept on the decoder at its first use. */
  private makeNlText(): (string | undefined)[] {
    const n = nlTextOf(this.spec);
    this.nlText = n;
    return n;
  }

  /** The spec's nl2TextOf table, kept on the decoder at its first use. */
  private makeNl2Text(): (string | undefined)[] {
    const n = nl2TextOf(this.spec);
    this.nl2Text = n;
    return n;
  }

  /** "\n" + t for class Text ID `id` (text t), flat, from the spec's nlTextOf table. */
  private afterOneNewline(id: number, t: string): string {
    return joinedText(this.nlText ?? this.makeNlText(), id, "\n", t);
  }

  /** "\n\n" + t for class Text ID `id` (text t), flat, from the spec's nl2TextOf table. */
  private afterTwoNewlines(id: number, t: string): string {
    return joinedText(this.nl2Text ?? this.makeNl2Text(), id, "\n\n", t);
  }

  /** t minus its last "\n" for class TextNl ID `id` (text t), flat, from the spec's nlCutOf table. */
  private withoutLastNewline(id: number, t: string): string {
    let nc = this.nlCut;
    if (nc === null) {
      nc = nlCutOf(this.spec);
      this.nlCut = nc;
    }
    let cut = nc[id];
    if (cut === undefined) {
      cut = flatText(t.slice(0, t.length - 1));
      nc[id] = cut;
    }
    return cut;
  }

  /** t (class TextNl ID `id`) minus its `nl` trailing "\n", flat, from nlAllCutOf (stored when nl <= 255). */
  private withoutTrailingNewlines(id: number, t: string, nl: number): string {
    let na = this.nlAll;
    if (na === null) {
      na = nlAllCutOf(this.spec);
      this.nlAll = na;
    }
    let cut = na.cut[id];
    if (cut === undefined) {
      cut = flatText(t.slice(0, t.length - nl));
      if (nl <= 255) {
        na.cut[id] = cut;
        na.count[id] = nl;
      }
    }
    return cut;
  }

  /**
   * A class TextNl piece under NL_ALL (lean, `slow` 0 or SLOW_HELD_NL), given its text minus
   * its `nl` trailing "\n" (`cut`): every trailing "\n" may be the template's, so they are held;
   * a piece of only newlines adds to the held run, any other sends the held run and the cut
   * out first (what shaped() does: newlines(held) + t, minus the new trailing run). `slow` is
   * set before the callback.
   */
  private allNewlineCut(id: number, cut: string, nl: number): void {
    const held = this.heldNl;
    this.setSlow(SLOW_HELD_NL);
    if (cut === "") {
      this.heldNl = held + nl;
      return;
    }
    this.heldNl = nl;
    if (held > 0) this.emitText(newlines(held) + cut);
    else this.emitDerived(WITHOUT_NEWLINES, id, cut);
  }

  /**
   * A class TextNl piece under NL_ONE (lean, `slow` 0 or SLOW_HELD_NL), given its text minus
   * its last "\n" (`cut`): only that last "\n" can be the template's, so the held run and the
   * cut go out and one "\n" is held. For a piece of only newlines this is leanNewline's rule
   * too: newlines(held) + cut = newlines(held + nl - 1). `slow` is set before the callback.
   */
  private oneNewlineCut(id: number, cut: string): void {
    const held = this.heldNl;
    this.heldNl = 1;
    this.setSlow(SLOW_HELD_NL);
    if (held > 0) this.emitText(newlines(held) + cut);
    else if (cut !== "") this.emitDerived(WITHOUT_NEWLINE, id, cut);
  }

  /**
   * shaped(t) for the text `t` (non-empty) of a class TextNl ID under NL_ONE / NL_ALL with no
   * leading-text rule (textNlPush): when t ends in newlines after other text and exactly one
   * of them is held (NL_ONE, or NL_ALL with a single trailing "\n"), t minus its last "\n"
   * comes from the spec's nlCutOf table instead of a slice; every other case is shaped().
   */
  private newlinePiece(id: number, t: string): void {
    const nl = trailingNewlines(t);
    if (nl === 0 || nl === t.length || (nl > 1 && this.nlMode === NL_ALL)) {
      this.shaped(t);
      return;
    }
    const cut = this.withoutLastNewline(id, t);
    const held = this.heldNl;
    this.heldNl = 1;
    this.emitText(held > 0 ? newlines(held) + cut : cut);
  }

  private afterHeldNewlines(id: number, t: string): void {
    if (this.lean && this.heldNl === 1 && this.nlMode !== NL_NONE) {
      // The common case: ONE held "\n" under NL_ONE / NL_ALL, nothing counted: "\n" + t
      // (flat, from the spec's table) and nothing is held after it. `slow` was exactly
      // SLOW_HELD_NL, so it becomes 0 (set before the callback: a handler calling end() or
      // reset() sets its own bits, as after the generic path); with stop strings the mode is
      // set again after the text went through the matcher (it may hold a prefix now).
      const s = this.afterOneNewline(id, t);
      this.heldNl = 0;
      this.setSlow(0);
      this.emitDerived(AFTER_NEWLINE, id, s);
      if (this.matcher !== null) this.setSlow(this.slow);
      return;
    }
    if (this.lean && this.heldNl === 2 && this.nlMode !== NL_NONE) {
      // The same after a paragraph break ("\n\n" held under NL_ALL): "\n\n" + t from a table.
      const s = this.afterTwoNewlines(id, t);
      this.heldNl = 0;
      this.setSlow(0);
      this.emitText(s);
      if (this.matcher !== null) this.setSlow(this.slow);
      return;
    }
    if (this.nlMode === NL_NONE) this.emitText(t);
    else {
      const k = this.heldNl;
      this.heldNl = 0;
      if (k === 1) this.emitText(this.afterOneNewline(id, t));
      else this.emitText(newlines(k) + t);
    }
    this.setSlow((this.slow & ~SLOW_HELD_NL) | (this.heldNl > 0 ? SLOW_HELD_NL : 0));
    if (--this.left === 0) this.finish("max_tokens");
  }

  /**
   * Text under the newline rules without the checked path: newline-ending text (its trailing
   * "\n" held) and the token right after a held run (about 1 token in 20 in the mixed 8k
   * fixture, where it used to cost two checked pushes). Only reached with `slow` 0 or
   * SLOW_HELD_NL, so shaped() applies just the newline rules and stop strings here; what it can
   * change of the fast-path condition is the held run (and a stop, or a handler calling end()
   * or reset(), which set their own bits in this.slow): those are the bits updated after it.
   */
  private textNlPush(id: number): void {
    let cls = typeof id === "number" ? this.classes[id] : undefined;
    // First sight of a text-model ID: classified now (spec.ts classOf), once per spec.
    if (cls === Cls.Unseen) cls = classOf(this.spec, id);
    let t: string;
    if (cls === Cls.Text) {
      let p = this.specPlain[id];
      if (p === undefined) {
        // First sight of this ID: its flat copy (empty text never gets an entry).
        t = this.textOf[id] as string;
        if (t !== "") {
          p = flatText(t);
          this.specPlain[id] = p;
        }
      }
      if (p !== undefined) {
        t = p;
        // With stop strings: the set's table gets it only if it cannot start one.
        const m = this.matcher;
        if (m !== null && !m.automaton.mayStart(id)) this.plainText[id] = p;
      } else t = "";
      if (t !== "") this.shaped(t);
    } else if (cls === Cls.TextNl) {
      if (this.lean && this.leanNewline(id)) return;
      t = this.textOf[id] as string;
      if (t !== "") {
        if (this.nlMode === NL_ONE || this.nlMode === NL_ALL) this.newlinePiece(id, t);
        else this.shaped(t);
      }
    } else {
      this.checkedPush(id);
      return;
    }
    this.setSlow((this.slow & ~SLOW_HELD_NL) | (this.heldNl > 0 ? SLOW_HELD_NL : 0));
    if (--this.left === 0) this.finish("max_tokens");
  }

  /**
   * textNlPush of a class TextNl ID (its text ends in "\n") for a lean decoder (no
   * maxTokens) with `slow` 0 or SLOW_HELD_NL: exactly what shaped() (and newlinePiece) do
   * under the newline rules, without their layers (the text goes out through emitText). NL_NONE: the text goes
   * out as it is and a held run stays held (shaped() does not touch it there), and the mode
   * is set again after the callback (the stop matcher's state). NL_ONE: only the last "\n" is
   * held (oneNewlineCut). NL_ALL: every trailing "\n" is held (allNewlineCut). Both store the
   * piece's cut for pushOther's direct path and set `slow` before the callback, as in
   * afterHeldNewlines. Any other mode (NL_AFTER_ACTION) takes the generic path (returns false,
   * nothing changed).
   */
  private leanNewline(id: number): boolean {
    const t = this.textOf[id] as string;
    const mode = this.nlMode;
    if (mode === NL_NONE) {
      this.emitText(t);
      this.setSlow(this.slow);
      return true;
    }
    // The cut is stored for pushOther's direct path.
    if (mode === NL_ONE) this.oneNewlineCut(id, this.withoutLastNewline(id, t));
    else if (mode === NL_ALL) {
      const nl = trailingNewlines(t);
      this.allNewlineCut(id, this.withoutTrailingNewlines(id, t, nl), nl);
    } else return false;
    return true;
  }

  private checkedPush(id: number): void {
    checkPush(this.ended, id);
    if (this.isStopped) return;
    this.left--;
    const cls = id >= 0 && id < this.classes.length ? classOf(this.spec, id) : Cls.OutOfRange;
    this.slowPush(id, cls);
    this.setSlow(this.computeSlow());
    if (this.left === 0 && !this.isStopped) this.finish("max_tokens");
  }

  /**
   * push() per ID, as one loop: the table, the handler and the mode are read once per run of
   * fast-path IDs instead of once per call, and a run of one mode stays in its own tight loop.
   * The mode is read again after every callback (a handler may call end() or reset()), so
   * the events are exactly those of one push() per ID.
   */
  pushMany(ids: ArrayLike<number>): void {
    const n = ids.length;
    const table = this.plainText;
    const h = this.ht;
    let i = 0;
    while (i < n) {
      const id = ids[i++] as number;
      let t = typeof id === "number" ? table[id] : undefined;
      if (t !== undefined) {
        const f = this.fast;
        if (f === FAST_CONTENT) {
          // A run of content text: each ID's piece to onText while the mode holds.
          for (;;) {
            h.onText(t);
            if (i === n || this.fast !== FAST_CONTENT) break;
            const next = ids[i] as number;
            t = typeof next === "number" ? table[next] : undefined;
            if (t === undefined) break;
            i++;
          }
          continue;
        }
        if (f === FAST_REASONING) {
          for (;;) {
            h.onReasoning(t);
            if (i === n || this.fast !== FAST_REASONING) break;
            const next = ids[i] as number;
            t = typeof next === "number" ? table[next] : undefined;
            if (t === undefined) break;
            i++;
          }
          continue;
        }
        if (f === FAST_ACTION) {
          // A run of action text: the piece to onActionText, then to the parser (if it reads
          // chunks) and the raw text, while the mode holds (a handler may end the stream).
          let cur = id;
          for (;;) {
            h.onActionText(t);
            this.actionPiece(cur, t);
            if (i === n || this.fast !== FAST_ACTION) break;
            cur = ids[i] as number;
            t = typeof cur === "number" ? table[cur] : undefined;
            if (t === undefined) break;
            i++;
          }
          continue;
        }
      } else if (this.knownSplit(id)) continue;
      this.pushOther(id, t);
    }
  }

  end(): void {
    if (this.ended) return;
    if (!this.begun) this.begin();
    if (!this.isStopped) this.finish("end_of_input");
    this.ended = true;
    this.setSlow(this.slow | SLOW_STOPPED);
  }

  reset(): void {
    this.utf.reset();
    this.matcher?.reset();
    this.state = S_CONTENT;
    this.begun = false;
    this.isStopped = false;
    this.ended = false;
    this.left = this.maxTokens;
    this.atStart = false;
    this.heldNl = 0;
    this.lstrip = false;
    this.dropStr = "";
    this.dropPos = -1;
    this.plainPending = false;
    this.plainWs = "";
    this.nlMode = NL_NONE;
    this.role = "assistant";
    this.block = -1;
    this.container = -1;
    this.line = "";
    this.headerName = "";
    this.actionKind = "";
    this.actionBody = -1;
    this.useParser(null);
    this.raw = "";
    this.run = "";
    this.rawChars = 0;
    this.rawOverflow = false;
    this.fieldKinds = [];
    this.fieldTexts = [];
    this.fieldChars = 0;
    this.presetRole = undefined;
    this.outsideReported = false;
    this.tmState = 0;
    this.openPos = 0;
    this.openId = -1;
    this.setSlow(this.computeSlow());
  }
}
