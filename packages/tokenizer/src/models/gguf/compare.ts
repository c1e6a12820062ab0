// Whether a tokenizer speaks a GGUF's vocabulary: the same token string at every ID. A server
// whose engine runs the GGUF must encode with the same IDs, or it answers with garbage.
import type { AnyTokenizer } from "../../load/load.ts";

export interface VocabularyDifference {
  readonly id: number;
  /** The GGUF's token at `id` (undefined: past its vocabulary). */
  readonly gguf: string | undefined;
  /** The tokenizer's token at `id` (undefined: none). */
  readonly tokenizer: string | undefined;
}

/** The token string a tokenizer has at `id`: its text model's piece, else a reserved token's name. */
function tokenAt(tok: AnyTokenizer, id: number): string | undefined {
  const piece = tok.textModel.idToPiece(id);
  if (piece !== undefined) return piece;
  return "registry" in tok ? tok.registry.nameById.get(id) : tok.nameById.get(id);
}

/** The first ID where the two differ (in ID order), or undefined when they agree everywhere. */
export function firstVocabularyDifference(
  ggufTokens: readonly string[],
  tok: AnyTokenizer,
): VocabularyDifference | undefined {
  const end = Math.max(ggufTokens.length, tok.textModel.vocabSize);
  for (let id = 0; id < end; id++) {
    const gguf = ggufTokens[id];
    const mine = tokenAt(tok, id);
    if (gguf !== mine) return { id, gguf, tokenizer: mine };
  }
  return undefined;
}
