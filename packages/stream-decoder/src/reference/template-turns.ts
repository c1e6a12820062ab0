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
import type { DecoderSpec } from "../spec.ts";
import { pieceText, TurnStream } from "../template-decoding/turn-stream.ts";
import type { TemplateTurns } from "../template-spec.ts";
import type { DecoderOptions } from "../types.ts";
import { ReferenceDecoder } from "./engine.ts";

export class ReferenceTemplateDecoder extends TurnStream {
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
  /** The inner decoder is being ended by this layer: its stop is not the stream's. */
  private closing = false;
  private turnEnded = false;
  /** An inner decoder stopped on its own (EOS, stop ID, stop string): the stream's stop. */
  private turnStopped = false;

  constructor(spec: DecoderSpec, turns: TemplateTurns, handler: DecoderHandler, options: DecoderOptions) {
    super(spec, turns, handler, options);
    this.restartInner();
  }

  protected innerStopped(): boolean {
    return this.turnStopped;
  }

  protected resetTurns(): void {
    this.userRole = null;
    this.between = false;
    this.pendingEnd = false;
    this.callText = "";
    this.skipStart = false;
    this.held = [];
    this.closing = false;
    this.turnEnded = false;
    this.turnStopped = false;
    this.restartInner();
  }

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
        this.turnStopped = true;
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

  protected passesToTurn(id: number): boolean {
    if (this.pendingEnd || this.between) return false;
    const openings = this.openings;
    const opensUserEnd = this.userRole !== null && openings.some(([ids]) => ids[0] === id);
    return !opensUserEnd && !openings.some(([ids]) => ids.length === 1 && ids[0] === id);
  }

  protected route(id: number): void {
    if (this.pendingEnd) {
      this.matchCallTurn(id);
      return;
    }
    if (this.between) {
      this.matchOpening(id);
      return;
    }
    const openings = this.openings;
    // A user turn the template closes with no end of turn ends at an opening; an opening
    // that is one reserved ID ends any turn (as the native role markers do).
    const opensUserEnd = this.userRole !== null && openings.some(([ids]) => ids[0] === id);
    const single = openings.some(([ids]) => ids.length === 1 && ids[0] === id);
    if (opensUserEnd || single) {
      this.endTurnAtOpening();
      this.between = true;
      this.matchOpening(id);
      return;
    }
    this.inner.push(id);
    if (this.turnEnded && !this.turnStopped) {
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
        this.inner = this.turn(call.spec, this.patternOptions);
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
    return this.replayHeld();
  }

  protected openTurn(role: string): void {
    this.held = [];
    this.closeInner();
    this.userRole = role !== "assistant" ? role : null;
    this.restartInner();
    this.between = false;
  }

  /** A decoder for a turn of the role in userRole (null: the assistant's). */
  protected newTurn(): ReferenceDecoder {
    return this.userRole !== null
      ? this.turn(this.turns.userSpec, this.patternOptions)
      : this.turn(this.spec, this.turnOptions);
  }

  protected setClosing(closing: boolean): void {
    this.closing = closing;
  }

  protected closeTurns(): boolean {
    if (this.pendingEnd && !this.endWithoutCall()) return false;
    if (this.between && !this.releaseHeld()) return false;
    this.closeInner();
    return true;
  }
}
