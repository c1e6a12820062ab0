// One model family as data plus, where needed, one small renderer (contract v0; docs/formats.md).
// The loader, the registry check, detection, the chat encoder and the decoder read ONLY this:
// no engine file names a family. A family is one folder, families/<name>/, holding its
// definition (this shape), its renderer and its docs; families/index.ts lists the folders.
//
// Helpers may ADD optional fields here (say so in the commit); nobody removes or renames one
// without the owner of families/ (the "core" helper).
import type { ChatSink } from "../chat/sink.ts";
import type { Grammar } from "./grammar.ts";

/** Verified token IDs of one loaded tokenizer, by the family's token keys. */
export type TokenIds<K extends string> = Readonly<Record<K, number>>;

/**
 * What picks a family from the files (all listed conditions must hold). Detection tries the
 * families in `priority` order (higher first), so a specific family (Qwen3-Coder: same
 * tokenizer as Qwen3, its own template) wins over a general one.
 */
export interface Detection {
  /** tokenizer_config.json `tokenizer_class` starts with one of these ("" = no tokenizer_class). */
  readonly tokenizerClass?: readonly string[];
  /** These added tokens (config added_tokens_decoder or tokenizer.json added_tokens) are present. */
  readonly addedTokens?: ReadonlyArray<{ readonly id?: number; readonly content: string }>;
  /** The chat template (any source) contains every one of these strings. */
  readonly templateIncludes?: readonly string[];
  /**
   * When the files carry a chat template, one source contains every one of these strings (files
   * without a template still match): tells the template variants this family's renderer
   * reproduces from later ones of the same vocabulary that it does not.
   */
  readonly templateIfPresentIncludes?: readonly string[];
  readonly priority?: number;
  /**
   * The model file the files present is one of these names (Mistral's `tokenizer.model.v3`,
   * `tekken.json`): a file name is the vendor's own statement of the format version.
   */
  readonly modelFiles?: readonly string[];
  /** The model file states one of these versions (tekken.json config.version "v3", "v7", ...). */
  readonly modelVersions?: readonly string[];
  /** The family also matches when every condition of one of these holds. */
  readonly alternatives?: readonly Detection[];
}

/** Which IDs are structural (reserved: never produced from caller text). */
export interface ReservedPolicy {
  /** Every added token of the files is reserved (default true). */
  readonly allAddedTokens?: boolean;
  /** Token strings that are never audited as markers in caller text (ChatGLM3 "sop"/"eop": ordinary words). */
  readonly notAudited?: readonly string[];
  /** Pieces the text model must have at these IDs (InternLM2 [UNUSED_TOKEN_141..146] under its config names). */
  readonly expectPieces?: ReadonlyArray<readonly [id: number, piece: string]>;
  /** Reserved IDs appended after the text model's vocabulary by vendor code (ChatGLM3 64789..64797). */
  readonly appended?: { readonly firstId: number; readonly textVocabSize: number };
  /** The text model must have exactly this many pieces (InternLM2 92544). */
  readonly vocabSize?: number;
  /**
   * Token keys the grammar names that are NOT reserved IDs: the text model's
   * own control / unknown pieces, kept out of the registry (ChatGLM3 <unk>, </s>).
   */
  readonly notReserved?: readonly string[];
}

export interface FamilyDefinition<K extends string = string> {
  /** The --format name (kebab-case). */
  readonly name: string;
  readonly title: string;
  /** Token key -> token string (resolved to the ID the files give it; a missing one fails the load). */
  readonly tokens: Readonly<Record<K, string>>;
  /** Keys whose token may be absent from a family member's files (Llama 3.1 <|python_tag|> in 3.0). */
  readonly optionalTokens?: readonly K[];
  /** Token IDs fixed by vendor code, not by the files (ChatGLM3's appended commands). */
  readonly fixedIds?: Readonly<Partial<Record<K, number>>>;
  readonly detect: Detection;
  readonly reserved: ReservedPolicy;
  /** Default EOS keys; generation_config.json / config.json eos_token_id are added when present. */
  readonly eos: readonly K[];
  /** Validate the request (TokenizerError "invalid-conversation") and render it into the sink. */
  render(request: unknown, sink: ChatSink, ids: TokenIds<K>): void;
  readonly grammar: Grammar<K>;
}
