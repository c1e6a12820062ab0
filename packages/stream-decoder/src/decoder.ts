// The per-stream decoder: token IDs in, events out through a handler object.
//
// States (one `switch` in spanText; the per-token fast path does not even reach it):
//
//   CONTENT     assistant text            ‹im_start›assistant\nHel|lo
//   REASONING   Qwen3 think text          ‹think›\nLet me |think
//   ACTION      action text (raw kept)    ‹action_start›‹plugin›\n{"name": |...
//   HEADER      ChatML header to "\n"     ‹im_start›environment na|me=‹plugin›\n
//   META        ChatGLM3 metadata line    ‹<|assistant|>›get_wea|ther\n```python
//   ACTION_KIND InternLM2 after           ‹action_start›|‹plugin›
//               <|action_start|>, waiting for <|plugin|> / <|interpreter|>
//   BETWEEN     after a message end (only when EOS is overridden), waiting for a start marker
//
// Structure comes ONLY from reserved IDs (classes resolved in ./spec.ts); decoded text is
// never matched against marker strings (pitfall B14). Text between two reserved IDs is a
// span: the deltas of a span concatenate to the reference one-shot decode of its IDs.
import { type ActionCall, ActionParser, parseAction } from "./action-parse.ts";
import type { DecoderErrorCode, DecoderHandler, StopInfo, StopReason } from "./events.ts";
import { type CoreHandler, coreHandler } from "./handler.ts";
import { HarmonyDecoder } from "./harmony-decoder.ts";
import { Cls, type DecoderSpec } from "./spec.ts";
import { checkStopStrings, compileStopStrings, StopMatcher, StopStrings } from "./stop-matcher.ts";
import { TemplateDecoder } from "./template-decoder.ts";
import { templateTurnsOf } from "./template-spec.ts";
import { ToolCallStreamHandler } from "./tool-call-stream.ts";
import { Utf8Pending } from "./utf8-pending.ts";

export interface DecoderOptions {
  /**
   * Stop strings, matched across tokens in text/reasoning/action text (not across markers).
   * Either the strings (compiled once per distinct set and spec, then cached) or a set
   * compiled with `compileStopStrings(spec, strings)` for the same spec.
   */
  readonly stopStrings?: readonly string[] | StopStrings;
  /** Extra stop IDs, added to the format's EOS IDs (reason "stop_token"). */
  readonly stopTokenIds?: readonly number[];
  /** Stop after this many pushed IDs (reason "max_tokens"). */
  readonly maxTokens?: number;
  /** Emit the matched stop string as text before stopping. */
  readonly includeStopString?: boolean;
  /**
   * Cap on held text (header line + header name, metadata line, action raw text). Default
   * 1,000,000 chars. Beyond it: a "buffer-overflow" error event (docs/decoder.md).
   */
  readonly maxBufferedChars?: number;
  /**
   * Report tool calls for OpenAI-style streaming: onToolCallName / onToolCallArguments
   * (./tool-call-stream.ts). Default false: then nothing of it is on the per-token path.
   */
  readonly streamToolCalls?: boolean;
}

export interface Decoder {
  /**
   * One generated token ID. Never throws for an integer (any integer: IDs outside the
   * vocabulary are "unknown-token" error events). Caller misuse throws TypeError: an ID that
   * is not an integer number (a string such as "5" included), or push() after end().
   */
  push(id: number): void;
  /** push() for each ID in order (same rules). */
  pushMany(ids: ArrayLike<number>): void;
  /** Flushes what is held and stops ("end_of_input" unless already stopped). Idempotent. */
  end(): void;
  reset(): void;
  readonly stopped: boolean;
}

const S_CONTENT = 0;
const S_REASONING = 1;
const S_ACTION = 2;
const S_HEADER = 3;
const S_META = 4;
const S_ACTION_KIND = 5;
const S_BETWEEN = 6;

/** How trailing "\n" of a text state is held back (the templates' own strip rules). */
const NL_NONE = 0;
/** Qwen3 content: the ONE "\n" the template writes before <tool_call>. */
const NL_ONE = 1;
/** Qwen3 reasoning: the template rstrips "\n" before </think>. */
const NL_ALL = 2;
/** InternLM2 right after <|action_end|>: the optional "\n" before <|im_end|>. */
const NL_AFTER_ACTION = 3;

/** How many held "\n" a span end drops (the ones the template wrote), see closeSpan. */
const DROP_NONE = 0;
const DROP_ONE = 1;
const DROP_ALL = 2;

/** n newlines (held runs are counted, never built, until they go out). */
function newlines(n: number): string {
  return n === 1 ? "\n" : "\n".repeat(n);
}

function trailingNewlines(s: string): number {
  let n = 0;
  while (n < s.length && s.charCodeAt(s.length - 1 - n) === 10) n++;
  return n;
}

function quote40(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** Bits of StreamDecoder.slow: why the per-token fast path cannot be taken right now. */
const SLOW_NOT_BEGUN = 1;
const SLOW_STATE = 2;
const SLOW_UTF8 = 4;
const SLOW_AT_START = 8;
const SLOW_HELD_NL = 16;
const SLOW_LSTRIP = 32;
const SLOW_AFTER_ACTION = 64;
const SLOW_STOPPED = 128;
const SLOW_CALLER_STOPS = 256;

const NO_CALLER_STOPS: ReadonlySet<number> = new Set();

export function createDecoder(
  spec: DecoderSpec,
  handler: DecoderHandler,
  options: DecoderOptions = {},
): Decoder {
  if (spec.format === "gpt-oss") return new HarmonyDecoder(spec, handler, options);
  // A template spec: turns and DeepSeek tool calls around native per-turn decoders.
  const turns = spec.format === "template" ? templateTurnsOf(spec) : undefined;
  if (turns !== undefined) return new TemplateDecoder(spec, turns, handler, options, nativeDecoder);
  return new StreamDecoder(spec, handler, options);
}

function nativeDecoder(spec: DecoderSpec, handler: DecoderHandler, options: DecoderOptions): Decoder {
  return new StreamDecoder(spec, handler, options);
}

/**
 * One stream. A class with prototype methods and every field set in the constructor (one
 * hidden class, small-integer fields). Measured (bench --quick, Qwen3): the closure version
 * made ~31 closures per stream, 10.9 KB and 23.6 µs per createDecoder() (38 µs with 2 stop
 * strings) and read every captured `let` through a context slot per token; this one is
 * ~575 B and ~150 ns (~180 ns with 2 stop strings).
 */
class StreamDecoder implements Decoder {
  // ---- per spec / options (never change) ----
  /** The caller's handler, or one wrapper class when it lacks callbacks (./handler.ts). */
  private readonly h: CoreHandler;
  private readonly spec: DecoderSpec;
  private readonly classes: Uint8Array;
  private readonly textOf: readonly string[];
  private readonly spanStarts: boolean;
  // When the start state of a span ends (DecodeTable.startEnds, matching the reference):
  // Text ends it unless it printed nothing under "first-visible"; Bytes always end it (they
  // always print); Control ends it only under "first-piece".
  private readonly firstPiece: boolean;
  private readonly firstVisible: boolean;
  private readonly isGlm: boolean;
  private readonly isQwen: boolean;
  private readonly maxBuffered: number;
  private readonly maxTokens: number;
  private readonly includeStop: boolean;
  /** Caller stop IDs (empty: then SLOW_CALLER_STOPS is never set). */
  private readonly callerStops: ReadonlySet<number>;
  /** Null without stop strings. */
  private readonly matcher: StopMatcher | null;

  // ---- per-stream state (all reset by reset()) ----
  private readonly utf: Utf8Pending;
  private state = S_CONTENT;
  private begun = false;
  private isStopped = false;
  private ended = false;
  private count = 0;
  /** Nonzero when the per-token fast path must not be taken (SLOW_* bits, see computeSlow). */
  private slow = SLOW_NOT_BEGUN;
  private atStart = false;
  private heldNl = 0;
  private lstrip = false;
  private nlMode = NL_NONE;
  private role = "assistant";
  /** HEADER / META line text. */
  private line = "";
  private headerName = "";
  private actionKind = "";
  private actionParser: ActionParser = ActionParser.Unknown;
  /**
   * Action text so far. Kept as `raw += t` on purpose: an array of chunks joined once at the
   * action end was measured SLOWER (Qwen3 tools 8k: 48 vs 34 ns/token; push ~7 ns + join
   * ~14 ns per chunk in V8 vs ~8 ns per cons string plus one flatten at JSON.parse).
   */
  private raw = "";
  private rawOverflow = false;

  constructor(spec: DecoderSpec, handler: DecoderHandler, options: DecoderOptions) {
    this.spec = spec;
    this.classes = spec.classes;
    this.textOf = spec.text;
    this.spanStarts = spec.startEnds !== "never";
    this.firstPiece = spec.startEnds === "first-piece";
    this.firstVisible = spec.startEnds === "first-visible";
    this.isGlm = spec.format === "chatglm3";
    this.isQwen = spec.format === "qwen3";

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
    // streamToolCalls: the caller's handler behind one that adds the tool-call events; off,
    // the handler is the caller's own and no code of the option runs per token (measured, an
    // A/B loop on bench's Qwen3 tools/mixed 8k: off = the code before the option, within
    // noise). On: tools 8k ~29 -> ~65 ns/token (nearly every token is argument text), mixed
    // 8k ~17 -> ~23. A process that uses BOTH settings makes the this.h call sites see two
    // handler shapes: its "off" decoders then cost ~1-3 ns/token more.
    const core = coreHandler(handler);
    this.h =
      options.streamToolCalls === true ? new ToolCallStreamHandler(core, spec.format, maxBuffered) : core;
    this.maxTokens = maxTokens;
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
    this.utf = new Utf8Pending(spec.invalidUtf8);
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  private computeSlow(): number {
    return (
      (this.begun ? 0 : SLOW_NOT_BEGUN) |
      (this.state > S_ACTION ? SLOW_STATE : 0) |
      (this.utf.len > 0 ? SLOW_UTF8 : 0) |
      (this.atStart ? SLOW_AT_START : 0) |
      (this.heldNl > 0 ? SLOW_HELD_NL : 0) |
      (this.lstrip ? SLOW_LSTRIP : 0) |
      (this.nlMode === NL_AFTER_ACTION ? SLOW_AFTER_ACTION : 0) |
      (this.isStopped || this.ended ? SLOW_STOPPED : 0) |
      (this.callerStops.size > 0 ? SLOW_CALLER_STOPS : 0)
    );
  }

  private error(code: DecoderErrorCode, message: string, token?: number): void {
    this.h.onError(token === undefined ? { code, message } : { code, token, message });
  }

  private begin(): void {
    this.begun = true;
    if (this.isGlm) {
      // The prompt ended with <|assistant|>: the metadata line comes first.
      this.openSegment("assistant");
      return;
    }
    this.h.onMessageStart("assistant", "");
    if (this.spec.startInReasoning) this.enterReasoning();
    else this.enterContent();
    this.atStart = this.spanStarts;
  }

  private enterContent(): void {
    this.state = S_CONTENT;
    this.nlMode = this.isQwen ? NL_ONE : NL_NONE;
  }

  private enterReasoning(): void {
    this.state = S_REASONING;
    // Qwen3's template strips "\n" around reasoning; a probed template ("template") is exact.
    this.nlMode = this.isQwen ? NL_ALL : NL_NONE;
    this.lstrip = this.isQwen;
  }

  private openSegment(r: string): void {
    this.state = S_META;
    this.role = r;
    this.line = "";
    this.atStart = this.spanStarts;
  }

  // ---- output: stop strings, then the handler ----

  private deliver(t: string): void {
    switch (this.state) {
      case S_CONTENT:
        this.h.onText(t);
        return;
      case S_REASONING:
        this.h.onReasoning(t);
        return;
      case S_ACTION:
        this.actionText(t);
        return;
    }
  }

  private actionText(t: string): void {
    this.h.onActionText(t);
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

  /** Text of an open span after format shaping; stop strings are found here. */
  private emitText(t: string): void {
    const m = this.matcher;
    if (m === null) {
      this.deliver(t);
      return;
    }
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

  /** Releases the text held for a possible stop string (span end). */
  private flushStopHold(): void {
    const m = this.matcher;
    if (m === null || m.state === 0) return;
    const held = m.automaton.heldText(m.state);
    m.reset();
    this.deliver(held);
  }

  /** Newline rules of the templates, applied before stop strings. */
  private shaped(chunk: string): void {
    let t = chunk;
    if (this.lstrip) {
      let i = 0;
      while (i < t.length && t.charCodeAt(i) === 10) i++;
      if (i === t.length) return;
      this.lstrip = false;
      if (i > 0) t = t.slice(i);
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

  /** Decoded text of the current span, routed by state. */
  private spanText(t: string): void {
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
      case S_ACTION_KIND:
        this.error(
          "missing-action-kind",
          "<|action_start|> was not followed by <|plugin|> or <|interpreter|>",
        );
        this.startAction("unknown", ActionParser.Unknown);
        this.shaped(t);
        return;
      case S_BETWEEN:
        // The templates write "\n" after a message end: whitespace here is not content.
        if (/^\s*$/.test(t)) return;
        this.error("text-outside-message", `text outside a message: ${quote40(t)}`);
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
    // Header and content are one enc() call in ChatML: same span, no new start.
    if (rest !== "") this.shaped(rest);
  }

  /** A header (text + name tokens) over maxBufferedChars: what is held becomes content. */
  private headerOverflow(): void {
    const line = this.line;
    this.line = "";
    const name = this.headerName;
    this.headerName = "";
    this.h.onMessageStart("", name);
    this.enterContent();
    if (line !== "") this.shaped(line);
    if (this.isStopped) return;
    this.error("buffer-overflow", `message header longer than maxBufferedChars (${this.maxBuffered})`);
  }

  /** "ROLE[ name=NAME]" (NAME may also come as <|plugin|>/<|interpreter|> tokens). */
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
    this.enterContent();
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
    this.h.onMessageStart(role, metadata);
    if (role === "assistant" && metadata !== "") {
      this.startAction(
        metadata,
        metadata === "interpreter" ? ActionParser.Interpreter : ActionParser.GlmToolCall,
      );
    } else this.enterContent();
    // The content is its own enc() call: a new span with its own start rule.
    this.atStart = this.spanStarts && rest === "";
    if (rest !== "") this.shaped(rest);
  }

  /** A metadata line that never ended: like the vendor's process_response, it was content. */
  private metaAsContent(): void {
    const held = this.line;
    this.line = "";
    this.h.onMessageStart(this.role, "");
    this.enterContent();
    if (held !== "") this.shaped(held);
  }

  private startAction(kind: string, parser: ActionParser): void {
    this.h.onActionStart(kind);
    this.state = S_ACTION;
    this.nlMode = NL_NONE;
    this.actionKind = kind;
    this.actionParser = parser;
    this.raw = "";
    this.rawOverflow = false;
  }

  private endAction(): void {
    const kind = this.actionKind;
    const text = this.raw;
    this.raw = "";
    if (this.rawOverflow)
      this.h.onActionEnd({ kind, raw: text, error: "action text exceeded maxBufferedChars" });
    else {
      const r = parseAction(this.actionParser, text, kind);
      if ("call" in r) this.h.onActionEnd({ kind, raw: text, call: r.call as ActionCall });
      else this.h.onActionEnd({ kind, raw: text, error: r.error });
    }
    this.enterContent();
  }

  // ---- pieces ----

  private textPiece(id: number): void {
    if (this.utf.len > 0) {
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
    const out = this.utf.feed(b);
    if (out !== "") this.spanText(out);
  }

  private controlPiece(): void {
    if (this.firstPiece) this.atStart = false;
    if (this.spec.controlFlushes && this.utf.len > 0) {
      const f = this.utf.flush();
      if (f !== "") this.spanText(f);
    }
  }

  /**
   * A reserved ID ends the span: held bytes resolve (U+FFFD if cut), held newlines go out
   * (or are dropped when the template wrote them), held stop-string text goes out.
   */
  private closeSpan(drop: number): void {
    if (this.utf.len > 0) {
      const f = this.utf.flush();
      if (f !== "") this.spanText(f);
      if (this.isStopped) return;
    }
    if (this.heldNl > 0) {
      const n = drop === DROP_ALL ? 0 : drop === DROP_ONE ? this.heldNl - 1 : this.heldNl;
      this.heldNl = 0;
      if (n > 0) this.emitText(newlines(n));
      if (this.isStopped) return;
    }
    this.flushStopHold();
    this.atStart = this.spanStarts;
    this.lstrip = false;
  }

  private misplaced(id: number): void {
    this.closeSpan(DROP_NONE);
    if (this.isStopped) return;
    const name = this.spec.reservedName.get(id) ?? String(id);
    this.error("unexpected-reserved-token", `reserved token ${name} (${id}) is not valid here`, id);
  }

  /** ChatGLM3 segment end (a role marker, or a stop). */
  private closeGlmSegment(): void {
    if (this.state === S_META) this.metaAsContent();
    if (this.isStopped) return;
    this.closeSpan(DROP_NONE);
    if (this.isStopped) return;
    if (this.state === S_ACTION) this.endAction();
  }

  private marker(cls: number, id: number): void {
    const state = this.state;
    switch (cls) {
      case Cls.MsgEnd:
        // <|im_end|>
        if (state === S_ACTION_KIND) this.state = S_CONTENT;
        if (this.state > S_ACTION) {
          this.misplaced(id);
          return;
        }
        // InternLM2 after <|action_end|>: the template writes at most ONE "\n" before
        // <|im_end|>; more are text (they used to be dropped).
        this.closeSpan(this.nlMode === NL_AFTER_ACTION ? DROP_ONE : DROP_NONE);
        if (this.isStopped) return;
        if (this.state === S_ACTION) this.endAction();
        this.h.onMessageEnd();
        this.state = S_BETWEEN;
        return;
      case Cls.MsgStart:
        // <|im_start|>ROLE...
        if (state !== S_BETWEEN) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        this.state = S_HEADER;
        this.line = "";
        this.headerName = "";
        return;
      case Cls.ActionStart:
        if (state !== S_CONTENT) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        if (this.isStopped) return;
        this.state = S_ACTION_KIND;
        return;
      case Cls.KindPlugin:
      case Cls.KindInterpreter: {
        const name = cls === Cls.KindPlugin ? "plugin" : "interpreter";
        if (state === S_HEADER) {
          this.closeSpan(DROP_NONE);
          this.headerName += name;
          // Name tokens count against the cap like header text (a run of them was unbounded).
          if (this.line.length + this.headerName.length > this.maxBuffered) this.headerOverflow();
          return;
        }
        if (state !== S_ACTION_KIND) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        this.startAction(
          name,
          cls === Cls.KindPlugin ? ActionParser.InternLM2Plugin : ActionParser.Interpreter,
        );
        return;
      }
      case Cls.ActionEnd:
        if (state !== S_ACTION) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        if (this.isStopped) return;
        this.endAction();
        this.nlMode = NL_AFTER_ACTION;
        return;
      case Cls.ToolCall:
        if (state !== S_CONTENT) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_ONE);
        if (this.isStopped) return;
        this.startAction("tool_call", ActionParser.QwenToolCall);
        return;
      case Cls.ToolCallEnd:
        if (state !== S_ACTION) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        if (this.isStopped) return;
        this.endAction();
        return;
      case Cls.Think:
        if (state !== S_CONTENT) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_NONE);
        if (this.isStopped) return;
        this.enterReasoning();
        return;
      case Cls.ThinkEnd:
        if (state !== S_REASONING) {
          this.misplaced(id);
          return;
        }
        this.closeSpan(DROP_ALL);
        if (this.isStopped) return;
        this.enterContent();
        this.lstrip = this.isQwen;
        return;
      case Cls.Role:
        // ChatGLM3 <|assistant|> / <|user|> / <|observation|>: the segment ends here.
        if (state === S_BETWEEN) this.closeSpan(DROP_NONE);
        else {
          this.closeGlmSegment();
          if (this.isStopped) return;
          this.h.onMessageEnd();
        }
        // An EOS role marker (<|user|>, <|observation|>) stops here: no new segment opens.
        if (this.spec.eos[id] === 1) this.state = S_BETWEEN;
        else this.openSegment(this.spec.roleOf.get(id) ?? "assistant");
        return;
      case Cls.EndOfText:
        if (this.spec.eos[id] !== 1) this.misplaced(id);
        return;
      default:
        this.misplaced(id);
    }
  }

  private finish(reason: StopReason, token?: number, text?: string): void {
    if (this.isStopped) return;
    if (reason !== "stop_string") {
      if (this.state === S_META) this.metaAsContent();
      if (this.isStopped) return;
      if (this.state === S_HEADER) {
        const l = this.line;
        this.line = "";
        this.openHeader(l);
      }
      this.closeSpan(DROP_NONE);
      if (this.isStopped) return;
    }
    this.isStopped = true;
    this.slow |= SLOW_STOPPED;
    if (this.state === S_ACTION) this.endAction();
    const info: StopInfo =
      token !== undefined ? { reason, token } : text !== undefined ? { reason, text } : { reason };
    this.h.onStop(info);
  }

  private slowPush(id: number, cls: number): void {
    if (!this.begun) this.begin();
    if (this.callerStops.has(id)) {
      // A caller stop ID: its structural effect first (a marker such as <|action_end|>
      // still closes the action), its text is not emitted.
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
    const slow = this.slow;
    // A typed-array read: undefined for IDs outside the table, negative and non-integer ones
    // (those take the checked path below). The typeof test keeps a numeric string ("5", which
    // a typed array would index like 5) off the fast path: it throws there like everywhere.
    const cls = typeof id === "number" ? this.classes[id] : undefined;
    // Fast path (measured, bench --quick, Qwen3 plain 8k, reused decoder: ~7.7 ns/token vs a
    // ~2.8 ns floor of "read string, call callback"; it was ~17.8 ns with closures): plain
    // text in an open span with nothing held (no partial UTF-8, no span start, no held
    // newline), no caller stop IDs, not stopped: the precomputed string goes straight to the
    // handler, or to the stop-string filter when its text may start a stop string.
    if (slow === 0 && (cls === Cls.Text || (cls === Cls.TextNl && this.nlMode === NL_NONE))) {
      const t = this.textOf[id] as string;
      const m = this.matcher;
      // With stop strings: a byte per ID says whether its text can start one (computed once
      // per ID and stop set), so most tokens skip the per-character scan.
      if (m === null || (m.state === 0 && !m.automaton.mayStart(id))) {
        const state = this.state;
        if (state === S_CONTENT) this.h.onText(t);
        else if (state === S_REASONING) this.h.onReasoning(t);
        else this.actionText(t);
      } else this.emitText(t);
      if (++this.count === this.maxTokens) this.finish("max_tokens");
      return;
    }
    // Newline-ending text (Qwen3 content / reasoning hold trailing "\n") and the token right
    // after it: the template's newline rule without the checked slow path (about 1 token in
    // 20 in Qwen3 mixed 8k, where it used to cost two slow pushes: mixed 8k went from 26.7
    // to ~13 ns/token with the other changes).
    if ((slow === 0 || slow === SLOW_HELD_NL) && (cls === Cls.Text || cls === Cls.TextNl)) {
      const t = this.textOf[id] as string;
      if (t !== "") this.shaped(t);
      this.slow = this.computeSlow();
      if (++this.count === this.maxTokens) this.finish("max_tokens");
      return;
    }
    this.checkedPush(id);
  }

  private checkedPush(id: number): void {
    if (this.ended) throw new TypeError("push() after end(); call reset() to decode another stream");
    // (id | 0) === id is the cheap check for the common case (small non-negative integers).
    if ((id | 0) !== id && !Number.isInteger(id)) {
      throw new TypeError(`token id must be an integer, got ${String(id)}`);
    }
    if (this.isStopped) return;
    this.count++;
    const cls = id >= 0 && id < this.classes.length ? (this.classes[id] as number) : Cls.OutOfRange;
    this.slowPush(id, cls);
    this.slow = this.computeSlow();
    if (this.count === this.maxTokens && !this.isStopped) this.finish("max_tokens");
  }

  pushMany(ids: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) this.push(ids[i] as number);
  }

  end(): void {
    if (this.ended) return;
    if (!this.begun) this.begin();
    if (!this.isStopped) this.finish("end_of_input");
    this.ended = true;
    this.slow |= SLOW_STOPPED;
  }

  reset(): void {
    this.utf.reset();
    this.matcher?.reset();
    this.state = S_CONTENT;
    this.begun = false;
    this.isStopped = false;
    this.ended = false;
    this.count = 0;
    this.atStart = false;
    this.heldNl = 0;
    this.lstrip = false;
    this.nlMode = NL_NONE;
    this.role = "assistant";
    this.line = "";
    this.headerName = "";
    this.actionKind = "";
    this.actionParser = ActionParser.Unknown;
    this.raw = "";
    this.rawOverflow = false;
    this.slow = this.computeSlow();
  }
}
