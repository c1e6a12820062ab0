// The reference decoder of a template-only model: the reference engine (./engine.ts) per turn,
// and the turn grammar of the probed template (../template-spec.ts TemplateTurns) read ID for
// ID. After an end of turn (EOS overridden), the IDs that follow are matched against the
// template's turn openings (the generation prompt: an assistant turn; the user opening: a user
// turn, its message start renamed); IDs that open nothing go to the previous turn's decoder,
// which treats them as text or markers between messages. A template whose calls are turns of
// their own after the end of turn (TemplateTurns.callTurn): the assistant's message end waits
// while the decoded text after it is a prefix of the call turn's opening; the whole opening and
// its header token start the call (a turn decoder of the spec that starts in the call block),
// anything else reports the message end and goes on as above. HF ByteFallback byte runs are
// resolved first by the same filter as the engine's (../template-decoding/byte-run.ts: the
// vendor's rule, one implementation).
import type { DecoderHandler, MessageHeader, StopInfo } from "../events.ts";
import { type CoreHandler, coreHandler } from "../handler.ts";
import { Cls, classOf, type DecoderSpec } from "../spec.ts";
import { StopStrings } from "../stop-matcher.ts";
import { ByteRun } from "../template-decoding/byte-run.ts";
import type { TemplateTurns } from "../template-spec.ts";
import type { Decoder, DecoderOptions } from "../types.ts";
import { ReferenceDecoder } from "./engine.ts";

export class ReferenceTemplateDecoder implements Decoder {
  private readonly out: CoreHandler;
  private readonly maxTokens: number;
  private readonly turnOptions: DecoderOptions;
  private readonly userOptions: DecoderOptions;
  private readonly bytes: ByteRun | null;
  private inner: ReferenceDecoder;
  /** An opening ended the inner decoder's turn (it takes no more IDs). */
  private innerEnded = false;
  /** Role of the current turn when it is not the assistant's (its message start is renamed). */
  private userRole: string | null = null;
  /** An end of turn was seen: IDs are matched against the openings. */
  private between = false;
  /** An assistant's message end is held: the IDs are matched against the call turn's opening. */
  private pendingEnd = false;
  /** The decoded text of the IDs held while pendingEnd. */
  private callText = "";
  /** The next message start is not reported (the call turn's decoder continues the message). */
  private skipStart = false;
  /** The IDs of an opening matched so far. */
  private held: number[] = [];
  /** The inner decoder is being ended by this layer: its stop is not the stream's. */
  private closing = false;
  private turnEnded = false;
  private innerStopped = false;
  private count = 0;
  private ended = false;
  private isStopped = false;

  constructor(
    private readonly spec: DecoderSpec,
    private readonly turns: TemplateTurns,
    handler: DecoderHandler,
    options: DecoderOptions,
  ) {
    this.out = coreHandler(handler);
    this.maxTokens = options.maxTokens ?? -1;
    if (!Number.isInteger(this.maxTokens) || (options.maxTokens !== undefined && this.maxTokens < 1))
      throw new TypeError("maxTokens must be a positive integer");
    // The stream counts its own tokens; a user turn's spec takes the stop strings as strings.
    const { maxTokens: _count, ...turnOptions } = options;
    this.turnOptions = turnOptions;
    const stops = options.stopStrings;
    this.userOptions =
      stops instanceof StopStrings ? { ...turnOptions, stopStrings: stops.patterns } : turnOptions;
    this.bytes =
      turns.byteRun === null ? null : new ByteRun(turns.byteRun, options.maxBufferedChars ?? 1_000_000);
    this.inner = this.turn(spec, turnOptions);
  }

  get stopped(): boolean {
    return this.isStopped || this.innerStopped;
  }

  push(id: number): void {
    if (this.ended) throw new TypeError("push() after end(); call reset() to decode another stream");
    if (typeof id !== "number" || !Number.isInteger(id))
      throw new TypeError(`token id must be an integer, got ${String(id)}`);
    if (this.stopped) return;
    this.count++;
    if (this.bytes === null) this.route(id);
    else this.bytes.push(id, this.sink);
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
    this.bytes?.reset();
    this.userRole = null;
    this.between = false;
    this.pendingEnd = false;
    this.callText = "";
    this.skipStart = false;
    this.held = [];
    this.closing = false;
    this.turnEnded = false;
    this.innerStopped = false;
    this.count = 0;
    this.ended = false;
    this.isStopped = false;
    this.inner = this.turn(this.spec, this.turnOptions);
    this.innerEnded = false;
  }

  /** IDs the byte-run filter lets through; false once the stream stopped. */
  private readonly sink = (id: number): boolean => {
    this.route(id);
    return !this.stopped;
  };

  /** A turn's decoder: its events go to the caller, except what this layer decides itself. */
  private turn(spec: DecoderSpec, options: DecoderOptions): ReferenceDecoder {
    const out = this.out;
    const handler: DecoderHandler = {
      onMessageStart: (role: string, metadata: string, header?: MessageHeader) => {
        if (this.skipStart) {
          this.skipStart = false;
          return;
        }
        if (header === undefined) out.onMessageStart(this.userRole ?? role, metadata);
        else out.onMessageStart(this.userRole ?? role, metadata, header);
      },
      onText: (t) => out.onText(t),
      onReasoning: (t) => out.onReasoning(t),
      onActionStart: (k) => out.onActionStart(k),
      onActionText: (t) => out.onActionText(t),
      onActionEnd: (e) => out.onActionEnd(e),
      onMessageEnd: () => {
        this.turnEnded = true;
        // An assistant's message end waits for what follows when a call turn may (callTurn).
        if (this.turns.callTurn !== null && this.userRole === null) this.pendingEnd = true;
        else out.onMessageEnd();
      },
      onStop: (s: StopInfo) => {
        if (this.closing) return;
        this.innerStopped = true;
        // A held message end (its end of turn was also a stop) is reported before the stop.
        if (this.pendingEnd) {
          this.pendingEnd = false;
          out.onMessageEnd();
        }
        out.onStop(s);
      },
      onError: (e) => out.onError(e),
      onToolCallName: (n) => out.onToolCallName?.(n),
      onToolCallArguments: (t) => out.onToolCallArguments?.(t),
    };
    return new ReferenceDecoder(spec, handler, options);
  }

  /** The openings, longest first, with their roles. */
  private openings(): Array<readonly [readonly number[], string]> {
    const list: Array<readonly [readonly number[], string]> = [];
    if (this.turns.assistantPrompt.length > 0) list.push([this.turns.assistantPrompt, "assistant"]);
    if (this.turns.userPrompt.length > 0) list.push([this.turns.userPrompt, "user"]);
    return list.sort((a, b) => b[0].length - a[0].length);
  }

  private route(id: number): void {
    if (this.pendingEnd) {
      this.matchCallTurn(id);
      return;
    }
    if (this.between) {
      this.matchOpening(id);
      return;
    }
    const openings = this.openings();
    // A user turn the template closes with no end of turn ends at an opening; an opening
    // that is one reserved ID ends any turn (as the native role markers do).
    const opensUserEnd = this.userRole !== null && openings.some(([ids]) => ids[0] === id);
    const single = openings.some(([ids]) => ids.length === 1 && ids[0] === id);
    if (opensUserEnd || single) {
      this.closeInner();
      this.innerEnded = true;
      this.out.onMessageEnd();
      this.between = true;
      this.held = [];
      this.matchOpening(id);
      return;
    }
    this.inner.push(id);
    if (this.turnEnded && !this.innerStopped) {
      this.turnEnded = false;
      this.between = true;
      this.held = [];
    }
  }

  /** After an assistant's end of turn: the call turn's opening text, then its header token. */
  private matchCallTurn(id: number): void {
    const call = this.turns.callTurn;
    if (call !== null) {
      if (this.callText === call.text && id === call.marker) {
        this.held = [];
        this.callText = "";
        this.pendingEnd = false;
        this.closeInner();
        this.skipStart = true;
        this.inner = this.turn(call.spec, this.userOptions);
        this.between = false;
        return;
      }
      const piece = pieceText(this.spec, id);
      if (piece !== "" && call.text.startsWith(this.callText + piece)) {
        this.held.push(id);
        this.callText += piece;
        return;
      }
    }
    if (!this.endWithoutCall()) return;
    this.matchOpening(id);
  }

  /** The held message end is reported, the held IDs replayed; false when they stopped the stream. */
  private endWithoutCall(): boolean {
    this.pendingEnd = false;
    this.callText = "";
    this.out.onMessageEnd();
    const held = this.held;
    this.held = [];
    for (const x of held) {
      this.matchOpening(x);
      if (this.innerStopped) return false;
    }
    return true;
  }

  private matchOpening(id: number): void {
    if (this.held.length === 0 && !this.spec.reservedName.has(id)) {
      this.inner.push(id);
      return;
    }
    this.held.push(id);
    const held = this.held;
    for (const [ids, role] of this.openings()) {
      if (ids.length < held.length || !held.every((x, k) => ids[k] === x)) continue;
      if (ids.length === held.length) this.openTurn(role);
      return;
    }
    this.releaseHeld();
  }

  /**
   * The held prefix goes to the current turn's decoder; false when that stopped the stream. When
   * an opening ended that turn (and then opened nothing), a new decoder of the same kind takes it.
   */
  private releaseHeld(): boolean {
    const held = this.held;
    this.held = [];
    if (this.innerEnded && held.length > 0) this.restartInner();
    for (const x of held) {
      this.inner.push(x);
      if (this.innerStopped) return false;
    }
    return true;
  }

  private openTurn(role: string): void {
    this.held = [];
    this.closeInner();
    this.userRole = role !== "assistant" ? role : null;
    this.restartInner();
    this.between = false;
  }

  /** A new decoder for a turn of the role in userRole (null: the assistant's). */
  private restartInner(): void {
    this.inner =
      this.userRole !== null
        ? this.turn(this.turns.userSpec, this.userOptions)
        : this.turn(this.spec, this.turnOptions);
    this.innerEnded = false;
  }

  private closeInner(): void {
    this.closing = true;
    try {
      this.inner.end();
    } finally {
      this.closing = false;
    }
  }

  private stop(info: StopInfo): void {
    if (this.bytes !== null && !this.bytes.end(this.sink)) return;
    if (this.innerStopped) return;
    if (this.pendingEnd && !this.endWithoutCall()) return;
    if (this.between && !this.releaseHeld()) return;
    this.closeInner();
    if (this.innerStopped) return;
    this.isStopped = true;
    this.out.onStop(info);
  }
}

/** The decoded text of a plain text ID, else "" (a marker, bytes, control or unknown ID). */
function pieceText(spec: DecoderSpec, id: number): string {
  if (!(id >= 0 && id < spec.classes.length)) return "";
  const c = classOf(spec, id);
  return c === Cls.Text || c === Cls.TextNl ? (spec.text[id] ?? "") : "";
}
