// A byte-level model whose file has components beyond the BPE core's (./pipeline-spec.ts): the
// core does the BPE; this runs the normalizers and split steps first (./pipeline.ts) and calls
// the core once per piece. Every other member is the core's.

import type { DecodeTable } from "../text-model.ts";
import type { ByteLevelModel } from "./bytelevel-model.ts";
import { type CompiledSteps, compileSteps, pieces } from "./pipeline.ts";
import type { BytePipelineSpec } from "./pipeline-spec.ts";
import type { AddedTokenSpec } from "./tokenizer-json.ts";

export class PipelineByteLevelModel implements ByteLevelModel {
  readonly family = "byte-level-bpe" as const;
  readonly vocabSize: number;
  readonly blocked: ReadonlySet<number>;
  readonly literalPieces: ReadonlyMap<string, number>;
  readonly addedTokens: readonly AddedTokenSpec[];
  /**
   * "none" only when the text reaches BPE unchanged (split steps that keep every character);
   * undefined otherwise: the chat builder then measures its spans from the IDs.
   */
  readonly normalization?: "none";
  /** 0 when the IDs hold exactly the text's UTF-8 (as `normalization`), else unknown. */
  readonly leadingOffsetBytes?: number;
  private readonly compiled: CompiledSteps;

  constructor(
    private readonly core: ByteLevelModel,
    spec: BytePipelineSpec,
  ) {
    this.vocabSize = core.vocabSize;
    this.blocked = core.blocked;
    this.literalPieces = core.literalPieces;
    this.addedTokens = core.addedTokens;
    this.compiled = compileSteps(spec.normalizers, spec.steps, spec.prefixSpace);
    const keepsText =
      spec.normalizers.length === 0 && !spec.prefixSpace && spec.steps.every((s) => s.behavior !== "Removed");
    if (keepsText) {
      this.normalization = "none";
      this.leadingOffsetBytes = 0;
    }
  }

  encode(text: string): number[] {
    const out: number[] = [];
    this.encodeInto(text, out);
    return out;
  }

  /** encode(text)'s IDs appended to `out` (TextModel.encodeInto). */
  encodeInto(text: string, out: number[]): void {
    this.encodeAt(text, out, out.length);
  }

  /** TextModel.encodeAt: every piece's IDs written from `at` on; the index after them. */
  encodeAt(text: string, out: number[], at: number): number {
    let end = at;
    for (const p of pieces(this.compiled, text)) end = this.core.encodeAt(p, out, end);
    return end;
  }

  decode(ids: readonly number[]): string {
    return this.core.decode(ids);
  }

  idToPiece(id: number): string | undefined {
    return this.core.idToPiece(id);
  }

  pieceToId(piece: string): number | undefined {
    return this.core.pieceToId(piece);
  }

  tokenBytes(id: number): Uint8Array {
    return this.core.tokenBytes(id);
  }

  tokenByteLength(id: number): number {
    return this.core.tokenByteLength?.(id) ?? this.core.tokenBytes(id).length;
  }

  get decodeTable(): DecodeTable {
    return this.core.decodeTable;
  }
}
