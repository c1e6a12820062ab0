// What a recognizer derives from a chat template: one part of the model's output grammar
// (its reasoning block, or its tool-call syntax), as data the decoder compiles
// (@chatwire/stream-decoder compileTemplateDecoderSpec). Markers are keyed by their reserved
// string; ./derive.ts turns them into the verified IDs of the loaded vocabulary.
import type { BlockGrammar, HeaderSyntax, MarkerMove } from "../../families/grammar.ts";
import type { ProbeContext } from "./context.ts";

export interface FormatPart {
  /** Shown by `chatwire decode --explain` and docs/output-formats.md ("Kimi K2 sections"). */
  readonly name: string;
  /** Reserved string -> move. Every key must be a reserved string of the vocabulary. */
  readonly markers: Readonly<Record<string, MarkerMove>>;
  /** Literal text -> move, for markers the model writes as ordinary text (DeepSeek V3.2 DSML). */
  readonly textMarkers?: Readonly<Record<string, MarkerMove>>;
  readonly blocks: readonly BlockGrammar[];
  /** The reasoning block a generation prompt may leave open (Grammar.startBlock). */
  readonly startBlock?: string;
  /** The generation prompt's text at the start of that block's body (Grammar.startText). */
  readonly startText?: string;
  /** A call written as a turn of its own after the end of turn (Grammar.callTurn; `marker` also in `markers`). */
  readonly callTurn?: { readonly text: string; readonly marker: string; readonly block: string };
  /** A call written as plain JSON text, read only when tools are given (Llama 3.1+). */
  readonly plainTextToolCall?: "json-call";
  /** A whole-turn syntax (harmony): replaces the default "none" header. */
  readonly header?: HeaderSyntax;
  /** What the renderings showed, one short line per finding (`--explain`). */
  readonly evidence: readonly string[];
}

export interface Recognizer {
  /** Stable id ("think-pair", "kimi-k2"). */
  readonly name: string;
  /** null: the template does not write this shape. Never throws (a refused rendering is null). */
  recognize(ctx: ProbeContext): FormatPart | null;
}
