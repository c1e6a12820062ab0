// Symbols outside the vocabulary, the way llama.cpp treats them: a re-implementation of its rule in
// src/llama-vocab.cpp, llm_tokenizer_bpe_session::tokenize (and the merge table of
// llama_vocab::impl::load), for vocabularies read from GGUF files, where llama.cpp is the
// reference. HF tokenizers refuses such files; llama.cpp, whose BPE works on strings, does not:
//   - a byte whose symbol is not a token (Falcon's 0x03, StarCoder's 0xF1) is still a symbol;
//   - merges apply by text, whether or not their halves or result are tokens;
//   - a final symbol that is not a token becomes the tokens of its single UTF-8 bytes that are
//     tokens, and the other bytes are dropped. A byte-level character is one byte only below
//     U+0080 (printable ASCII, its own symbol), so only those can survive: "\x03" is dropped.
//   - a merge listed twice keeps its first rank (a map emplace), where HF keeps the last.
// Here each such string gets a stand-in ID above the vocabulary, so the integer BPE runs
// unchanged; `spell` replaces stand-ins after merging, before anything leaves the word encoder.
// llama.cpp's text lookup also finds control and user-defined tokens, which chatwire never
// produces from text: a symbol spelled like one has no stand-in (idOf: undefined), and the model
// refuses the file as before rather than drop that text.

import type { Vocab } from "./vocab.ts";

export class OutsideSymbols {
  /** Stand-in i has ID base + i. */
  private readonly texts: string[] = [];
  private readonly ids = new Map<string, number>();
  /** The tokens each stand-in is spelled with (built once, when first needed). */
  private spellings: (readonly number[])[] = [];
  private scratch = new Int32Array(64);

  constructor(
    private readonly vocab: Vocab,
    /** The added tokens' contents (control and user-defined tokens). */
    private readonly reserved: ReadonlyMap<string, number>,
    /** Above every vocabulary and added-token ID. */
    readonly base: number,
  ) {}

  get size(): number {
    return this.texts.length;
  }

  /** The vocabulary ID of `text`, else its stand-in (made on first use); undefined: a reserved token's text. */
  idOf(text: string): number | undefined {
    const id = this.vocab.get(text) ?? this.ids.get(text);
    if (id !== undefined) return id;
    if (this.reserved.has(text)) return undefined;
    const made = this.base + this.texts.length;
    this.texts.push(text);
    this.ids.set(text, made);
    return made;
  }

  /**
   * syms[0..len) with every stand-in replaced by its spelling, in place; returns the new length.
   * The result is never longer than the word's byte count (one token per byte at most), which
   * the caller's buffer holds.
   */
  spell(syms: Int32Array, len: number): number {
    const base = this.base;
    let first = 0;
    while (first < len && (syms[first] as number) < base) first++;
    if (first === len) return len;
    if (this.scratch.length < len) this.scratch = new Int32Array(len * 2);
    const copy = this.scratch;
    copy.set(syms.subarray(first, len));
    let out = first;
    for (let i = 0; i < len - first; i++) {
      const id = copy[i] as number;
      if (id < base) {
        syms[out++] = id;
        continue;
      }
      for (const t of this.spelling(id - base)) syms[out++] = t;
    }
    return out;
  }

  private spelling(k: number): readonly number[] {
    if (this.spellings.length !== this.texts.length) this.spellings.length = this.texts.length;
    const known = this.spellings[k];
    if (known !== undefined) return known;
    const text = this.texts[k] ?? "";
    const ids: number[] = [];
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) >= 0x80) continue;
      const id = this.vocab.get(text[i] as string);
      if (id !== undefined) ids.push(id);
    }
    this.spellings[k] = ids;
    return ids;
  }
}
