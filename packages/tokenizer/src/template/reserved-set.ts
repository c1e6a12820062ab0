// Which added tokens are RESERVED for a template-rendered model (docs/templates.md):
//
//   every added token, special or not, is reserved — placed only where template-origin text
//   spells it, never from caller text — EXCEPT text pieces: non-special added tokens that carry
//   no structure and that the vendor tokenizer matches inside ordinary text (Gemma 3's
//   whitespace runs and HTML tags). A token is never a text piece when it is special, appears
//   in the template source (whitespace runs excepted), has a control-token shape (`<|…|>`,
//   `<｜…｜>`, `[…]`), or is a SentencePiece control spelling at IDs 0-3 (`</s>` at 2).
//   "Carries no structure" is decided by shape: only whitespace (SentencePiece's "▁" counts),
//   or an HTML tag of a standard HTML element (so `<think>` / `<tool_call>` are reserved,
//   `<table>` / `</h1>` are text).
//
// Qwen3's `<think>`, `<tool_call>` (special: false) are reserved by this rule, which is what
// llama.cpp's parse_special=false gets wrong (USER_DEFINED tokens still match).

export interface AddedToken {
  readonly id: number;
  readonly content: string;
  readonly special: boolean;
  /** HF's lstrip / rstrip (tokenizer.json added_tokens): the whitespace before / after a match is part of it. */
  readonly lstrip?: boolean;
  readonly rstrip?: boolean;
}

const HTML_ELEMENTS = new Set(
  (
    "a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption cite code col " +
    "colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 " +
    "h2 h3 h4 h5 h6 head header hr html i iframe img input ins kbd label legend li link main map mark meta meter nav " +
    "noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp script section " +
    "select small source span strong style sub summary sup table tbody td template textarea tfoot th thead time " +
    "title tr track u ul var video wbr center font strike tt big"
  ).split(" "),
);

/** `<|…|>`, `<｜…｜>` (fullwidth bars), `[…]`. */
export function hasControlShape(s: string): boolean {
  return /^<\|.*\|>$/su.test(s) || /^<｜.*｜>$/su.test(s) || /^\[.*\]$/su.test(s);
}

/**
 * Shaped like a marker: a control shape, or anything in angle brackets (`<think>`, `</s>`,
 * `<tool_call>`, `<unused0>`). The template decoder's "skip" drops such reserved tokens even when
 * they are not special; other reserved text (a single letter) stays text.
 */
export function isMarkerShaped(s: string): boolean {
  return hasControlShape(s) || /^<.*>$/su.test(s);
}

/** Only whitespace; U+2581 "▁" is SentencePiece's space (Gemma 3's runs 138-167). */
function isWhitespaceRun(s: string): boolean {
  return /^[\s\u2581]+$/u.test(s);
}

function isStructureFree(s: string): boolean {
  if (isWhitespaceRun(s)) return true;
  const m = /^<\/?([a-z][a-z0-9]*)\s*\/?>$/u.exec(s);
  return m !== null && HTML_ELEMENTS.has(m[1] as string);
}

/**
 * SentencePiece's control spellings. At the IDs its trainer gives its control pieces (0-3) they
 * are the model's unk / bos / eos / pad, never text, even where a file types them as ordinary
 * (Phi-3's `</s>` at 2 is USER_DEFINED in its GGUF, `special: false` in its tokenizer.json, and
 * llama.cpp ends generation on it); elsewhere (Gemma 3's `<s>` 203, `</s>` 212) they are HTML.
 */
const SENTENCEPIECE_CONTROLS: ReadonlySet<string> = new Set(["<unk>", "<s>", "</s>", "<pad>"]);

/** True when `t` is a text piece (matched in all text, caller text included), false when reserved. */
export function isTextPiece(t: AddedToken, templateSources: readonly string[]): boolean {
  if (t.special || t.content.length === 0) return false;
  if (hasControlShape(t.content)) return false;
  if (t.id < 4 && SENTENCEPIECE_CONTROLS.has(t.content)) return false;
  // A whitespace run in the source (every multi-line template has "\n") is layout, not structure:
  // reserving Gemma 3's "\n" would make every caller newline encode differently from HF.
  if (!isWhitespaceRun(t.content) && templateSources.some((src) => src.includes(t.content))) return false;
  return isStructureFree(t.content);
}

export interface ReservedSplit {
  /** Reserved strings -> ID (matched only inside template-origin text). */
  readonly reserved: ReadonlyMap<string, number>;
  /** Text pieces -> ID (matched in all text, as the vendor tokenizer does). */
  readonly textPieces: ReadonlyMap<string, number>;
}

export function splitAddedTokens(
  tokens: readonly AddedToken[],
  templateSources: readonly string[],
): ReservedSplit {
  const reserved = new Map<string, number>();
  const textPieces = new Map<string, number>();
  for (const t of tokens) {
    if (t.content.length === 0) continue;
    (isTextPiece(t, templateSources) ? textPieces : reserved).set(t.content, t.id);
  }
  return { reserved, textPieces };
}
