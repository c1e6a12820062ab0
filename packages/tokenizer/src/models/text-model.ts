// The contract between a tokenizer family (SentencePiece .model, byte-level BPE
// tokenizer.json) and everything above it: chat formats, the stream decoder, the CLI.
//
// A TextModel is the model's ORDINARY text encoder with every literal-match path to a
// blocked (reserved) ID closed: it encodes exactly as the reference tokenizer would if the
// blocked pieces were absent from the vocabulary (SentencePiece: as if they were CONTROL
// pieces; tokenizer.json: as if they were not added tokens). See ../../../../docs/formats.md.

/** How one ID decodes, for the streaming decoder. Values are small integers on purpose. */
export const TokenKind = {
  /** Decodes to the string in `text[id]` (valid, complete UTF-8 on its own). */
  Text: 0,
  /** Contributes raw bytes `bytes[id]` that may be an incomplete/invalid UTF-8 sequence. */
  Bytes: 1,
  /** Decodes to "" (SentencePiece CONTROL pieces such as <s> </s>, special added tokens). */
  Control: 2,
} as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

/** DecodeTable.lazyText. */
export interface LazyText {
  readonly text: readonly (string | undefined)[];
  readonly textAtStart: readonly (string | undefined)[];
  /** Makes text[id] and textAtStart[id] (id in [0, size)). */
  fill(id: number): void;
}

export interface DecodeTable {
  /** IDs in [0, size) are decodable by the text model. */
  readonly size: number;
  /** TokenKind per ID. */
  readonly kind: Uint8Array;
  /** Per ID of kind Text: its decoded text in the middle of a decode call. "" otherwise. */
  readonly text: readonly string[];
  /**
   * Per ID of kind Text: its decoded text when it is the first visible piece of a decode call.
   * Equal to `text` except for SentencePiece with add_dummy_prefix (one leading " " removed).
   */
  readonly textAtStart: readonly string[];
  /**
   * Optional, for a table whose texts are made per ID (SentencePiece: every ID's string at once
   * was most of a cold load): arrays whose entry for an ID may be undefined until `fill(id)`;
   * a defined entry equals `text[id]` / `textAtStart[id]`. Reading the whole `text` or
   * `textAtStart` fills every ID. The stream decoder fills each ID at its first sight and reads
   * these arrays.
   */
  readonly lazyText?: LazyText;
  /**
   * Per ID of kind Bytes: its raw bytes; undefined otherwise (the array may end after the last
   * Bytes ID: an index past its end reads undefined too).
   */
  readonly bytes: readonly (Uint8Array | undefined)[];
  /**
   * Optional: per ID, the UTF-8 byte length of what it contributes in the middle of a decode
   * (Text: of `text[id]`; Bytes: of `bytes[id]`; Control: 0), when the builder has it for free.
   */
  readonly byteLength?: Uint32Array;
  /**
   * How invalid UTF-8 becomes U+FFFD: "per-byte" (SentencePiece: each byte of a bad sequence
   * becomes one U+FFFD) or "maximal-subpart" (Rust from_utf8_lossy / WHATWG TextDecoder).
   */
  readonly invalidUtf8: "per-byte" | "maximal-subpart";
  /**
   * When the "start of a decode call" state ends (for textAtStart): "first-piece" = after the
   * first piece whatever it is; "first-visible" = after the first piece with non-empty output;
   * "first-non-control" = after the first piece whose kind is not Control (Text or Bytes), even
   * when its `textAtStart` is "" (SentencePiece 0.1.97 with add_dummy_prefix: decode([▁, ▁]) is
   * " ", decode([</s>, ▁world]) is "world"); "never" = the start state never applies.
   * Exactly what the reference does; documented by the implementation with a test.
   */
  readonly startEnds: "first-piece" | "first-visible" | "first-non-control" | "never";
}

export interface TextModel {
  readonly family: "sentencepiece" | "byte-level-bpe" | "sentencepiece-json";
  /** Number of IDs the text model itself knows (SentencePiece pieces / tokenizer.json vocab + added). */
  readonly vocabSize: number;
  /**
   * The ordinary encoder: one call = one reference encoder call on `text` (no BOS/EOS).
   * Never returns an ID in `blocked`.
   */
  encode(text: string): number[];
  /**
   * Optional: exactly encode(text)'s IDs, appended to `out` (no array per call). Never writes an
   * ID in `blocked`; leaves `out` as it was before the call plus those IDs. The chat builder uses
   * encodeAt when a model has it, this otherwise.
   */
  encodeInto?(text: string, out: number[]): void;
  /**
   * Optional: exactly encode(text)'s IDs, written into `out` from index `at` on (at most
   * out.length; entries from `at` up are overwritten, entries past the last ID written are left
   * as they were); returns the index after the last ID. The chat builder's reused result buffer:
   * index writes into room it already has instead of a growing array (encodeInto is
   * encodeAt(text, out, out.length)).
   */
  encodeAt?(text: string, out: number[], at: number): number;
  /** Reference-equivalent one-shot decode of IDs in [0, vocabSize) (control pieces decode to ""). */
  decode(ids: readonly number[]): string;
  /** The piece string of an ID as stored in the file (e.g. "▁Hello", "<0x0A>", "Ġthe"), or undefined. */
  idToPiece(id: number): string | undefined;
  /** The ID of a piece string as stored in the file, or undefined. */
  pieceToId(piece: string): number | undefined;
  /** IDs this model will never produce from text (the format's reserved IDs). */
  readonly blocked: ReadonlySet<number>;
  /**
   * Every string the underlying file would match literally inside raw text (USER_DEFINED
   * pieces; added tokens of a tokenizer.json), with its ID, whether blocked or not. Used by
   * audits and property tests.
   */
  readonly literalPieces: ReadonlyMap<string, number>;
  /** The table the stream decoder compiles from. Built once, immutable. */
  readonly decodeTable: DecodeTable;
  /**
   * Optional (absent = unknown; the chat builder then measures every run exactly): UTF-8 bytes
   * the encoder's output adds before the text (0 for byte-level BPE).
   */
  readonly leadingOffsetBytes?: number;
  /**
   * Optional: UTF-8 bytes ID `id` contributes in the middle of a decode (what `decodeTable`
   * implies: Text its text, Bytes its bytes, Control and blocked IDs 0), computed for this one
   * ID without building the decode table (the chat builder's span offsets, per emitted ID).
   */
  tokenByteLength?(id: number): number;
  /**
   * Optional: true when, for EVERY string P ending in "\n", encode(P + text) is exactly
   * encode(P) followed by encode(text) (the chat builder then encodes a template header such as
   * "user\n" once and hands the caller's own string to the encoder). Proven per split pattern
   * for byte-level models (models/bytelevel/prefix-cut.ts), per piece set for SentencePiece
   * (models/sentencepiece/bpe-encoder.ts). Absent or false: the builder concatenates.
   */
  cutsAfterNewline?(text: string): boolean;
  /** Optional: the normalization encode() applies before splitting ("none" = the IDs' bytes are the text's UTF-8). */
  readonly normalization?: "none" | "nfc";
}
