// The reference decoder: a readable interpreter of the same compiled DecoderSpec the engine
// (../decoder.ts) runs, written for clarity, not speed. It has no fast path and no lazily
// filled tables: every ID is classified (classOf), decoded to its text or bytes, and goes
// through the same few steps: UTF-8 assembly (./utf8.ts), the state's text rules
// (./text-rules.ts), stop strings (./stop-filter.ts), then the handler. A differential test
// (test/reference-differential.test.ts) requires the engine's events to equal these.
//
// States (what the text of a span means; markers move between them):
//
//   Content     message text                        ‹message-start›assistant\nHel|lo
//   Reasoning   a "reasoning" block                 ‹block-open›\nLet me |think
//   Action      an "action" block (raw text kept)   ‹block-open›‹action-kind›\n{"name": |…
//   Header      a "line" header up to "\n"          ‹message-start›environment na|me=…\n
//   Meta        a "role-metadata-line" line         ‹role›get_wea|ther\n
//   ActionKind  after an open marker whose kind an action-kind marker names
//   Between     after a message end (EOS overridden), waiting for a message start
//   Pair        a "pair" header: role text up to the header-end marker
//   Container   inside a "container" block, between its child blocks
//   Fields      a harmony header up to its header-end marker (./fields-header.ts)
//   Skip        after a harmony header overflow: everything up to the next message start
//   OpenText    after a reserved open marker whose block has openText, until it is all read
//
// Text markers (Grammar.textMarkers) are looked for in a span's text before anything else
// (./marker-text.ts): only those whose move is valid in the current state (validMarkers).
import { type ActionCall, type ActionResult, NO_KIND_ERROR } from "../action-parse.ts";
import type { DecoderErrorCode, DecoderHandler, MessageHeader, StopReason } from "../events.ts";
import { type CoreHandler, coreHandler } from "../handler.ts";
import { CHANNELS, parseHarmonyHeader } from "../harmony-header.ts";
import { checkPush } from "../push-guard.ts";
import {
  bodyParserOptions,
  Cls,
  type CompiledBlock,
  classOf,
  type DecoderSpec,
  Emits,
  Header,
  Nl,
} from "../spec.ts";
import { checkStopStrings, StopStrings } from "../stop-matcher.ts";
import type { BodyParser, ToolSchemas } from "../syntax/body.ts";
import { JsonArgumentsParser } from "../syntax/json-arguments.ts";
import type { CompiledTextMarker } from "../text-markers.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import { toolCallSink } from "../tool-call-stream.ts";
import { toolSchemas } from "../tool-schemas.ts";
import type { Decoder, DecoderOptions } from "../types.ts";
import { FieldsHeader, MAX_FIELD_PARTS } from "./fields-header.ts";
import { firstMarker, heldLength } from "./marker-text.ts";
import { StopFilter } from "./stop-filter.ts";
import { LeadingText, TrailingNewlines } from "./text-rules.ts";
import { ReferenceUtf8 } from "./utf8.ts";

const State = {
  Content: "content",
  Reasoning: "reasoning",
  Action: "action",
  Header: "header",
  Meta: "meta",
  ActionKind: "action-kind",
  Between: "between",
  Pair: "pair",
  Container: "container",
  Fields: "fields",
  Skip: "skip",
  OpenText: "open-text",
} as const;
type State = (typeof State)[keyof typeof State];

function quote40(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** The open action: its kind, body syntax, parser and kept text. */
interface OpenAction {
  readonly kind: string;
  /** Index into grammar.bodies, -1: no kind marker came (harmony: the header names the tool). */
  readonly body: number;
  readonly parser: BodyParser | null;
  raw: string;
  overflow: boolean;
}

export class ReferenceDecoder implements Decoder {
  private readonly h: CoreHandler;
  private readonly sink: ToolCallSink | null;
  private readonly tools: ToolSchemas | undefined;
  private readonly plainCalls: boolean;
  private readonly patterns: readonly string[];
  private readonly maxBuffered: number;
  private readonly maxTokens: number;
  private readonly includeStop: boolean;
  private readonly callerStops: ReadonlySet<number>;

  private state: State = State.Content;
  private begun = false;
  private isStopped = false;
  private ended = false;
  private pushed = 0;
  private utf: ReferenceUtf8;
  private stops: StopFilter;
  private readonly leading = new LeadingText();
  private readonly trailing = new TrailingNewlines();
  /** The next text of the span is its first (DecodeTable.startEnds decides when that ends). */
  private atStart = false;
  /** The message may be a plain-text tool call: its leading JSON whitespace so far, null: no. */
  private plainWs: string | null = null;
  private role = "assistant";
  private block = -1;
  private container = -1;
  /** Header / Meta / Pair text, and name tokens of a "line" header. */
  private line = "";
  private headerName = "";
  private fields: FieldsHeader | null = null;
  /** Harmony: text outside a message was reported in this stretch. */
  private outsideReported = false;
  private action: OpenAction | null = null;
  /** Every text marker of the spec (where each is valid: validMarkers). */
  private readonly textMarkers: readonly CompiledTextMarker[];
  /** Span text held because it may still become a text marker. */
  private markerHeld = "";
  /** OpenText: the open text read so far, and the reserved open marker. */
  private openRead = "";
  private openId = -1;

  constructor(
    private readonly spec: DecoderSpec,
    handler: DecoderHandler,
    options: DecoderOptions,
  ) {
    const stopStrings = options.stopStrings ?? [];
    if (stopStrings instanceof StopStrings) {
      if (stopStrings.spec !== spec)
        throw new TypeError("stopStrings were compiled for another decoder spec");
      this.patterns = stopStrings.patterns;
    } else {
      checkStopStrings(stopStrings);
      this.patterns = [...stopStrings];
    }
    this.maxBuffered = options.maxBufferedChars ?? 1_000_000;
    if (!Number.isInteger(this.maxBuffered) || this.maxBuffered < 1)
      throw new TypeError("maxBufferedChars must be a positive integer");
    this.maxTokens = options.maxTokens ?? -1;
    if (!Number.isInteger(this.maxTokens) || (options.maxTokens !== undefined && this.maxTokens < 1))
      throw new TypeError("maxTokens must be a positive integer");
    this.h = coreHandler(handler);
    this.sink = options.streamToolCalls === true ? toolCallSink(this.h) : null;
    const tools = options.tools;
    if (tools !== undefined && !Array.isArray(tools)) throw new TypeError("tools must be an array");
    this.tools = tools === undefined || tools.length === 0 ? undefined : toolSchemas(tools);
    this.plainCalls = this.tools !== undefined && spec.grammar.plainBlock >= 0;
    this.includeStop = options.includeStopString === true;
    const callerStops = new Set<number>();
    for (const id of options.stopTokenIds ?? []) {
      if (!Number.isInteger(id)) throw new TypeError(`stop token id ${id} is not an integer`);
      // A format EOS ID stays reason "eos".
      if (spec.eos[id] !== 1) callerStops.add(id);
    }
    this.callerStops = callerStops;
    this.utf = new ReferenceUtf8(spec.invalidUtf8);
    this.stops = new StopFilter(this.patterns);
    const tm = spec.textMarkers;
    const all = new Set<CompiledTextMarker>();
    for (const set of tm === null ? [] : [tm.content, ...tm.inBlock])
      for (const m of set?.markers ?? []) all.add(m);
    this.textMarkers = [...all];
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  // ---- the Decoder interface ----

  push(id: number): void {
    checkPush(this.ended, id);
    if (this.isStopped) return;
    this.pushed++;
    if (!this.begun) this.begin();
    this.token(id);
    if (this.pushed === this.maxTokens && !this.isStopped) this.finish("max_tokens");
  }

  pushMany(ids: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) this.push(ids[i] as number);
  }

  end(): void {
    if (this.ended) return;
    if (!this.begun) this.begin();
    if (!this.isStopped) this.finish("end_of_input");
    this.ended = true;
  }

  reset(): void {
    this.state = State.Content;
    this.begun = false;
    this.isStopped = false;
    this.ended = false;
    this.pushed = 0;
    this.utf = new ReferenceUtf8(this.spec.invalidUtf8);
    this.stops = new StopFilter(this.patterns);
    this.leading.clear();
    this.trailing.mode = Nl.None;
    this.trailing.held = 0;
    this.atStart = false;
    this.plainWs = null;
    this.role = "assistant";
    this.block = -1;
    this.container = -1;
    this.line = "";
    this.headerName = "";
    this.fields = null;
    this.outsideReported = false;
    this.action = null;
    this.markerHeld = "";
    this.openRead = "";
    this.openId = -1;
  }

  // ---- one ID ----

  private classOfId(id: number): number {
    return id >= 0 && id < this.spec.classes.length ? classOf(this.spec, id) : Cls.OutOfRange;
  }

  private token(id: number): void {
    const cls = this.classOfId(id);
    if (this.callerStops.has(id)) {
      // A caller stop ID: a marker still makes its move; its text is not emitted.
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
        this.atStart = false;
        this.bytesPiece(id);
        return;
      case Cls.Control:
        if (this.spec.startEnds === "first-piece") this.atStart = false;
        if (this.spec.controlFlushes) this.flushBytes();
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

  /** A text piece: held bytes resolve first; the span's first piece uses its start form. */
  private textPiece(id: number): void {
    this.flushBytes();
    if (this.isStopped) return;
    let t: string;
    if (this.atStart && this.spec.startEnds !== "never") {
      t = this.spec.textAtStart[id] ?? "";
      if (this.spec.startEnds !== "first-visible" || t !== "") this.atStart = false;
    } else t = this.spec.text[id] ?? "";
    if (t !== "") this.spanText(t);
  }

  private bytesPiece(id: number): void {
    const b = this.spec.bytes[id];
    if (b === undefined) return;
    const t = this.utf.feed(b);
    if (t !== "") this.spanText(t);
  }

  private flushBytes(): void {
    const t = this.utf.flush();
    if (t !== "") this.spanText(t);
  }

  // ---- where decoding starts ----

  private begin(): void {
    this.begun = true;
    const g = this.spec.grammar;
    if (g.header === Header.Harmony) {
      // The prompt ended with the message start and the assistant's role.
      this.state = State.Fields;
      this.fields = new FieldsHeader(g.initialRole);
      this.atStart = true;
    } else if (g.header === Header.RoleMetadataLine) {
      // The prompt ended with the role marker: the metadata line comes first.
      this.openSegment(g.initialRole);
    } else {
      this.h.onMessageStart(g.initialRole, "");
      if (this.spec.startInReasoning) {
        this.openBlock(g.startBlock);
        // The prompt's own text of the block (Grammar.startText): the body's start, not model
        // output, so no stop string reads it.
        if (g.startText !== "") this.h.onReasoning(g.startText);
      } else this.enterMessage(g.initialRole);
      this.atStart = true;
    }
  }

  // ---- text of a span, by state ----

  /** Span text: text markers first, where any is valid; the rest by state. */
  private spanText(t: string): void {
    if (this.validMarkers().length > 0) this.markedText(t);
    else this.stateText(t);
  }

  private stateText(t: string): void {
    switch (this.state) {
      case State.Content:
      case State.Reasoning:
      case State.Action:
        this.shaped(t);
        return;
      case State.Header:
        this.headerText(t);
        return;
      case State.Meta:
        this.metaText(t);
        return;
      case State.Pair:
        this.line += t;
        if (this.line.length > this.maxBuffered) this.headerOverflow();
        return;
      case State.ActionKind: {
        const blk = this.blockAt(this.block);
        this.error("missing-action-kind", blk.missingKind);
        this.startAction("unknown", -1);
        this.spanText(t);
        return;
      }
      case State.OpenText:
        this.openTextPart(t);
        return;
      case State.Fields: {
        const f = this.fields as FieldsHeader;
        f.addText(t);
        if (f.chars > this.maxBuffered) {
          this.error("buffer-overflow", `message header longer than maxBufferedChars (${this.maxBuffered})`);
          this.state = State.Skip;
        }
        return;
      }
      case State.Skip:
        return;
      case State.Between:
        if (this.spec.grammar.header === Header.Harmony) {
          // No template text between these messages: reported once per stretch.
          if (!this.outsideReported) {
            this.outsideReported = true;
            this.error("text-outside-message", `text outside a message: ${quote40(t)}`);
          }
        } else if (!/^\s*$/.test(t))
          this.error("text-outside-message", `text outside a message: ${quote40(t)}`);
        return;
      case State.Container:
        if (!/^\s*$/.test(t))
          this.error(
            "text-outside-block",
            `text between the blocks of ${JSON.stringify(this.blockAt(this.container).name)}: ${quote40(t)}`,
          );
        return;
    }
  }

  /** Content, reasoning or action text: leading rules, a plain-text call, newline rules, stop strings. */
  private shaped(piece: string): void {
    let t = this.leading.take(piece);
    if (t === "") return;
    if (this.plainWs !== null) {
      const ws = /^[ \n\r\t]*/.exec(t)?.[0] ?? "";
      if (ws.length === t.length) {
        this.plainWs += t;
        if (this.plainWs.length > this.maxBuffered) this.plainOff();
        return;
      }
      const held = this.plainWs;
      this.plainWs = null;
      if (t[ws.length] === "{") {
        // The message is a tool call written as JSON text (plainTextToolCall, tools given).
        this.block = this.spec.grammar.plainBlock;
        const blk = this.blockAt(this.block);
        this.startAction(blk.kind, blk.body);
      }
      t = held + t;
    }
    const out = this.trailing.shape(t);
    if (out !== "") this.emit(out);
  }

  /** The plain-text call is not read any more: its held whitespace is content. */
  private plainOff(): void {
    const ws = this.plainWs ?? "";
    this.plainWs = null;
    if (ws !== "") this.emit(ws);
  }

  /** Text after the grammar's rules: stop strings, then the state's event. */
  private emit(t: string): void {
    if (this.patterns.length === 0) {
      this.deliver(t);
      return;
    }
    const r = this.stops.push(t);
    if (typeof r === "string") {
      if (r !== "") this.deliver(r);
      return;
    }
    if (r.before !== "") this.deliver(r.before);
    if (this.includeStop) this.deliver(r.pattern);
    this.finish("stop_string", undefined, r.pattern);
  }

  private deliver(t: string): void {
    if (this.isStopped) return;
    if (this.state === State.Content) this.h.onText(t);
    else if (this.state === State.Reasoning) this.h.onReasoning(t);
    else if (this.state === State.Action) this.actionText(t);
  }

  // ---- actions ----

  private actionText(t: string): void {
    const a = this.action as OpenAction;
    const p = a.parser;
    if (p?.feedCall === undefined) {
      this.h.onActionText(t);
      p?.feed(t);
      this.keepRaw(a, t);
      return;
    }
    // A list of calls: where the parser says the next call starts, this action ends and one
    // of the same kind opens.
    let rest = t;
    for (;;) {
      const n = p.feedCall(rest);
      const head = rest.slice(0, n);
      if (head !== "") {
        this.h.onActionText(head);
        this.keepRaw(a, head);
      }
      if (n >= rest.length) return;
      rest = rest.slice(n);
      this.actionEnd(a);
      this.h.onActionStart(a.kind);
      a.raw = "";
      a.overflow = false;
      p.nextCall?.();
    }
  }

  private keepRaw(a: OpenAction, t: string): void {
    if (a.overflow) return;
    if (a.raw.length + t.length > this.maxBuffered) {
      a.overflow = true;
      this.error(
        "buffer-overflow",
        `action text longer than maxBufferedChars (${this.maxBuffered}); its call will not be parsed`,
      );
      return;
    }
    a.raw += t;
  }

  /** Opens an action of `kind` with body syntax `body` (-1: none). */
  private startAction(kind: string, body: number): void {
    this.h.onActionStart(kind);
    this.state = State.Action;
    this.trailing.mode = Nl.None;
    const compiled = this.spec.grammar.bodies[body];
    // A parser per action: the reference keeps no parser between actions.
    const parser = compiled?.create?.(bodyParserOptions(compiled, this.maxBuffered)) ?? null;
    parser?.reset(this.sink, this.tools, kind);
    this.action = { kind, body, parser, raw: "", overflow: false };
  }

  /** The action_end of action `a`. */
  private actionEnd(a: OpenAction): void {
    const raw = a.raw;
    if (a.overflow) {
      this.h.onActionEnd({ kind: a.kind, raw, error: "action text exceeded maxBufferedChars" });
      return;
    }
    let r: ActionResult;
    if (a.parser !== null) r = a.parser.end(raw);
    else if (a.body < 0) r = { error: NO_KIND_ERROR };
    else r = { error: `no parser for body syntax ${this.spec.grammar.bodies[a.body]?.syntax ?? "?"}` };
    if ("call" in r) this.h.onActionEnd({ kind: a.kind, raw, call: r.call as ActionCall });
    else this.h.onActionEnd({ kind: a.kind, raw, error: r.error });
  }

  /** The open action ends and its block is left. */
  private closeAction(): void {
    const a = this.action;
    this.action = null;
    if (a !== null) this.actionEnd(a);
    this.leaveBlock();
  }

  // ---- blocks and messages ----

  private blockAt(b: number): CompiledBlock {
    return this.spec.grammar.blocks[b] as CompiledBlock;
  }

  private enterContent(): void {
    this.state = State.Content;
    this.trailing.mode = this.spec.grammar.contentNl;
  }

  /** The content of a new message with role `r` (a plain-text call may start it). */
  private enterMessage(r: string): void {
    this.enterContent();
    this.role = r;
    if (this.plainCalls && r === "assistant") this.plainWs = "";
  }

  private openSegment(r: string): void {
    this.state = State.Meta;
    this.role = r;
    this.line = "";
    this.atStart = true;
  }

  private openBlock(b: number): void {
    const blk = this.blockAt(b);
    this.block = b;
    if (blk.emits === Emits.Reasoning) {
      this.state = State.Reasoning;
      this.trailing.mode = blk.beforeClose === Nl.OneBeforeEnd ? Nl.All : blk.beforeClose;
      this.leading.afterMarker(blk.afterOpen);
    } else if (blk.emits === Emits.Action) {
      if (blk.kindFromMarker) this.state = State.ActionKind;
      else this.startAction(blk.kind, blk.body);
    } else {
      this.state = State.Container;
      this.container = b;
      this.trailing.mode = Nl.None;
    }
  }

  /** Leaves the open block: back to its container, or to content. */
  private leaveBlock(): void {
    const blk = this.spec.grammar.blocks[this.block];
    this.block = -1;
    if (blk !== undefined && blk.parent >= 0 && this.container === blk.parent) {
      this.state = State.Container;
      this.trailing.mode = Nl.None;
    } else this.enterContent();
  }

  /**
   * A marker ends the span: held bytes resolve, a pending plain-text call is off, held "\n"
   * go out (minus those the marker's rule `drop` says the template wrote), held stop-string
   * text goes out; the next text starts a new span.
   */
  private closeSpan(drop: number): void {
    this.flushBytes();
    if (this.isStopped) return;
    if (this.markerHeld !== "") {
      // What was held as a possible text marker is text.
      const held = this.markerHeld;
      this.markerHeld = "";
      this.stateText(held);
      if (this.isStopped) return;
    }
    this.endText(drop);
    this.atStart = true;
  }

  /**
   * The end of a span's text at a text marker (closeSpan without the UTF-8 flush and the new
   * span start: held bytes come after the marker, and the text after it is one text run).
   */
  private endText(drop: number): void {
    if (this.plainWs !== null) {
      this.plainOff();
      if (this.isStopped) return;
    }
    const nl = this.trailing.close(drop);
    if (nl !== "") this.emit(nl);
    if (this.isStopped) return;
    const held = this.stops.release();
    if (held !== "") this.deliver(held);
    this.leading.clear();
  }

  // ---- text markers and open text ----

  /** The text markers whose move is valid in the current state. */
  private validMarkers(): CompiledTextMarker[] {
    return this.textMarkers.filter((m) => {
      const s = this.state;
      // A role move: in content and in any action's body.
      if (m.cls === Cls.Role) return s === State.Content || (s === State.Action && this.block >= 0);
      const blk = this.blockAt(m.block);
      if (m.cls === Cls.BlockOpen)
        return (
          (s === State.Action && this.block === m.block && blk.reopens) ||
          (blk.parent >= 0 ? s === State.Container && this.container === blk.parent : s === State.Content)
        );
      if (m.cls === Cls.BlockClose)
        return (
          ((s === State.Reasoning || s === State.Action) && this.block === m.block) ||
          (s === State.Container && this.container === m.block)
        );
      return s === State.Action && this.block === m.block;
    });
  }

  /**
   * Text where text markers are valid: the held text and `t` are searched for the first marker
   * completed in `t`; the text before it goes on by state, the marker makes its move, and the
   * search goes on in the rest with the markers valid after it. What is left is given out but
   * for its longest end that a valid marker starts with, which is held.
   */
  private markedText(t: string): void {
    let text = this.markerHeld + t;
    let searched = this.markerHeld.length;
    this.markerHeld = "";
    for (;;) {
      const valid = this.validMarkers();
      if (valid.length === 0) {
        if (text !== "") this.stateText(text);
        return;
      }
      const found = firstMarker(text, searched, valid);
      if (found === undefined) break;
      if (found.start > 0) {
        const before = this.state;
        const beforeBlock = this.block;
        this.stateText(text.slice(0, found.start));
        if (this.isStopped) return;
        if (this.state !== before || this.block !== beforeBlock) {
          // That text moved the decoder (a plain-text call began): the rest is read there.
          this.spanText(text.slice(found.start));
          return;
        }
      }
      this.textMarker(found.marker);
      if (this.isStopped) return;
      text = text.slice(found.end);
      searched = 0;
    }
    const keep = heldLength(text, this.validMarkers());
    const out = text.slice(0, text.length - keep);
    if (out !== "") {
      const before = this.state;
      const beforeBlock = this.block;
      this.stateText(out);
      if (this.isStopped) return;
      if (this.state !== before || this.block !== beforeBlock) {
        if (keep > 0) this.spanText(text.slice(text.length - keep));
        return;
      }
    }
    this.markerHeld = text.slice(text.length - keep);
  }

  /** A text marker's move (it is valid here): as its reserved form, but the span's text runs on. */
  private textMarker(m: CompiledTextMarker): void {
    if (m.cls === Cls.Role) {
      this.roleMarker(m.role, false, true);
      return;
    }
    const b = m.block;
    const blk = this.blockAt(b);
    if (m.cls === Cls.BlockOpen) {
      if (this.state === State.Action) {
        // Its own open marker again: the next call.
        this.endText(Nl.None);
        if (this.isStopped) return;
        this.closeAction();
      } else {
        this.endText(blk.beforeOpen);
        if (this.isStopped) return;
      }
      this.openBlock(b);
      return;
    }
    if (m.cls === Cls.Separator) {
      this.endText(Nl.None);
      if (this.isStopped) return;
      this.action?.parser?.separator();
      return;
    }
    if (this.state === State.Container) {
      this.endText(Nl.None);
      if (this.isStopped) return;
      this.container = -1;
      this.enterContent();
    } else {
      this.endText(blk.beforeClose === Nl.OneBeforeEnd ? Nl.None : blk.beforeClose);
      if (this.isStopped) return;
      if (this.state === State.Action) this.closeAction();
      else this.leaveBlock();
    }
    if (blk.afterClose === Nl.OneBeforeEnd) this.trailing.mode = Nl.OneBeforeEnd;
    else this.leading.afterMarker(blk.afterClose);
  }

  /** OpenText: the text after the open marker, compared with the block's openText. */
  private openTextPart(t: string): void {
    const want = this.blockAt(this.block).openText;
    const read = this.openRead + t;
    if (read.startsWith(want)) {
      this.openRead = "";
      this.openBlock(this.block);
      if (read.length > want.length) this.spanText(read.slice(want.length));
    } else if (want.startsWith(read)) this.openRead = read;
    else this.openTextFailed(t);
  }

  /** The open marker was not followed by its open text: an error; the text read is text where it was. */
  private openTextFailed(t: string): void {
    const blk = this.blockAt(this.block);
    const text = this.openRead + t;
    this.openRead = "";
    this.block = -1;
    if (blk.parent >= 0) {
      this.state = State.Container;
      this.trailing.mode = Nl.None;
    } else this.enterContent();
    const name = this.spec.reservedName.get(this.openId) ?? String(this.openId);
    const why = `it is not followed by ${quote40(blk.openText)}`;
    this.error(
      "unexpected-reserved-token",
      `reserved token ${name} (${this.openId}) is not valid here: ${why}`,
      this.openId,
    );
    if (text !== "") this.spanText(text);
  }

  private error(code: DecoderErrorCode, message: string, token?: number): void {
    this.h.onError(token === undefined ? { code, message } : { code, token, message });
  }

  /** Whether the marker `id` is valid here (`ok`); when not, it is reported misplaced. */
  private validHere(ok: boolean, id: number): boolean {
    if (!ok) this.misplaced(id);
    return ok;
  }

  private misplaced(id: number): void {
    if (this.state === State.Reasoning && this.spec.grammar.header !== Header.Harmony) {
      // A reserved marker with no move inside reasoning is reasoning text (its string).
      this.flushBytes();
      if (this.isStopped) return;
      this.atStart = false;
      this.spanText(this.spec.reservedName.get(id) ?? "");
      return;
    }
    this.closeSpan(Nl.None);
    if (this.isStopped) return;
    const name = this.spec.reservedName.get(id) ?? String(id);
    this.error("unexpected-reserved-token", `reserved token ${name} (${id}) is not valid here`, id);
  }

  // ---- headers ----

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
    // Header and content are one text run of the template: the same span.
    if (rest !== "") this.spanText(rest);
  }

  /** A held header over maxBufferedChars: what is held becomes content. */
  private headerOverflow(): void {
    const line = this.line;
    const name = this.headerName;
    this.line = "";
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
    const role = sp === -1 ? header : header.slice(0, sp);
    let name = this.headerName;
    if (sp !== -1) {
      const attr = header.slice(sp + 1);
      const value = attr.startsWith("name=") ? attr.slice(5) : attr;
      if (value !== "") name = value + name;
    }
    this.headerName = "";
    this.h.onMessageStart(role, name);
    this.enterMessage(role);
  }

  private openPair(): void {
    const role = this.line;
    this.line = "";
    this.h.onMessageStart(role, "");
    this.enterMessage(role);
  }

  private metaText(t: string): void {
    const i = t.indexOf("\n");
    if (i === -1) {
      this.line += t;
      if (this.line.length > this.maxBuffered) {
        this.metaAsContent();
        if (this.isStopped) return;
        this.error("buffer-overflow", `metadata line longer than maxBufferedChars (${this.maxBuffered})`);
      }
      return;
    }
    const metadata = this.line + t.slice(0, i);
    const rest = t.slice(i + 1);
    this.line = "";
    const g = this.spec.grammar;
    this.h.onMessageStart(this.role, metadata);
    if (
      metadata !== "" &&
      g.metaActionBlock >= 0 &&
      this.role === g.metaActionRole &&
      !g.metaContent.has(metadata)
    ) {
      // A metadata-named action: its kind is the metadata.
      this.block = g.metaBlockByMetadata.get(metadata) ?? g.metaActionBlock;
      this.startAction(metadata, this.blockAt(this.block).body);
    } else this.enterMessage(this.role);
    // The content is its own span.
    this.atStart = rest === "";
    if (rest !== "") this.spanText(rest);
  }

  /** A metadata line that never ended was content. */
  private metaAsContent(): void {
    const held = this.line;
    this.line = "";
    this.h.onMessageStart(this.role, "");
    this.enterContent();
    if (held !== "") this.spanText(held);
  }

  /** A held "line" or "pair" header opens its message as it is (a stop or a role marker came). */
  private flushHeader(): void {
    if (this.state === State.Header) {
      const l = this.line;
      this.line = "";
      this.openHeader(l);
    } else if (this.state === State.Pair) this.openPair();
  }

  // ---- markers ----

  /** Block `b` after its reserved open marker `id`: at once, or once its openText was read. */
  private openAfterMarker(b: number, id: number): void {
    if (this.blockAt(b).openText === "") {
      this.openBlock(b);
      return;
    }
    this.state = State.OpenText;
    this.block = b;
    this.openRead = "";
    this.openId = id;
  }

  private marker(cls: number, id: number): void {
    if (this.state === State.OpenText) {
      // A marker before the open text was all read: the open marker opened nothing.
      this.openTextFailed("");
      if (this.isStopped) return;
    }
    if (this.spec.grammar.header === Header.Harmony) {
      this.fieldsMarker(cls, id);
      return;
    }
    const g = this.spec.grammar;
    const state = this.state;
    switch (cls) {
      case Cls.MsgEnd: {
        if (state === State.ActionKind || state === State.Container) this.state = State.Content;
        const current = this.state;
        const inMessage =
          current === State.Content || current === State.Reasoning || current === State.Action;
        if (!this.validHere(inMessage, id)) return;
        // After a block with afterClose "one-before-end": one "\n" before the end is the template's.
        this.closeSpan(this.trailing.mode === Nl.OneBeforeEnd ? Nl.One : Nl.None);
        if (this.isStopped) return;
        if (this.state === State.Action) this.closeAction();
        this.h.onMessageEnd();
        this.state = State.Between;
        this.block = -1;
        this.container = -1;
        return;
      }
      case Cls.MsgStart:
        if (!this.validHere(state === State.Between, id)) return;
        this.closeSpan(Nl.None);
        this.state = g.header === Header.Pair ? State.Pair : State.Header;
        this.line = "";
        this.headerName = "";
        return;
      case Cls.HeaderEnd:
        if (!this.validHere(state === State.Pair, id)) return;
        this.closeSpan(Nl.None);
        this.openPair();
        this.leading.dropPrefix(g.dropAfter);
        return;
      case Cls.BlockOpen: {
        const b = this.spec.markerArg.get(id) as number;
        const blk = this.blockAt(b);
        if (blk.reopens && state === State.Action && this.block === b) {
          // A block with no close marker (Mistral v11's [TOOL_CALLS]NAME[ARGS]{...}): opening it
          // again ends the open call and starts the next one.
          this.closeSpan(Nl.None);
          if (this.isStopped) return;
          this.closeAction();
          this.openAfterMarker(b, id);
          return;
        }
        if (state === State.Reasoning && blk.endsReasoning && (blk.parent < 0 || blk.alsoTopLevel)) {
          // BlockGrammar.endsReasoning: the reasoning closes as at its close marker, then the open.
          const r = this.blockAt(this.block);
          this.closeSpan(r.beforeClose === Nl.OneBeforeEnd ? Nl.None : r.beforeClose);
          if (this.isStopped) return;
          this.leaveBlock();
          this.marker(cls, id);
          return;
        }
        const allowed =
          blk.parent >= 0
            ? (state === State.Container && this.container === blk.parent) ||
              (blk.alsoTopLevel && state === State.Content)
            : state === State.Content;
        if (!this.validHere(allowed, id)) return;
        this.closeSpan(blk.beforeOpen);
        if (this.isStopped) return;
        this.openAfterMarker(b, id);
        return;
      }
      case Cls.BlockClose: {
        const b = this.spec.markerArg.get(id) as number;
        const blk = this.blockAt(b);
        if ((state === State.Reasoning || state === State.Action) && this.block === b) {
          this.closeSpan(blk.beforeClose === Nl.OneBeforeEnd ? Nl.None : blk.beforeClose);
          if (this.isStopped) return;
          if (state === State.Action) this.closeAction();
          else this.leaveBlock();
        } else if (state === State.Container && this.container === b) {
          this.closeSpan(Nl.None);
          if (this.isStopped) return;
          this.container = -1;
          this.enterContent();
        } else {
          this.misplaced(id);
          return;
        }
        if (blk.afterClose === Nl.OneBeforeEnd) this.trailing.mode = Nl.OneBeforeEnd;
        else this.leading.afterMarker(blk.afterClose);
        return;
      }
      case Cls.Separator:
        if (!this.validHere(state === State.Action && this.block === this.spec.markerArg.get(id), id)) return;
        this.closeSpan(Nl.None);
        if (this.isStopped) return;
        this.action?.parser?.separator();
        return;
      case Cls.ActionKind: {
        const k = g.kinds[this.spec.markerArg.get(id) as number];
        if (k === undefined) return;
        if (state === State.Header) {
          this.closeSpan(Nl.None);
          this.headerName += k.kind;
          if (this.line.length + this.headerName.length > this.maxBuffered) this.headerOverflow();
          return;
        }
        if (!this.validHere(state === State.ActionKind, id)) return;
        this.closeSpan(Nl.None);
        this.startAction(k.kind, k.body);
        return;
      }
      case Cls.Role:
        this.roleMarker(this.spec.roleOf.get(id) ?? "assistant", this.spec.eos[id] === 1, false);
        return;
      case Cls.EndOfText:
        if (this.spec.eos[id] !== 1) this.misplaced(id);
        return;
      default:
        this.misplaced(id);
    }
  }

  /**
   * A role marker (reserved, or a text marker: `text`, whose span's text runs on): the segment
   * ends, and (unless it is an EOS ID) one with `role` starts.
   */
  private roleMarker(role: string, eos: boolean, text: boolean): void {
    const end = (): void => (text ? this.endText(Nl.None) : this.closeSpan(Nl.None));
    if (this.state === State.Between) end();
    else {
      if (this.state === State.Meta) this.metaAsContent();
      if (this.isStopped) return;
      this.flushHeader();
      end();
      if (this.isStopped) return;
      if (this.state === State.Action) {
        const a = this.action;
        this.action = null;
        if (a !== null) this.actionEnd(a);
      }
      this.block = -1;
      this.container = -1;
      if (this.isStopped) return;
      this.h.onMessageEnd();
    }
    if (eos) {
      this.state = State.Between;
      return;
    }
    if (this.spec.grammar.header === Header.RoleMetadataLine) this.openSegment(role);
    else {
      this.h.onMessageStart(role, "");
      this.enterMessage(role);
      this.atStart = true;
    }
  }

  // ---- harmony headers ----

  private fieldsMarker(cls: number, id: number): void {
    this.closeSpan(Nl.None);
    if (this.isStopped) return;
    const state = this.state;
    const inMessage = state === State.Content || state === State.Reasoning || state === State.Action;
    const name = this.spec.reservedName.get(id) ?? String(id);
    if (cls === Cls.MsgStart) {
      // One before any header text just starts the header over (no preset role).
      if (state === State.Fields && this.fields?.begun === true)
        this.error("invalid-header", `${name} inside a message header`, id);
      else if (inMessage) {
        this.error("unexpected-reserved-token", `${name} before the message ended`, id);
        this.closeFieldsMessage();
      }
      this.outsideReported = false;
      this.state = State.Fields;
      this.fields = new FieldsHeader(undefined);
      return;
    }
    if (state === State.Fields) {
      const f = this.fields as FieldsHeader;
      if (cls === Cls.HeaderField) {
        if (f.kinds.length >= MAX_FIELD_PARTS) {
          this.error("buffer-overflow", "message header has too many parts");
          this.state = State.Skip;
          return;
        }
        f.addField(this.spec.markerArg.get(id) as number);
      } else if (cls === Cls.HeaderEnd) this.openFields(f);
      else if (this.spec.eos[id] === 1)
        this.error("invalid-header", `stop token ${name} inside a message header`, id);
      else this.misplaced(id);
      return;
    }
    if (inMessage) {
      if (cls === Cls.MsgEnd || this.spec.eos[id] === 1) {
        this.closeFieldsMessage();
        this.state = State.Between;
        this.outsideReported = false;
      } else this.misplaced(id);
      return;
    }
    if (state === State.Between && cls !== Cls.EndOfText) this.misplaced(id);
  }

  /** The message of a harmony header opens: its start, then content routed by the fields. */
  private openFields(f: FieldsHeader): void {
    const p = parseHarmonyHeader(f.kinds, f.texts, f.presetRole);
    this.fields = null;
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
      // Addressed to a function: a tool call whose content is its JSON arguments; any other
      // recipient: an action of that kind.
      const fn = r.startsWith("functions.");
      const kind = fn ? "tool_call" : r;
      this.h.onActionStart(kind);
      this.state = State.Action;
      this.trailing.mode = Nl.None;
      const parser = new JsonArgumentsParser(this.maxBuffered);
      parser.reset(fn ? this.sink : null, fn ? this.tools : undefined, fn ? r.slice("functions.".length) : r);
      this.action = { kind, body: -1, parser, raw: "", overflow: false };
    } else if (p.role === "assistant" && hd.channel === "analysis") {
      this.state = State.Reasoning;
      this.trailing.mode = Nl.None;
    } else this.enterContent();
  }

  private closeFieldsMessage(): void {
    if (this.state === State.Action) this.closeAction();
    this.h.onMessageEnd();
  }

  // ---- the stop ----

  private finish(reason: StopReason, token?: number, text?: string): void {
    if (this.isStopped) return;
    if (this.state === State.OpenText) {
      this.openTextFailed("");
      if (this.isStopped) return;
    }
    if (reason !== "stop_string") {
      // What is held goes out first (a stop string in it stops the stream there).
      if (this.state === State.Meta) this.metaAsContent();
      if (this.isStopped) return;
      this.flushHeader();
      this.closeSpan(Nl.None);
      if (this.isStopped) return;
    }
    if (this.state === State.Fields && reason !== "eos" && this.fields?.begun === true)
      this.error("invalid-header", "the stream ended inside a message header");
    this.isStopped = true;
    if (this.state === State.Action) this.closeAction();
    this.h.onStop(
      token !== undefined ? { reason, token } : text !== undefined ? { reason, text } : { reason },
    );
  }
}
