// gpt-oss (harmony) stream decoder: token IDs in, events out, never a throw for an integer ID.
//
// Grammar, from reserved IDs only (decoded text is never matched against marker strings), by
// their classes in the spec (the grammar's moves over the IDs verified against the loaded files):
//   message-start <|start|>, header-field <|channel|> / <|constrain|>, header-end <|message|>,
//   message-end <|end|> <|return|> <|call|>, end-of-text <|endoftext|>:
//
//   HEADER   <|start|>ROLE[ to=R] [<|channel|>CH[ to=R][ TYPE]] [ <|constrain|>TYPE] <|message|>
//            (the prompt ends with "<|start|>assistant": decoding starts here, role preset)
//   CONTENT  the message text, routed by the header: analysis -> reasoning; final and
//            commentary without recipient -> text; recipient functions.X -> a tool call action
//            (name, then argument deltas with streamToolCalls); any other recipient -> an
//            action of that kind; <|end|> ends the message, <|return|> / <|call|> stop
//   BETWEEN  after <|end|>, waiting for <|start|>
//   SKIP     after a header overflow: everything is dropped until the next <|start|>
//
// Every step is O(token): header text is appended to one part string (bounded by
// maxBufferedChars, counted per append) and parsed once at <|message|>; tool-call arguments
// are forwarded as they come (and kept, also bounded, for the action_end parse).
// Recovery (error events, decoding goes on): text outside a message (once per stretch),
// misplaced reserved IDs, <|start|> inside a header or content (a new header), a stop token in
// a header, an unparsable header (best-effort fields + "invalid-header"), an unknown channel.
import { nestsDeeperThan } from "./action-parse.ts";
import type { DecoderErrorCode, DecoderHandler, MessageHeader, StopInfo, StopReason } from "./events.ts";
import { type CoreHandler, coreHandler } from "./handler.ts";
import { MAX_NESTING_DEPTH } from "./limits.ts";
import type { JsonValue } from "./python-literal.ts";
import { Cls, type DecoderSpec, HeaderField } from "./spec.ts";
import { checkStopStrings, compileStopStrings, StopMatcher, StopStrings } from "./stop-matcher.ts";
import type { Decoder, DecoderOptions } from "./types.ts";
import { Utf8Pending } from "./utf8-pending.ts";

const S_HEADER = 0;
const S_CONTENT = 1;
const S_BETWEEN = 2;
const S_SKIP = 3;

/** Where content goes. */
const R_TEXT = 0;
const R_REASONING = 1;
const R_TOOL = 2;
const R_ACTION = 3;

/** Header part kinds: the text before any marker, after <|channel|>, after <|constrain|>. */
const P_HEAD = 0;
const P_CHANNEL = 1;
const P_CONSTRAIN = 2;

/** Bits of HarmonyDecoder.slow: why the per-token fast path cannot be taken right now. */
const SLOW_STATE = 1;
const SLOW_UTF8 = 2;
const SLOW_STOPPED = 4;
const SLOW_CALLER_STOPS = 8;
const SLOW_OFF = 16;

const ROLES: ReadonlySet<string> = new Set(["assistant", "user", "system", "developer", "tool"]);
const CHANNELS: ReadonlySet<string> = new Set(["analysis", "commentary", "final"]);

function quote40(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

interface ParsedHeader {
  role: string;
  name: string | undefined;
  header: { channel?: string; recipient?: string; contentType?: string };
  problems: string[];
}

/** Best-effort parse of the header parts (kinds + texts); never fails. */
export function parseHarmonyHeader(
  kinds: readonly number[],
  texts: readonly string[],
  presetRole: string | undefined,
): ParsedHeader {
  const out: ParsedHeader = { role: presetRole ?? "", name: undefined, header: {}, problems: [] };
  const h = out.header;
  let roleSeen = presetRole !== undefined;
  const word = (w: string, first: boolean, kind: number): void => {
    if (kind === P_HEAD && !roleSeen) {
      roleSeen = true;
      const colon = w.indexOf(":");
      const r = colon === -1 ? w : w.slice(0, colon);
      if (ROLES.has(r)) {
        out.role = r;
        if (colon !== -1) out.name = w.slice(colon + 1);
      } else {
        // harmony: an author that is not a role is a tool name (functions.X, browser.search).
        out.role = "tool";
        out.name = w;
      }
      return;
    }
    if (w.startsWith("to=")) {
      if (h.recipient === undefined) h.recipient = w.slice(3);
      else out.problems.push(`a second recipient ${quote40(w)}`);
      return;
    }
    if (kind === P_CHANNEL && first) {
      if (h.channel === undefined) h.channel = w;
      else out.problems.push(`a second channel ${quote40(w)}`);
      return;
    }
    if (kind === P_CONSTRAIN && first) {
      if (h.contentType === undefined) h.contentType = `<|constrain|>${w}`;
      else out.problems.push(`a second content type ${quote40(w)}`);
      return;
    }
    if (h.contentType === undefined) h.contentType = w;
    else out.problems.push(`unexpected ${quote40(w)}`);
  };
  for (let k = 0; k < kinds.length; k++) {
    const kind = kinds[k] as number;
    const words = (texts[k] as string).split(/\s+/).filter((w) => w !== "");
    if (kind === P_CHANNEL && words.length === 0) out.problems.push("<|channel|> without a channel name");
    if (kind === P_CONSTRAIN && words.length === 0) out.problems.push("<|constrain|> without a type");
    for (let i = 0; i < words.length; i++) word(words[i] as string, i === 0, kind);
  }
  if (out.role === "") out.problems.push("no role");
  return out;
}

/** The JSON arguments of a harmony tool call (the whole message content). */
function parseArguments(raw: string): { readonly [key: string]: JsonValue } | string {
  const text = raw.trim();
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `invalid JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (nestsDeeperThan(text, MAX_NESTING_DEPTH))
    return `the call is nested deeper than ${MAX_NESTING_DEPTH} levels`;
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "the arguments are not a JSON object";
  return v as { readonly [key: string]: JsonValue };
}

export class HarmonyDecoder implements Decoder {
  private readonly h: CoreHandler;
  private readonly spec: DecoderSpec;
  private readonly classes: Uint8Array;
  private readonly textOf: readonly string[];
  private readonly maxBuffered: number;
  private readonly maxTokens: number;
  private readonly streamTools: boolean;
  private readonly callerStops: ReadonlySet<number>;
  private readonly utf: Utf8Pending;
  /** Null without stop strings (matched in message content, not across markers). */
  private readonly matcher: StopMatcher | null;
  private readonly includeStop: boolean;

  private state = S_HEADER;
  private route = R_TEXT;
  private presetRole: string | undefined = "assistant";
  private kinds: number[] = [];
  private texts: string[] = [];
  private headerChars = 0;
  private reportedOutside = false;
  private inMessage = false;
  private actionKind = "";
  private toolName = "";
  private raw = "";
  private rawOverflow = false;
  private count = 0;
  private isStopped = false;
  private ended = false;
  /** Nonzero when the per-token fast path must not be taken (SLOW_* bits, see computeSlow). */
  private slow = 0;
  /** SLOW_OFF when constructed with fastPath false (the differential test), else 0. */
  private readonly off: number;

  /** `fastPath: false` only for tests: every token takes the checked path (same events). */
  constructor(spec: DecoderSpec, handler: DecoderHandler, options: DecoderOptions, fastPath = true) {
    this.spec = spec;
    this.classes = spec.classes;
    this.textOf = spec.text;
    const stopStrings = options.stopStrings ?? [];
    let stops: StopStrings | null = null;
    if (stopStrings instanceof StopStrings) {
      if (stopStrings.spec !== spec)
        throw new TypeError("stopStrings were compiled for another decoder spec");
      stops = stopStrings;
    } else if (stopStrings.length > 0) stops = compileStopStrings(spec, stopStrings);
    else checkStopStrings(stopStrings);
    this.matcher = stops === null ? null : new StopMatcher(stops);
    this.includeStop = options.includeStopString === true;
    const maxBuffered = options.maxBufferedChars ?? 1_000_000;
    if (!Number.isInteger(maxBuffered) || maxBuffered < 1)
      throw new TypeError("maxBufferedChars must be a positive integer");
    const maxTokens = options.maxTokens ?? -1;
    if (!Number.isInteger(maxTokens) || (options.maxTokens !== undefined && maxTokens < 1))
      throw new TypeError("maxTokens must be a positive integer");
    this.maxBuffered = maxBuffered;
    this.maxTokens = maxTokens;
    this.h = coreHandler(handler);
    this.streamTools = options.streamToolCalls === true;
    const callerStops = new Set<number>();
    for (const id of options.stopTokenIds ?? []) {
      if (!Number.isInteger(id)) throw new TypeError(`stop token id ${id} is not an integer`);
      if (!(id >= 0 && id < spec.eos.length && spec.eos[id] === 1)) callerStops.add(id);
    }
    this.callerStops = callerStops;
    this.utf = new Utf8Pending(spec.invalidUtf8);
    this.off = fastPath ? 0 : SLOW_OFF;
    this.resetHeader("assistant");
    this.slow = this.computeSlow();
  }

  /** The fast path is open only in message content routed to text or reasoning, nothing held. */
  private computeSlow(): number {
    let s = this.off;
    if (this.isStopped || this.ended) s |= SLOW_STOPPED;
    if (this.callerStops.size > 0) s |= SLOW_CALLER_STOPS;
    if (this.utf.len > 0) s |= SLOW_UTF8;
    if (this.state !== S_CONTENT || this.route > R_REASONING) s |= SLOW_STATE;
    return s;
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  private error(code: DecoderErrorCode, message: string, token?: number): void {
    this.h.onError(token === undefined ? { code, message } : { code, token, message });
  }

  private resetHeader(preset: string | undefined): void {
    this.state = S_HEADER;
    this.presetRole = preset;
    this.kinds = [P_HEAD];
    this.texts = [""];
    this.headerChars = 0;
  }

  // ---- text ----

  private text(t: string): void {
    switch (this.state) {
      case S_HEADER: {
        this.headerChars += t.length;
        if (this.headerChars > this.maxBuffered) {
          this.error("buffer-overflow", `message header longer than maxBufferedChars (${this.maxBuffered})`);
          this.state = S_SKIP;
          return;
        }
        const k = this.texts.length - 1;
        this.texts[k] += t;
        return;
      }
      case S_CONTENT:
        this.content(t);
        return;
      case S_BETWEEN:
        if (!this.reportedOutside) {
          this.reportedOutside = true;
          this.error("text-outside-message", `text outside a message: ${quote40(t)}`);
        }
        return;
      default:
        return;
    }
  }

  /** Message content: stop strings first (held text released at the span end). */
  private content(t: string): void {
    const m = this.matcher;
    if (m === null) {
      this.deliver(t);
      return;
    }
    const held0 = m.state === 0 ? "" : m.automaton.heldText(m.state);
    if (m.feed(t, 0)) {
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
    const out = held0.length + t.length - keep;
    if (out <= 0) return;
    if (out <= held0.length) this.deliver(held0.slice(0, out));
    else this.deliver(held0 + t.slice(0, out - held0.length));
  }

  /** Releases text held for a possible stop string (a marker ends the span). */
  private flushStopHold(): void {
    const m = this.matcher;
    if (m === null || m.state === 0) return;
    const held = m.automaton.heldText(m.state);
    m.reset();
    if (this.state === S_CONTENT) this.deliver(held);
  }

  private deliver(t: string): void {
    switch (this.route) {
      case R_TEXT:
        this.h.onText(t);
        return;
      case R_REASONING:
        this.h.onReasoning(t);
        return;
      default:
        this.h.onActionText(t);
        if (this.route === R_TOOL && this.streamTools) this.h.onToolCallArguments?.(t);
        if (this.rawOverflow) return;
        if (this.raw.length + t.length > this.maxBuffered) {
          this.rawOverflow = true;
          this.error(
            "buffer-overflow",
            `action text longer than maxBufferedChars (${this.maxBuffered}); its call will not be parsed`,
          );
          return;
        }
        this.raw += t;
    }
  }

  private flushUtf(): void {
    if (this.utf.len > 0) {
      const f = this.utf.flush();
      if (f !== "") this.text(f);
    }
  }

  // ---- structure ----

  private openMessage(): void {
    const p = parseHarmonyHeader(this.kinds, this.texts, this.presetRole);
    if (p.problems.length > 0) this.error("invalid-header", `harmony header: ${p.problems.join("; ")}`);
    const hd = p.header;
    const header: MessageHeader = {
      ...(hd.channel === undefined ? {} : { channel: hd.channel }),
      ...(hd.recipient === undefined ? {} : { recipient: hd.recipient }),
      ...(hd.contentType === undefined ? {} : { contentType: hd.contentType }),
    };
    const role = p.role === "tool" && p.name !== undefined ? p.name : p.role;
    this.state = S_CONTENT;
    this.inMessage = true;
    this.h.onMessageStart(role, hd.recipient ?? "", header);
    if (hd.channel !== undefined && !CHANNELS.has(hd.channel))
      this.error("unknown-channel", `unknown channel ${quote40(hd.channel)}; its content is text`);
    const r = hd.recipient;
    if (p.role === "assistant" && r !== undefined && r !== "all" && r !== "assistant") {
      this.raw = "";
      this.rawOverflow = false;
      if (r.startsWith("functions.")) {
        this.route = R_TOOL;
        this.actionKind = "tool_call";
        this.toolName = r.slice(10);
        this.h.onActionStart("tool_call");
        if (this.streamTools) this.h.onToolCallName?.(this.toolName);
      } else {
        this.route = R_ACTION;
        this.actionKind = r;
        this.toolName = r;
        this.h.onActionStart(r);
      }
    } else this.route = p.role === "assistant" && hd.channel === "analysis" ? R_REASONING : R_TEXT;
  }

  /** Ends the open message (its action first); onMessageEnd. */
  private closeMessage(): void {
    if (!this.inMessage) return;
    this.inMessage = false;
    if (this.route === R_TOOL || this.route === R_ACTION) {
      const kind = this.actionKind;
      const raw = this.raw;
      this.raw = "";
      if (this.rawOverflow) this.h.onActionEnd({ kind, raw, error: "action text exceeded maxBufferedChars" });
      else {
        const a = parseArguments(raw);
        if (typeof a === "string") this.h.onActionEnd({ kind, raw, error: a });
        else this.h.onActionEnd({ kind, raw, call: { name: this.toolName, arguments: a } });
      }
    }
    this.route = R_TEXT;
    this.h.onMessageEnd();
  }

  private misplaced(id: number): void {
    const name = this.spec.reservedName.get(id) ?? String(id);
    this.error("unexpected-reserved-token", `reserved token ${name} (${id}) is not valid here`, id);
  }

  /** A reserved ID (class `cls`, a move of the grammar or Misplaced / EndOfText). */
  private reserved(id: number, cls: number): void {
    this.flushStopHold();
    if (this.isStopped) return;
    const state = this.state;
    if (cls === Cls.MsgStart) {
      // The prompt may or may not end in "<|start|>assistant": a <|start|> before any header
      // text just starts the header over (no preset role).
      const empty = this.kinds.length === 1 && (this.texts[0] as string) === "";
      if (state === S_HEADER && !empty) this.error("invalid-header", "<|start|> inside a message header", id);
      else if (state === S_CONTENT) {
        this.error("unexpected-reserved-token", "<|start|> before the message ended", id);
        this.closeMessage();
      }
      this.reportedOutside = false;
      this.resetHeader(undefined);
      return;
    }
    if (state === S_HEADER) {
      if (cls === Cls.HeaderField) {
        if (this.kinds.length >= 64) {
          this.error("buffer-overflow", "message header has too many parts");
          this.state = S_SKIP;
          return;
        }
        this.kinds.push(this.spec.markerArg.get(id) === HeaderField.Channel ? P_CHANNEL : P_CONSTRAIN);
        this.texts.push("");
        return;
      }
      if (cls === Cls.HeaderEnd) {
        this.openMessage();
        return;
      }
      if (this.spec.eos[id] === 1) {
        this.error(
          "invalid-header",
          `stop token ${this.spec.reservedName.get(id) ?? id} inside a message header`,
          id,
        );
        return;
      }
      this.misplaced(id);
      return;
    }
    if (state === S_CONTENT) {
      // A message end (<|end|>, and <|return|> / <|call|>, which also stop when they are EOS IDs,
      // the default), or any EOS ID.
      if (cls === Cls.MsgEnd || this.spec.eos[id] === 1) {
        this.closeMessage();
        this.state = S_BETWEEN;
        this.reportedOutside = false;
        return;
      }
      this.misplaced(id);
      return;
    }
    // BETWEEN / SKIP: only a message start (above) or the end of text is expected.
    if (state === S_BETWEEN && cls !== Cls.EndOfText) this.misplaced(id);
  }

  private finish(reason: StopReason, token?: number, text?: string): void {
    if (this.isStopped) return;
    if (reason !== "stop_string") {
      this.flushUtf();
      if (this.isStopped) return;
      this.flushStopHold();
      if (this.isStopped) return;
    }
    if (this.state === S_HEADER && reason !== "eos") {
      const partial = this.kinds.length > 1 || (this.texts[0] as string) !== "";
      if (partial) this.error("invalid-header", "the stream ended inside a message header");
    }
    this.isStopped = true;
    this.slow |= SLOW_STOPPED;
    if (this.state === S_CONTENT && this.route >= R_TOOL) {
      // Like the other formats: an open action is parsed at the stop (no message_end).
      const kind = this.actionKind;
      const raw = this.raw;
      const a = this.rawOverflow ? "action text exceeded maxBufferedChars" : parseArguments(raw);
      if (typeof a === "string") this.h.onActionEnd({ kind, raw, error: a });
      else this.h.onActionEnd({ kind, raw, call: { name: this.toolName, arguments: a } });
      this.route = R_TEXT;
    }
    const info: StopInfo =
      token !== undefined ? { reason, token } : text !== undefined ? { reason, text } : { reason };
    this.h.onStop(info);
  }

  push(id: number): void {
    // A typed-array read: undefined for IDs outside the table, negative and non-integer ones
    // (those take the checked path). The typeof test keeps a numeric string ("5") off the fast
    // path: it throws there like everywhere.
    const cls = typeof id === "number" ? this.classes[id] : undefined;
    // Fast path (measured, bench decode-harmony.ts, harmony 8k, fresh decoders, one process:
    // 14.5-18.4 ns/token with it vs 19.2-20.2 without; floor ~2.6): a text ID in
    // analysis / final / commentary text, nothing held (no partial UTF-8), no caller stop IDs,
    // not stopped: the precomputed string goes straight to the handler, or to the stop-string
    // filter when its text may start a stop string. Tool-call arguments, headers and every
    // reserved ID take the checked path below.
    if (this.slow === 0 && (cls === Cls.Text || cls === Cls.TextNl)) {
      const t = this.textOf[id] as string;
      if (t !== "") {
        const m = this.matcher;
        if (m === null || (m.state === 0 && !m.automaton.mayStart(id))) {
          if (this.route === R_TEXT) this.h.onText(t);
          else this.h.onReasoning(t);
        } else this.content(t);
      }
      if (++this.count === this.maxTokens && !this.isStopped) this.finish("max_tokens");
      return;
    }
    this.checkedPush(id);
    this.slow = this.computeSlow();
  }

  private checkedPush(id: number): void {
    if (this.ended) throw new TypeError("push() after end(); call reset() to decode another stream");
    if (typeof id !== "number" || ((id | 0) !== id && !Number.isInteger(id)))
      throw new TypeError(`token id must be an integer, got ${String(id)}`);
    if (this.isStopped) return;
    this.count++;
    const cls = id >= 0 && id < this.classes.length ? (this.classes[id] as number) : Cls.OutOfRange;
    if (this.callerStops.size > 0 && this.callerStops.has(id)) {
      // A caller stop ID: its structural effect first, its text is not emitted.
      this.flushUtf();
      if (cls > Cls.EosPlain && !this.isStopped) this.reserved(id, cls);
      this.finish("stop_token", id);
      return;
    }
    if (cls === Cls.Text || cls === Cls.TextNl) {
      this.flushUtf();
      const t = this.textOf[id] as string;
      if (t !== "" && !this.isStopped) this.text(t);
    } else if (cls === Cls.Bytes) {
      const b = this.spec.bytes[id];
      if (b !== undefined) {
        const out = this.utf.feed(b);
        if (out !== "") this.text(out);
      }
    } else if (cls === Cls.OutOfRange)
      this.error("unknown-token", `token id ${id} is outside the vocabulary`, id);
    else if (cls !== Cls.Control) {
      this.flushUtf();
      if (this.isStopped) return;
      if (cls !== Cls.EosPlain) this.reserved(id, cls);
      if (this.isStopped) return;
      if (this.spec.eos[id] === 1) {
        this.finish("eos", id);
        return;
      }
    }
    if (this.count === this.maxTokens && !this.isStopped) this.finish("max_tokens");
  }

  pushMany(ids: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) this.push(ids[i] as number);
  }

  end(): void {
    if (this.ended) return;
    if (!this.isStopped) this.finish("end_of_input");
    this.ended = true;
    this.slow |= SLOW_STOPPED;
  }

  reset(): void {
    this.utf.reset();
    this.matcher?.reset();
    this.route = R_TEXT;
    this.reportedOutside = false;
    this.inMessage = false;
    this.actionKind = "";
    this.toolName = "";
    this.raw = "";
    this.rawOverflow = false;
    this.count = 0;
    this.isStopped = false;
    this.ended = false;
    this.resetHeader("assistant");
    this.slow = this.computeSlow();
  }
}
