// The decoder of a template-only model (a spec from compileTemplateDecoderSpec): the native
// per-token decoder for each turn's text, plus the two things a probed template adds that the
// class table cannot say (./template-spec.ts TemplateTurns):
//
// - more than one turn. With the EOS IDs overridden (eosIds: []), the end of turn closes the
//   message and decoding goes on, as the native decoder does with <|im_start|>: the IDs that
//   follow are matched against the template's own turn openings, ID for ID —
//     ‹<|eot_id|>›‹<|start_header_id|>›assistant‹<|end_header_id|>›\n\n|Next reply
//   — the generation prompt opens an assistant message, the user opening a user message. Text
//   before an opening (the "\n" after <|im_end|>) and IDs that open nothing go to the previous
//   turn's decoder, which handles them as the native decoder does between messages (whitespace
//   ignored, other text "text-outside-message", markers "unexpected-reserved-token").
// - DeepSeek's tool calls (V3 / R1, when the probe found all five markers):
//     ‹<｜tool▁calls▁begin｜>›‹<｜tool▁call▁begin｜>›function‹<｜tool▁sep｜>›get_weather\n```json\n{"city": "Paris"}\n```‹<｜tool▁call▁end｜>›‹<｜tool▁calls▁end｜>›
//   each call is one action ("tool_call"): onActionStart at <｜tool▁call▁begin｜>, the body
//   after <｜tool▁sep｜> as action text, onActionEnd with {name, arguments} (or an error) at
//   <｜tool▁call▁end｜>. The block may end without <｜tool▁calls▁end｜> (the V3 template writes none
//   after a single call): the end of turn then closes it. Not covered: streamToolCalls events
//   and stop strings inside these bodies (text of the turn is covered by both).
//
// Each turn (and the text after a tool-call block) is its own native decoder behind one proxy
// handler: a new turn's message start is renamed (a user turn) or dropped (the continuation of
// the same message after its tool calls); the inner decoders' own stops are the stream's stop,
// the ones this class causes by closing a turn are not reported. Bounded: the held opening is
// at most the longest opening; a call body is capped by maxBufferedChars.
import type { ActionCall, ActionResult } from "./action-parse.ts";
import type { Decoder, DecoderOptions } from "./decoder.ts";
import type { ActionEnd, DecoderError, DecoderHandler, MessageHeader, StopInfo } from "./events.ts";
import { type CoreHandler, coreHandler } from "./handler.ts";
import type { DecoderSpec } from "./spec.ts";
import { StopStrings } from "./stop-matcher.ts";
import type { TemplateTurns } from "./template-spec.ts";

/** Builds a native decoder (decoder.ts passes its own, so this file does not import it). */
export type NativeDecoderFactory = (
  spec: DecoderSpec,
  handler: DecoderHandler,
  options: DecoderOptions,
) => Decoder;

/** Inside a turn: IDs go to the turn's native decoder. */
const T_TURN = 0;
/** After an end of turn that was not a stop: matching a turn opening. */
const T_BETWEEN = 1;
/** Inside <｜tool▁calls▁begin｜>, between calls. */
const T_CALLS = 2;
/** After <｜tool▁call▁begin｜>: the call type, up to <｜tool▁sep｜>. */
const T_CALL_TYPE = 3;
/** After <｜tool▁sep｜>: the name line and the fenced arguments, up to <｜tool▁call▁end｜>. */
const T_CALL_BODY = 4;

function quote40(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/**
 * A DeepSeek call body: `NAME\n```json\nARGS\n```` with type "function". Linear (no regex over
 * the body: a lazy fence match backtracks on bodies with many fences).
 */
export function parseFencedCall(type: string, body: string): ActionResult {
  if (type.trim() !== "function") return { error: `tool call type ${quote40(type)} is not "function"` };
  const nl = body.indexOf("\n");
  if (nl < 0) return { error: "tool call without a name line" };
  const name = body.slice(0, nl).trim();
  if (name === "") return { error: "tool call with an empty function name" };
  let rest = body.slice(nl + 1);
  let end = rest.length;
  while (end > 0 && /\s/.test(rest.charAt(end - 1))) end--;
  rest = rest.slice(0, end);
  if (!rest.startsWith("```") || !rest.endsWith("```") || rest.length < 6)
    return { error: "tool call arguments are not in a ``` fence" };
  const open = rest.indexOf("\n");
  if (open < 0 || open > rest.length - 3) return { error: "tool call arguments are not in a ``` fence" };
  const lang = rest.slice(3, open).trim();
  if (lang !== "" && lang !== "json") return { error: `tool call fence ${quote40(lang)} is not json` };
  const json = rest.slice(open + 1, rest.length - 3);
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return { error: "tool call arguments are not valid JSON" };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return { error: "tool call arguments are not a JSON object" };
  return { call: { name, arguments: v as ActionCall["arguments"] } };
}

/** Between the inner decoders and the caller's handler. */
class TurnProxy implements CoreHandler {
  /** The role of the current turn when it is not the assistant's. */
  role: string | null = null;
  /** Drop the next message start (the message goes on after its tool calls). */
  dropStart = false;
  /** An inner decoder is being closed by TemplateDecoder: its stop is not the stream's. */
  closing = false;
  /** The current turn's message ended (an end of turn that was not a stop). */
  turnEnded = false;
  /** An inner decoder stopped on its own (EOS, stop ID, stop string): the stream's stop. */
  stopped = false;

  constructor(private readonly out: CoreHandler) {}

  onMessageStart(role: string, metadata: string, header?: MessageHeader): void {
    if (this.dropStart) {
      this.dropStart = false;
      return;
    }
    if (header === undefined) this.out.onMessageStart(this.role ?? role, metadata);
    else this.out.onMessageStart(this.role ?? role, metadata, header);
  }
  onText(text: string): void {
    this.out.onText(text);
  }
  onReasoning(text: string): void {
    this.out.onReasoning(text);
  }
  onActionStart(kind: string): void {
    this.out.onActionStart(kind);
  }
  onActionText(text: string): void {
    this.out.onActionText(text);
  }
  onActionEnd(end: ActionEnd): void {
    this.out.onActionEnd(end);
  }
  onMessageEnd(): void {
    this.turnEnded = true;
    this.out.onMessageEnd();
  }
  onStop(stop: StopInfo): void {
    if (this.closing) return;
    this.stopped = true;
    this.out.onStop(stop);
  }
  onError(error: DecoderError): void {
    this.out.onError(error);
  }
  onToolCallName(name: string): void {
    this.out.onToolCallName?.(name);
  }
  onToolCallArguments(text: string): void {
    this.out.onToolCallArguments?.(text);
  }
}

export class TemplateDecoder implements Decoder {
  private readonly out: CoreHandler;
  private readonly proxy: TurnProxy;
  private readonly turnOptions: DecoderOptions;
  private readonly plainOptions: DecoderOptions;
  private readonly maxTokens: number;
  private readonly maxBuffered: number;
  /** The two openings, longest first, with their roles. */
  private readonly openings: ReadonlyArray<readonly [readonly number[], string]>;

  private inner: Decoder;
  private state = T_TURN;
  /** The IDs of an opening matched so far (T_BETWEEN). */
  private held: number[] = [];
  /** Decodes call text (T_CALLS .. T_CALL_BODY); null between uses. */
  private collector: Decoder | null = null;
  private collected = "";
  private overflow = false;
  private callType = "";
  private count = 0;
  private ended = false;
  private isStopped = false;

  constructor(
    private readonly spec: DecoderSpec,
    private readonly turns: TemplateTurns,
    handler: DecoderHandler,
    options: DecoderOptions,
    private readonly factory: NativeDecoderFactory,
  ) {
    this.out = coreHandler(handler);
    this.proxy = new TurnProxy(this.out);
    const maxTokens = options.maxTokens ?? -1;
    if (!Number.isInteger(maxTokens) || (options.maxTokens !== undefined && maxTokens < 1))
      throw new TypeError("maxTokens must be a positive integer");
    this.maxTokens = maxTokens;
    this.maxBuffered = options.maxBufferedChars ?? 1_000_000;
    // The stream counts its own tokens: the turns' decoders get no maxTokens.
    const { maxTokens: _drop, ...turnOptions } = options;
    this.turnOptions = turnOptions;
    // A user turn / tool-call text may use the spec variant that does not start in reasoning:
    // stop strings compiled for the main spec are passed as strings there.
    const stops = options.stopStrings;
    this.plainOptions =
      turns.userSpec !== spec && stops instanceof StopStrings
        ? { ...turnOptions, stopStrings: stops.patterns }
        : turnOptions;
    const openings: Array<readonly [readonly number[], string]> = [];
    if (turns.assistantPrompt.length > 0) openings.push([turns.assistantPrompt, "assistant"]);
    if (turns.userPrompt.length > 0) openings.push([turns.userPrompt, "user"]);
    openings.sort((a, b) => b[0].length - a[0].length);
    this.openings = openings;
    this.inner = factory(spec, this.proxy, turnOptions);
  }

  get stopped(): boolean {
    return this.isStopped || this.proxy.stopped;
  }

  push(id: number): void {
    if (this.ended) throw new TypeError("push() after end(); call reset() to decode another stream");
    if (typeof id !== "number" || !Number.isInteger(id))
      throw new TypeError(`token id must be an integer, got ${String(id)}`);
    if (this.stopped) return;
    this.count++;
    this.route(id);
    if (this.count === this.maxTokens && !this.stopped) this.stop({ reason: "max_tokens" });
  }

  pushMany(ids: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) this.push(ids[i] as number);
  }

  end(): void {
    if (this.ended) return;
    if (!this.stopped) this.stop({ reason: "end_of_input" });
    this.ended = true;
  }

  reset(): void {
    this.proxy.role = null;
    this.proxy.dropStart = false;
    this.proxy.closing = false;
    this.proxy.turnEnded = false;
    this.proxy.stopped = false;
    this.inner = this.factory(this.spec, this.proxy, this.turnOptions);
    this.state = T_TURN;
    this.held = [];
    this.collector = null;
    this.collected = "";
    this.overflow = false;
    this.callType = "";
    this.count = 0;
    this.ended = false;
    this.isStopped = false;
  }

  // ---- routing ----

  private route(id: number): void {
    switch (this.state) {
      case T_TURN: {
        const f = this.turns.fencedToolCalls;
        if (f !== null && id === f.callsBegin) {
          this.closeInner();
          this.state = T_CALLS;
          return;
        }
        // A user turn that the template closes with no end of turn (DeepSeek's
        // <｜User｜>…<｜Assistant｜>): an opening ends it.
        if (this.proxy.role !== null && this.opensTurn(id)) {
          this.closeInner();
          this.out.onMessageEnd();
          this.state = T_BETWEEN;
          this.held = [];
          this.between(id);
          return;
        }
        this.inner.push(id);
        if (this.proxy.turnEnded && !this.proxy.stopped) {
          this.proxy.turnEnded = false;
          this.state = T_BETWEEN;
          this.held = [];
        }
        return;
      }
      case T_BETWEEN:
        this.between(id);
        return;
      default:
        this.inCalls(id);
    }
  }

  private opensTurn(id: number): boolean {
    for (const [ids] of this.openings) if (ids[0] === id) return true;
    return false;
  }

  /** After an end of turn: an opening of the template starts the next turn. */
  private between(id: number): void {
    if (this.held.length === 0 && !this.spec.reservedName.has(id)) {
      this.inner.push(id);
      return;
    }
    this.held.push(id);
    const n = this.held.length;
    for (const [ids, role] of this.openings) {
      let prefix = ids.length >= n;
      for (let k = 0; prefix && k < n; k++) if (ids[k] !== this.held[k]) prefix = false;
      if (!prefix) continue;
      if (ids.length === n) this.openTurn(role);
      return;
    }
    // Opens nothing: what was held goes to the previous turn's decoder (native handling).
    const held = this.held;
    this.held = [];
    for (const x of held) {
      this.inner.push(x);
      if (this.proxy.stopped) return;
    }
  }

  private openTurn(role: string): void {
    this.held = [];
    this.closeInner();
    const user = role !== "assistant";
    this.proxy.role = user ? role : null;
    this.inner = user
      ? this.factory(this.turns.userSpec, this.proxy, this.plainOptions)
      : this.factory(this.spec, this.proxy, this.turnOptions);
    this.state = T_TURN;
  }

  /** The same message goes on after its tool-call block (never in reasoning). */
  private continueTurn(): void {
    this.proxy.dropStart = true;
    this.inner = this.factory(this.turns.userSpec, this.proxy, this.plainOptions);
    this.state = T_TURN;
  }

  private closeInner(): void {
    this.proxy.closing = true;
    try {
      this.inner.end();
    } finally {
      this.proxy.closing = false;
    }
  }

  // ---- DeepSeek tool calls ----

  private inCalls(id: number): void {
    const f = this.turns.fencedToolCalls;
    if (f === null) return;
    if (!this.spec.reservedName.has(id)) {
      this.collect(id);
      return;
    }
    switch (this.state) {
      case T_CALLS: {
        const between = this.flushText();
        if (between.trim() !== "")
          this.out.onError({
            code: "text-outside-message",
            message: `text between tool calls: ${quote40(between)}`,
          });
        if (id === f.callBegin) {
          this.state = T_CALL_TYPE;
          this.out.onActionStart("tool_call");
          return;
        }
        // <｜tool▁calls▁end｜>, or the block ends at what follows it (the end of turn).
        this.continueTurn();
        if (id !== f.callsEnd) this.route(id);
        return;
      }
      case T_CALL_TYPE:
        if (id === f.sep) {
          this.callType = this.flushText();
          this.state = T_CALL_BODY;
          return;
        }
        this.failCall("<｜tool▁sep｜> missing", this.flushText());
        this.inCalls(id);
        return;
      case T_CALL_BODY: {
        if (id !== f.callEnd) {
          this.failCall("tool call not closed with <｜tool▁call▁end｜>", this.flushText());
          this.inCalls(id);
          return;
        }
        const raw = this.flushText();
        if (this.overflow)
          this.out.onActionEnd({ kind: "tool_call", raw, error: "action text exceeded maxBufferedChars" });
        else {
          const r = parseFencedCall(this.callType, raw);
          if ("call" in r) this.out.onActionEnd({ kind: "tool_call", raw, call: r.call });
          else this.out.onActionEnd({ kind: "tool_call", raw, error: r.error });
        }
        this.overflow = false;
        this.state = T_CALLS;
        return;
      }
    }
  }

  private failCall(error: string, raw: string): void {
    this.out.onActionEnd({ kind: "tool_call", raw, error });
    this.overflow = false;
    this.state = T_CALLS;
  }

  /** Decodes a text ID of a call (native byte handling: held bytes, U+FFFD rules). */
  private collect(id: number): void {
    if (this.collector === null) {
      this.collected = "";
      this.collector = this.factory(
        this.turns.userSpec,
        {
          onText: (t: string): void => this.collectedText(t),
          onError: (e: DecoderError): void => this.out.onError(e),
        },
        { maxBufferedChars: this.maxBuffered },
      );
    }
    this.collector.push(id);
  }

  private collectedText(t: string): void {
    if (this.state === T_CALL_BODY && t !== "") this.out.onActionText(t);
    if (this.overflow) return;
    if (this.collected.length + t.length > this.maxBuffered) {
      this.overflow = true;
      return;
    }
    this.collected += t;
  }

  /** The text collected since the last marker (held bytes flushed). */
  private flushText(): string {
    if (this.collector !== null) {
      this.collector.end();
      this.collector = null;
    }
    const t = this.collected;
    this.collected = "";
    return t;
  }

  // ---- stop ----

  private stop(info: StopInfo): void {
    switch (this.state) {
      case T_BETWEEN: {
        const held = this.held;
        this.held = [];
        for (const x of held) {
          this.inner.push(x);
          if (this.proxy.stopped) return;
        }
        this.closeInner();
        break;
      }
      case T_TURN:
        this.closeInner();
        break;
      case T_CALLS:
        this.flushText();
        break;
      default:
        this.failCall("tool call not closed before the stream stopped", this.flushText());
    }
    if (this.proxy.stopped) return;
    this.isStopped = true;
    this.out.onStop(info);
  }
}
