// tokenizers/index.json, written by build/bundled-tokenizers.ts: the tokenizers served next to
// the page, each under tokenizers/<name>/.
export interface TokenizerEntry {
  readonly name: string;
  readonly label: string;
  readonly files: readonly string[];
  /** Offer the naive render-then-tokenize pipeline (@huggingface/tokenizers loads the tokenizer.json again). */
  readonly naive: boolean;
}

/** The manifest next to the page; an empty list when it cannot be read. */
export async function loadManifest(base: URL): Promise<TokenizerEntry[]> {
  const res = await fetch(new URL("tokenizers/index.json", base));
  if (!res.ok) throw new Error(`tokenizers/index.json: HTTP ${res.status}`);
  return (await res.json()) as TokenizerEntry[];
}
