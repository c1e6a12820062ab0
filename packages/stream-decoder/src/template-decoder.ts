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
// - a call written as a turn of its own after the end of turn (TemplateTurns.callTurn, GigaChat
//   3.0): the assistant's message end is held while the IDs that follow spell the call turn's
//   opening text —
//     Hello‹<|message_sep|>›|\n\nfunction call|‹<|role_sep|>›\n{"name": …}‹<|message_sep|>›
//   — and at its header token the call is read as an action of the same message (a decoder of
//   the spec that starts in the call block); anything else releases the held message end, then
//   the IDs go on as after any end of turn.
// - HF's ByteFallback rule for byte runs (./template-decoding/byte-run.ts), in front of
//   everything else, for the models whose bytes come from it.
//
// Tool calls (Qwen3's <tool_call>, DeepSeek's fenced block) are blocks of the spec's grammar
// (./template-spec.ts): the per-token path streams them, parses them with the registered body
// syntax and applies stop strings inside them, exactly as for a native family.
//
// Each turn is its own native decoder behind one proxy handler: a user turn's message start is
// renamed; the inner decoders' own stops are the stream's stop, the ones this class causes by
// closing a turn are not reported. Bounded: the held opening is at most the longest opening, a
// held byte run at most maxBufferedChars IDs.
import { StreamDecoder } from "./decoder.ts";
import type { ActionEnd, DecoderError, DecoderHandler, MessageHeader, StopInfo } from "./events.ts";
import type { CoreHandler } from "./handler.ts";
import type { DecoderSpec } from "./spec.ts";
import { pieceText, TurnStream } from "./template-decoding/turn-stream.ts";
import type { TemplateTurns } from "./template-spec.ts";
import type { Decoder, DecoderOptions } from "./types.ts";

/** Inside a turn: IDs go to the turn's native decoder. */
const T_TURN = 0;
/** After an end of turn that was not a stop: matching a turn opening. */
const T_BETWEEN = 1;
/** After an assistant's end of turn, its message end held: matching a call turn's opening. */
const T_CALL = 2;

/** Between the inner decoders and the caller's handler. */
class TurnProxy implements CoreHandler {
  /** The role of the current turn when it is not the assistant's. */
  role: string | null = null;
  /** An inner decoder is being closed by TemplateDecoder: its stop is not the stream's. */
  closing = false;
  /** The current turn's message ended (an end of turn that was not a stop). */
  turnEnded = false;
  /** An inner decoder stopped on its own (EOS, stop ID, stop string): the stream's stop. */
  stopped = false;
  /** The turn's message end is held, not reported (a call turn may follow: TemplateTurns.callTurn). */
  holdEnd = false;
  /** A message end was held. */
  endHeld = false;
  /** The next message start is not reported (a call turn continues the assistant's message). */
  skipStart = false;

  constructor(private readonly out: CoreHandler) {}

  onMessageStart(role: string, metadata: string, header?: MessageHeader): void {
    if (this.skipStart) {
      this.skipStart = false;
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
    if (this.holdEnd) this.endHeld = true;
    else this.out.onMessageEnd();
  }

  /** The held message end, reported now. */
  releaseEnd(): void {
    if (!this.endHeld) return;
    this.endHeld = false;
    this.out.onMessageEnd();
  }
  onStop(stop: StopInfo): void {
    if (this.closing) return;
    this.stopped = true;
    // An end of turn that is also a stop (the files' EOS): its message end comes first.
    this.releaseEnd();
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

export class TemplateDecoder extends TurnStream {
  private readonly proxy: TurnProxy;
  /** A user turn's decoder options (stop strings as strings when its spec is another). */
  private readonly plainOptions: DecoderOptions;
  private state = T_TURN;
  /** T_CALL: units of the call turn's opening text matched so far. */
  private callPos = 0;

  constructor(spec: DecoderSpec, turns: TemplateTurns, handler: DecoderHandler, options: DecoderOptions) {
    super(spec, turns, handler, options);
    this.proxy = new TurnProxy(this.out);
    this.plainOptions = turns.userSpec !== spec ? this.patternOptions : this.turnOptions;
    this.proxy.holdEnd = turns.callTurn !== null;
    this.restartInner();
  }

  protected innerStopped(): boolean {
    return this.proxy.stopped;
  }

  protected resetTurns(): void {
    this.proxy.role = null;
    this.proxy.closing = false;
    this.proxy.turnEnded = false;
    this.proxy.stopped = false;
    this.proxy.holdEnd = this.turns.callTurn !== null;
    this.proxy.endHeld = false;
    this.proxy.skipStart = false;
    this.callPos = 0;
    this.restartInner();
    this.state = T_TURN;
    this.held = [];
  }

  // ---- routing ----

  protected passesToTurn(id: number): boolean {
    return (
      this.state === T_TURN && !((this.proxy.role !== null && this.opensTurn(id)) || this.singleOpening(id))
    );
  }

  protected route(id: number): void {
    if (this.state === T_BETWEEN) {
      this.matchOpening(id);
      return;
    }
    if (this.state === T_CALL) {
      this.callOpening(id);
      return;
    }
    // A user turn that the template closes with no end of turn (DeepSeek's
    // <｜User｜>…<｜Assistant｜>): an opening ends it. An opening that is one reserved ID
    // (DeepSeek's <｜User｜> / <｜Assistant｜>: the V3 template writes <｜User｜> right after a
    // calls-only assistant turn) ends any turn, as the native role markers do.
    if ((this.proxy.role !== null && this.opensTurn(id)) || this.singleOpening(id)) {
      this.endTurnAtOpening();
      this.state = T_BETWEEN;
      this.matchOpening(id);
      return;
    }
    this.inner.push(id);
    if (this.proxy.turnEnded && !this.proxy.stopped) {
      this.proxy.turnEnded = false;
      this.state = this.proxy.endHeld ? T_CALL : T_BETWEEN;
      this.held = [];
      this.callPos = 0;
    }
  }

  /**
   * T_CALL: the IDs after an assistant's end of turn, against the call turn's opening text and
   * header token. Text is compared by the IDs' decoded pieces, so the opening is found however
   * the model tokenized it; at most the opening's IDs are held.
   */
  private callOpening(id: number): void {
    const call = this.turns.callTurn;
    if (call === null) return; // T_CALL is only entered with a call turn
    if (this.callPos === call.text.length) {
      if (id === call.marker) {
        this.openCallTurn(call.spec);
        return;
      }
    } else {
      const t = pieceText(this.spec, id);
      if (t !== "" && call.text.startsWith(t, this.callPos)) {
        this.held.push(id);
        this.callPos += t.length;
        return;
      }
    }
    // Not a call turn: the message ends here, and the IDs go on as after any end of turn.
    this.noCallTurn();
    if (!this.stopped) this.matchOpening(id);
  }

  /** The held message end is reported and the held IDs replayed after it; false when they stopped the stream. */
  private noCallTurn(): boolean {
    this.proxy.releaseEnd();
    this.state = T_BETWEEN;
    this.callPos = 0;
    return this.replayHeld();
  }

  /** The call turn's opening was read: its call belongs to the assistant's message. */
  private openCallTurn(spec: DecoderSpec): void {
    this.held = [];
    this.callPos = 0;
    this.proxy.endHeld = false;
    this.closeInner();
    this.proxy.skipStart = true;
    this.inner = this.native(spec, this.proxy, this.patternOptions);
    this.state = T_TURN;
  }

  private singleOpening(id: number): boolean {
    for (const [ids] of this.openings) if (ids.length === 1 && ids[0] === id) return true;
    return false;
  }

  private opensTurn(id: number): boolean {
    for (const [ids] of this.openings) if (ids[0] === id) return true;
    return false;
  }

  private native(spec: DecoderSpec, handler: DecoderHandler, options: DecoderOptions): Decoder {
    return new StreamDecoder(spec, handler, options);
  }

  protected openTurn(role: string): void {
    this.held = [];
    this.closeInner();
    const user = role !== "assistant";
    this.proxy.role = user ? role : null;
    this.proxy.holdEnd = !user && this.turns.callTurn !== null;
    this.restartInner();
    this.state = T_TURN;
  }

  /** A decoder for a turn of the role in proxy.role (null: the assistant's). */
  protected newTurn(): Decoder {
    return this.proxy.role !== null
      ? this.native(this.turns.userSpec, this.proxy, this.plainOptions)
      : this.native(this.spec, this.proxy, this.turnOptions);
  }

  protected setClosing(closing: boolean): void {
    this.proxy.closing = closing;
  }

  // ---- stop ----

  protected closeTurns(): boolean {
    if (this.state === T_CALL && !this.noCallTurn()) return false;
    if (this.state === T_BETWEEN && !this.releaseHeld()) return false;
    this.closeInner();
    return true;
  }
}
