// The decoder grammar of a model family, as data (contract v0: the decoder compiles it with the
// verified registry into a DecoderSpec; docs/formats.md). Token keys are the family's own keys
// (FamilyDefinition.tokens); they become verified IDs at load, never static tables.
//
// Helpers may ADD fields/variants here (say so in the commit); nobody removes or renames one
// without the decoder owner.

/** What a reserved token does in a generation. */
export type MarkerMove =
  /** Opens a message: a header follows (syntax: Grammar.header). ChatML <|im_start|>, Llama <|start_header_id|>, harmony <|start|>. */
  | { readonly move: "message-start" }
  /** Ends the header (Llama <|end_header_id|>, harmony <|message|>); only for header syntaxes with a closing marker. */
  | { readonly move: "header-end" }
  /** Ends a message (ChatML <|im_end|>, Llama <|eot_id|>, harmony <|end|>). */
  | { readonly move: "message-end" }
  /** Starts a new segment with this role (ChatGLM3 <|assistant|>, DeepSeek <｜Assistant｜>). */
  | { readonly move: "role"; readonly role: string }
  /** Opens / closes a block of Grammar.blocks (Qwen3 <think>, <tool_call>; DeepSeek <｜tool▁call▁begin｜>). */
  | { readonly move: "block-open"; readonly block: string }
  | { readonly move: "block-close"; readonly block: string }
  /** A separator inside a block's body (DeepSeek <｜tool▁sep｜>): handed to the body syntax. */
  | { readonly move: "separator"; readonly block: string }
  /**
   * InternLM2 <|plugin|> / <|interpreter|>: names the kind of the action just opened (a block
   * with `kindFromMarker`), and its body syntax (`body`, default "raw"; `argumentsKey` as in
   * BlockGrammar). Inside a "line" header the kind is appended to the header's name.
   */
  | {
      readonly move: "action-kind";
      readonly kind: string;
      readonly body?: BodySyntax;
      readonly argumentsKey?: "arguments" | "parameters";
    }
  /**
   * Starts a named field of a header that has its own markers (harmony `<|channel|>` starts the
   * channel, `<|constrain|>` the content type); only header syntaxes with such fields read it.
   */
  | { readonly move: "header-field"; readonly field: "channel" | "constrain" }
  /** End of text (</s>, <|endoftext|>, <|end_of_text|>): a stop when it is EOS, else misplaced. */
  | { readonly move: "end-of-text" }
  /**
   * A reserved token the template writes around a turn's plain content (Command R7B
   * <|START_RESPONSE|>): read as a piece with no text, never an error.
   */
  | { readonly move: "content-mark" }
  /** Never valid in a generation (BOS, [MASK], <tool_response>, ...): an error event. */
  | { readonly move: "misplaced" };

/** How the text between a message start and its content is read. */
export type HeaderSyntax =
  /** No header: content starts at once (ChatGLM3/DeepSeek use role markers instead). */
  | { readonly syntax: "none" }
  /** ChatML: `ROLE[ name=NAME]\n` ends at the first "\n" (Qwen3, InternLM2). */
  | { readonly syntax: "line" }
  /**
   * After a role marker: a metadata line up to "\n" (ChatGLM3 `<|assistant|>get_weather\n`). A
   * non-empty metadata line of an `actionRole` segment opens the action block `actionBlock`
   * (kind = the metadata), or the block `blockByMetadata[metadata]` when listed.
   */
  | {
      readonly syntax: "role-metadata-line";
      readonly actionRole?: string;
      readonly actionBlock?: string;
      readonly blockByMetadata?: Readonly<Record<string, string>>;
      /**
       * Metadata lines that address the reader, not a tool (Functionary v3.2 `>>>all\n`): the
       * segment is content, as after an empty metadata line.
       */
      readonly contentMetadata?: readonly string[];
    }
  /** Role text between message-start and header-end, then `dropAfter` (Llama: "\n\n"). */
  | { readonly syntax: "pair"; readonly dropAfter: string }
  /**
   * harmony: `ROLE[ to=R]<|channel|>C[ TYPE]<|message|>` between message-start and header-end,
   * its fields started by "header-field" markers.
   */
  | { readonly syntax: "harmony" };

/** Newline rules the vendor template applies around a block, written once for encoder and decoder. */
export interface NewlineRules {
  /** Trailing "\n" of the preceding text the template writes before the block opens ("one": Qwen3's "\n" before <tool_call>). */
  readonly beforeOpen?: "none" | "one" | "all";
  /** Leading "\n" inside the body the template writes after the open marker. */
  readonly afterOpen?: "none" | "one" | "all";
  /** Trailing "\n" inside the body before the close marker ("all": Qwen3 rstrips reasoning). */
  readonly beforeClose?: "none" | "one" | "all";
  /**
   * Leading "\n" of the text after the close marker ("all": Qwen3's "\n\n" after </think>;
   * "one-before-end": one "\n" the template writes between the close marker and the message
   * end, dropped only when the message ends right after it, InternLM2 after <|action_end|>).
   */
  readonly afterClose?: "none" | "one" | "all" | "one-before-end";
}

/** How a tool-call / action body is parsed into {name, arguments}. */
export type BodySyntax =
  /** `{"name": N, "arguments"|"parameters": {...}}` (Qwen3, InternLM2 plugin, Llama). */
  | "json-call"
  /**
   * `[{"name": N, "arguments": {...}[, "id": ID]}, ...]` (Mistral v2-v7): a JSON list of
   * json-call objects, each element its own action.
   */
  | "json-call-list"
  /**
   * `[{"NAME": {...}}, ...]` (Apertus): a JSON list of one-key objects, the key the tool name
   * and its value the arguments; each element its own action.
   */
  | "json-named-call-list"
  /** ChatGLM3: metadata = name, body = Python call / fenced code. */
  | "python-call"
  /** Qwen3-Coder: `<function=N>\n<parameter=K>\nV\n</parameter>...</function>`, values typed by the tool schema. */
  | "xml-call"
  /** DeepSeek: `TYPE<sep>NAME\n```json\nARGS\n```` (the separator is a marker). */
  | "fenced-json-call"
  /**
   * `NAME<sep>ARGS` or `NAME<sep>ID<sep>ARGS` (Mistral v11+: ‹CALL_ID› / ‹ARGS›, both separator
   * markers), ARGS a JSON object.
   */
  | "name-args"
  /**
   * `ID<sep>ARGS` (Kimi K2 `functions.get_weather:0<|tool_call_argument_begin|>{...}`): the
   * call id, reported as the call's id, names the function between its first "." and its last
   * ":"; ARGS a JSON object.
   */
  | "call-id-args"
  /** Kept as raw action text only (InternLM2 interpreter). */
  | "raw"
  /**
   * LFM2: `[NAME(k=V, ...), ...]`, a Python list of calls with keyword arguments (dotted names
   * allowed), each call its own action; values are Python literals whose strings are read raw
   * (the text between the quotes) and whose dicts may be JSON.
   */
  | "python-call-list"
  /**
   * Gemma 4: `call:NAME{key:value,...}` with bare keys and strings quoted by a reserved marker
   * (the block's separator, `<|"|>`); values are numbers, true / false, null / None, lists and
   * objects of the same syntax.
   */
  | "marker-quoted-call"
  /**
   * Functionary v3.1: `NAME>{json}`, the body of `<function=NAME>{json}</function>` between
   * its text markers (Grammar.textMarkers `<function=` / `</function>`).
   */
  | "tag-name-json"
  /**
   * MiniMax-M2: `<invoke name="N">\n<parameter name="K">V</parameter>\n</invoke>` repeated in one
   * block, each call its own action; values typed by every type the tool schema allows
   * (XmlSpelling.valueTyping "type-set").
   */
  | "xml-invoke-list"
  /**
   * DeepSeek V3.2 DSML: `<｜DSML｜invoke name="N">` with `<｜DSML｜parameter name="K"
   * string="true|false">V</｜DSML｜parameter>` repeated in one block, each call its own action;
   * `string="true"` values are text, `"false"` values JSON.
   */
  | "dsml-invoke-list"
  /**
   * GLM 4.5 / 4.6 / 4.7: `NAME<arg_key>K</arg_key><arg_value>V</arg_value>...`, the four tags
   * reserved tokens given to the block as separator markers (in that order, repeated); values
   * are text for a string-typed parameter, else JSON / a Python literal / text.
   */
  | "arg-key-value"
  /**
   * A tool-call region of an HF `response_template` (docs/templates.md "response_template"):
   * what the template's open pattern reads after the open marker, then a json / xml-inline /
   * kv-lines body, the call's name and arguments picked by its transform. The block's
   * `responseField` describes it.
   */
  | "response-field"
  /**
   * Functionary v3.2: the action kind is the tool's name (a role-metadata-line header's
   * metadata, `>>>get_weather\n`) and the body is its arguments, one JSON object.
   */
  | "json-arguments";

/** One item of a response_template pattern, in the safe subset chatwire runs (linear, no backtracking). */
export type ResponsePatternItem =
  /** Literal text. */
  | { readonly lit: string }
  /** `\s*`: any whitespace, possibly none. */
  | { readonly ws: true }
  /** `(?P<NAME>\w+)`: a word, captured. */
  | { readonly word: string }
  /** `(?P<NAME>.*?)` or `.*?`: the shortest text up to the next literal (captured when named). */
  | { readonly lazy: string | null };

/** Where a call's name or arguments come from: a capture of the open pattern, or a path into the parsed body. */
export type ResponseValuePath = { readonly capture: string } | { readonly content: readonly string[] };

/** BlockGrammar.responseField: a response_template tool-call region compiled to data. */
export interface ResponseFieldBody {
  /** What the open pattern reads after its leading marker (captures the name, e.g. `call:(?P<name>\w+)`). */
  readonly header: readonly ResponsePatternItem[];
  readonly content: "json" | "xml-inline" | "kv-lines";
  /** json: transformers' lax knobs (`unquoted_keys`, `string_delims`, `allow_non_json`). */
  readonly unquotedKeys?: boolean;
  readonly stringDelims?: ReadonlyArray<readonly [string, string]>;
  readonly allowNonJson?: boolean;
  /**
   * A string delimiter the vocabulary reserves (Gemma 4's `<|"|>`): the block's separator marker,
   * which the body reads back as this text.
   */
  readonly separatorText?: string;
  /** xml-inline: `tag_pattern` (with `key` and `value` captures), duplicate keys as a list. */
  readonly tag?: readonly ResponsePatternItem[];
  readonly mergeDuplicates?: boolean;
  /**
   * xml-inline / kv-lines `value_parser`: none (the text as is), "text" (stripped), "json",
   * "json-or-text" (json with allow_non_json: the stripped text when it is not JSON).
   */
  readonly valueParser?: "text" | "json" | "json-or-text";
  /** kv-lines: separators and stripping. */
  readonly lineSep?: string;
  readonly kvSep?: string;
  readonly strip?: boolean;
  /** The transform's `function.name` and `function.arguments`. */
  readonly name: ResponseValuePath;
  readonly arguments: ResponseValuePath;
}

export interface BlockGrammar {
  readonly name: string;
  /** "reasoning": body is reasoning events; "action": action events; "container": groups blocks, emits nothing. */
  readonly emits: "reasoning" | "action" | "container";
  /** Action kind reported in action_start (default: the block name). */
  readonly kind?: string;
  readonly body?: BodySyntax;
  readonly newlines?: NewlineRules;
  /** Blocks allowed inside (a container's children). */
  readonly children?: readonly string[];
  /** The kind and body syntax come from an "action-kind" marker right after the open marker. */
  readonly kindFromMarker?: boolean;
  /** json-call: the key read first for the arguments (default "arguments"; both are accepted). */
  readonly argumentsKey?: "arguments" | "parameters";
  /**
   * json-call-list: the keys of the tool name and the call id when the format spells them
   * otherwise (Command R7B `{"tool_call_id": …, "tool_name": …, "parameters": …}`; default
   * "name" / "id").
   */
  readonly callKeys?: { readonly name?: string; readonly id?: string };
  /**
   * An action block without a close marker whose open marker starts each call: opening it
   * while it is open ends the open action first (Mistral v11+ ‹TOOL_CALLS› per call).
   */
  readonly reopens?: boolean;
  /** body "response-field": the region's compiled description. */
  readonly responseField?: ResponseFieldBody;
  /**
   * Fixed text that follows the block's RESERVED open marker and is part of the marker, not of
   * the body (Gemma 4 reasoning: ‹<|channel>›`thought\n`…‹<channel|>›). The block opens only
   * when the model writes exactly this text after the marker; other text there makes the marker
   * an "unexpected-reserved-token" error and the text is content (docs/decoder.md "Open-marker
   * text"). Not read after a text marker (Grammar.textMarkers: write the whole literal there).
   */
  readonly openText?: string;
  /**
   * A child block that may also open at the top level, outside its container (Kimi K2 writes a
   * lone call without its tool section); it then returns to content when it ends.
   */
  readonly alsoTopLevel?: boolean;
  /**
   * Opening it while the reasoning block is open closes the reasoning first (Kimi K2 starts its
   * tool section or a call without closing its thinking, as Moonshot's and vLLM's parsers read it);
   * without it, its open marker inside reasoning is reasoning text.
   */
  readonly endsReasoning?: boolean;
}

/** One part of a call's opening (CallOpening), in the order the model writes it. */
export type OpeningPart<K extends string = string> =
  /** A reserved token (placed by format code, never encoded from text). */
  | { readonly marker: K }
  /** Ordinary text, through the text encoder (adjacent text and name parts are encoded as one). */
  | { readonly text: string }
  /**
   * The tool's name: "json" = JSON.stringify(name) (what the renderers write inside JSON);
   * "raw" = as is, so it must be a non-empty single line that does not contain the first
   * character of the text written right after it (its delimiter).
   */
  | { readonly name: "json" | "raw" };

/**
 * How a tool call opens, as the model writes it at the start of its turn (right after the
 * generation prompt): the OpenAI layer prefills it for tool_choice "required" / named, and the
 * decoder reads the same IDs first (docs/openai.md "tool_choice"). Text parts end before a space
 * that the pre-tokenizer would join to the next token, so the model continues on a natural
 * token boundary.
 */
export interface CallOpening<K extends string = string> {
  /**
   * Opens a call of some tool (the model writes the name). Absent: the call starts with the name
   * itself (ChatGLM3's metadata line), so "required" is only honoured with exactly one tool.
   */
  readonly required?: readonly OpeningPart<K>[];
  /** Opens a call of one tool: exactly one `name` part. */
  readonly named: readonly OpeningPart<K>[];
  /** Names that open something other than a call in that place (ChatGLM3 "interpreter"). */
  readonly notNames?: readonly string[];
}

/** The action kind of a plainTextToolCall (the decoder's events; the OpenAI layer's call check). */
export const PLAIN_TEXT_CALL_KIND = "tool_call";

export interface Grammar<K extends string = string> {
  /** Token key -> move. Reserved IDs not listed here are "misplaced". */
  readonly markers: Readonly<Partial<Record<K, MarkerMove>>>;
  readonly header: HeaderSyntax;
  readonly blocks?: readonly BlockGrammar[];
  /** Role of a stream that starts without a header (default "assistant"). */
  readonly initialRole?: string;
  /**
   * A tool call written as plain model text, not marked by any token (Llama 3 custom tools):
   * detected only when the decoder was given the request's tools. Structure read from text:
   * documented as such. Its actions are of kind PLAIN_TEXT_CALL_KIND.
   */
  readonly plainTextToolCall?: "json-call";
  /** Decoding may start inside this block (Qwen3 thinking-only prompts opened <think>). */
  readonly startBlock?: string;
  /**
   * Text the generation prompt writes at the start of the startBlock's body, after the
   * assistant's turn start (Apriel 1.6: `Here are my reasoning steps:\n`, where a rendered turn
   * writes its reasoning). A prompt that ends with it opened the block (promptOpensStartBlock),
   * and a decoder that starts in the block reports it as the body's first text: it is the start
   * of the reasoning as the template renders that reasoning back (not text the model wrote).
   */
  readonly startText?: string;
  /**
   * A call written as a turn of its own after the assistant's end of turn (GigaChat 3.0:
   * `…‹<|message_sep|>›\n\nfunction call‹<|role_sep|>›\n{"name": …, "arguments": …}‹<|message_sep|>›`):
   * after a message end, `text` then the reserved `marker` open `block` (an action block with no
   * marker of its own), and the call turn's end of turn ends it; anything else after the message
   * end is read as after any message end. Read by the turn layer of a probed template.
   */
  readonly callTurn?: { readonly text: string; readonly marker: K; readonly block: string };
  /** How a call opens (tool_choice prefill); absent: "required" / named cannot be prefilled. */
  readonly callOpening?: CallOpening<K>;
  /**
   * Literal text that acts as a marker when the model writes it as ordinary text, for formats
   * whose structure has no reserved token (DeepSeek V3.2 `<｜DSML｜function_calls>`, Functionary
   * `<function=` / `</function>`, Command-R `Action:`, Phi-4 `functools[`, Functionary v3.2
   * `>>>`). Text -> move; only "block-open", "block-close", "separator" and "role" moves, each
   * recognized only where that move is valid (docs/decoder.md "Text markers"; a "role" move in
   * content and in an action block's body). Non-empty, well-formed strings without U+FFFD.
   */
  readonly textMarkers?: Readonly<Record<string, MarkerMove>>;
}
