// The stream layer both template decoders share (../template-decoder.ts, and the reference one,
// ../reference/template-turns.ts, which runs the reference engine per turn): the caller's
// options split once into the stream's token cap and the turns' options, the push / end
// lifecycle with its misuse errors, the byte-run filter in front of the turn routing, the
// template's turn openings, and the current turn's decoder (made, ended, handed held IDs). The
// turn routing itself is each subclass's.
import type { DecoderHandler, StopInfo } from "../events.ts";
import { type CoreHandler, coreHandler } from "../handler.ts";
import { checkPush } from "../push-guard.ts";
import { Cls, classOf, type DecoderSpec } from "../spec.ts";
import { StopStrings } from "../stop-matcher.ts";
import type { TemplateTurns } from "../template-spec.ts";
import type { Decoder, DecoderOptions } from "../types.ts";
import { ByteRun } from "./byte-run.ts";

/** A turn opening's IDs and the role of the turn it opens. */
export type Opening = readonly [readonly number[], string];

/** The decoded text of a plain text ID, else "" (a marker, bytes, control or unknown ID). */
export function pieceText(spec: DecoderSpec, id: number): string {
  if (!(id >= 0 && id < spec.classes.length)) return "";
  const c = classOf(spec, id);
  return c === Cls.Text || c === Cls.TextNl ? (spec.text[id] ?? "") : "";
}

export abstract class TurnStream implements Decoder {
  protected readonly out: CoreHandler;
  /** The turns' options: the caller's less maxTokens (the stream counts its own tokens). */
  protected readonly turnOptions: DecoderOptions;
  /** turnOptions with compiled stop strings passed as strings (for a spec other than the main one). */
  protected readonly patternOptions: DecoderOptions;
  /** The template's openings (generation prompt: "assistant"; user opening: "user"), longest first. */
  protected readonly openings: readonly Opening[];
  private readonly maxTokens: number;
  /** HF ByteFallback runs, or null (the table's own byte rule applies). */
  private readonly bytes: ByteRun | null;
  /**
   * The caller's stop token IDs. One that this layer would hold (a byte of a run, a turn
   * opening, the call turn's opening text) or take as an opening stops the stream here, as if
   * the stream had ended before it: the turn's decoder would never see it. One the turn's
   * decoder takes as it is stops there (a marker's move first, as in a native decoder).
   */
  private readonly stopIds: ReadonlySet<number>;
  /** stopIds is not empty (most streams have none: no lookup per ID then). */
  private readonly anyStopIds: boolean;
  private count = 0;
  private ended = false;
  /** This layer reported the stream's stop (an inner decoder's own stop is the subclass's). */
  private isStopped = false;
  /** The current turn's decoder: each subclass's constructor makes the first (restartInner). */
  protected inner!: Decoder;
  /** An opening ended the inner decoder's turn (it takes no more IDs). */
  protected innerEnded = false;
  /** The IDs of an opening matched so far. */
  protected held: number[] = [];

  /** Routes one ID past the byte filter; false once the stream stopped. */
  private readonly sink = (id: number): boolean => {
    if (this.anyStopIds && this.stopIds.has(id) && !this.passesToTurn(id))
      this.stop({ reason: "stop_token", token: id });
    else this.route(id);
    return !this.stopped;
  };

  constructor(
    protected readonly spec: DecoderSpec,
    protected readonly turns: TemplateTurns,
    handler: DecoderHandler,
    options: DecoderOptions,
  ) {
    this.out = coreHandler(handler);
    const maxTokens = options.maxTokens ?? -1;
    if (!Number.isInteger(maxTokens) || (options.maxTokens !== undefined && maxTokens < 1))
      throw new TypeError("maxTokens must be a positive integer");
    this.maxTokens = maxTokens;
    const { maxTokens: _drop, ...turnOptions } = options;
    this.turnOptions = turnOptions;
    const stops = options.stopStrings;
    this.patternOptions =
      stops instanceof StopStrings ? { ...turnOptions, stopStrings: stops.patterns } : turnOptions;
    const openings: Opening[] = [];
    if (turns.assistantPrompt.length > 0) openings.push([turns.assistantPrompt, "assistant"]);
    if (turns.userPrompt.length > 0) openings.push([turns.userPrompt, "user"]);
    this.openings = openings.sort((a, b) => b[0].length - a[0].length);
    this.bytes =
      turns.byteRun === null ? null : new ByteRun(turns.byteRun, options.maxBufferedChars ?? 1_000_000);
    this.stopIds = new Set(options.stopTokenIds ?? []);
    this.anyStopIds = this.stopIds.size > 0;
  }

  /** An inner decoder stopped the stream on its own. */
  protected abstract innerStopped(): boolean;
  /** One ID past the byte filter. */
  protected abstract route(id: number): void;
  /** Whether route(id) would hand the ID as it is to the current turn's decoder (nothing held, no opening). */
  protected abstract passesToTurn(id: number): boolean;
  /** The stream ends here: what the turn layer holds goes out first; false when that stopped it. */
  protected abstract closeTurns(): boolean;
  /** reset()'s part of the turn layer. */
  protected abstract resetTurns(): void;
  /** A decoder for a new turn of the current role. */
  protected abstract newTurn(): Decoder;
  /** A whole opening was matched: the turn it opens starts. */
  protected abstract openTurn(role: string): void;
  /** The inner decoder is being ended by this layer: its stop is not the stream's. */
  protected abstract setClosing(closing: boolean): void;

  get stopped(): boolean {
    return this.isStopped || this.innerStopped();
  }

  push(id: number): void {
    checkPush(this.ended, id);
    if (this.stopped) return;
    this.count++;
    if (this.bytes === null) this.sink(id);
    else if (this.anyStopIds && this.stopIds.has(id)) {
      // The run ends before the stop ID (resolved by HF's rule for the span it closes).
      if (this.bytes.end(this.sink)) this.sink(id);
    } else this.bytes.push(id, this.sink);
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
    this.count = 0;
    this.ended = false;
    this.isStopped = false;
    this.resetTurns();
  }

  /** A new decoder for a turn of the current role. */
  protected restartInner(): void {
    this.inner = this.newTurn();
    this.innerEnded = false;
  }

  /** The current turn's decoder ends; its stop is not the stream's. */
  protected closeInner(): void {
    this.setClosing(true);
    try {
      this.inner.end();
    } finally {
      this.setClosing(false);
    }
  }

  /** An opening ends the current turn before any end of turn: its message ends here. */
  protected endTurnAtOpening(): void {
    this.closeInner();
    this.innerEnded = true;
    this.out.onMessageEnd();
    this.held = [];
  }

  /**
   * After an end of turn: IDs that may begin an opening are held (a reserved ID first); a whole
   * opening starts its turn (openTurn); anything else goes to the current turn's decoder, which
   * treats it as it treats text or markers between messages.
   */
  protected matchOpening(id: number): void {
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
    this.releaseHeld();
  }

  /** The held IDs matched again as after an end of turn (matchOpening); false when they stopped the stream. */
  protected replayHeld(): boolean {
    const held = this.held;
    this.held = [];
    for (const x of held) {
      this.matchOpening(x);
      if (this.innerStopped()) return false;
    }
    return true;
  }

  /**
   * The held opening prefix goes to the current turn's decoder; false when that stopped the
   * stream. When an opening ended that turn (and then opened nothing), a new decoder of the same
   * kind takes it.
   */
  protected releaseHeld(): boolean {
    const held = this.held;
    this.held = [];
    if (this.innerEnded && held.length > 0) this.restartInner();
    for (const x of held) {
      this.inner.push(x);
      if (this.innerStopped()) return false;
    }
    return true;
  }

  private stop(info: StopInfo): void {
    // A held byte run is resolved first (its text may itself meet a stop string).
    if (this.bytes !== null && !this.bytes.end(this.sink)) return;
    if (this.innerStopped() || !this.closeTurns() || this.innerStopped()) return;
    this.isStopped = true;
    this.out.onStop(info);
  }
}
