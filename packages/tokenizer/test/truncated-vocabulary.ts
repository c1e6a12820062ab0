// A real prefix of a tokenizer.json's BPE: its first `count` merges and only the vocabulary they,
// the single-character pieces, the byte pieces and `keep` need (IDs unchanged). Both our loader and
// HF's load it about ten times faster than the whole file, so the suites that swap components
// into a vocabulary (normalizers, pre-tokenizers, decoders) compare those components on it; the
// whole vocabulary has its own differential suites.

type Json = Record<string, unknown>;

/**
 * `file` cut to its first `count` merges. `keep`: pieces to keep besides (the contents of the
 * added tokens that must keep their IDs: HF gives an added token missing from the vocabulary
 * the next free ID instead of the file's).
 */
export function truncatedVocabulary(file: Json, count: number, keep: Iterable<string> = []): Json {
  const model = file.model as { vocab: Record<string, number>; merges: (string | [string, string])[] };
  const merges = model.merges.slice(0, count);
  const kept = new Set<string>(keep);
  for (const m of merges) {
    const [a, b] = typeof m === "string" ? (m.split(" ") as [string, string]) : m;
    kept
      .add(a)
      .add(b)
      .add(a + b);
  }
  const vocab = Object.fromEntries(
    Object.entries(model.vocab).filter(
      ([piece, id]) =>
        kept.has(piece) || [...piece].length === 1 || /^<0x[0-9A-F]{2}>$/.test(piece) || id < 8,
    ),
  );
  return { ...file, model: { ...model, vocab, merges } };
}
