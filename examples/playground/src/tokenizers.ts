// Loading the bundled tokenizers from URLs next to the page (fetch only, no node APIs), each
// once: chatwire's through fromAnyUrl (the library's one loader and its one choice: the native
// family when its definition fits the files, else the model's own chat template), the naive
// pipeline's from the same tokenizer.json.
import { fromAnyUrl } from "@chatwire/tokenizer";
import type { TokenizerEntry } from "./manifest.ts";
import { loadNaivePipeline, type NaivePipeline } from "./naive-pipeline.ts";
import { type PageTokenizer, pageTokenizer } from "./page-tokenizer.ts";

export interface Loaded {
  readonly entry: TokenizerEntry;
  readonly tok: PageTokenizer;
  /** Absent for tokenizers without a tokenizer.json (SentencePiece). */
  readonly naive: NaivePipeline | undefined;
}

const cache = new Map<string, Promise<Loaded>>();

export function tokenizerUrl(base: URL, entry: TokenizerEntry): string {
  return new URL(`tokenizers/${entry.name}/`, base).href;
}

export function loadBundled(base: URL, entry: TokenizerEntry): Promise<Loaded> {
  let p = cache.get(entry.name);
  if (p === undefined) {
    const url = tokenizerUrl(base, entry);
    p = Promise.all([
      fromAnyUrl(url).then(pageTokenizer),
      entry.naive ? loadNaivePipeline(url) : Promise.resolve(undefined),
    ]).then(([tok, naive]) => ({ entry, tok, naive }));
    p.catch(() => cache.delete(entry.name));
    cache.set(entry.name, p);
  }
  return p;
}
