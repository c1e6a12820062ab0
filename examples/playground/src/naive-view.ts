// The naive column: the render-then-tokenize IDs, each marked reserved (an added token of the
// tokenizer.json) and FORGED when it is a reserved ID that chatwire's encoding of the same
// conversation has no counterpart for (it came out of caller text). Counterparts come from
// aligning the two ID sequences (align.ts); past its edit bound, reserved IDs are paired in
// order with chatwire's reserved IDs instead.
import { matchedInB } from "./align.ts";
import type { PageTokenizer } from "./page-tokenizer.ts";
import { tokenLabel } from "./token-label.ts";

export interface NaiveCell {
  readonly id: number;
  readonly label: string;
  readonly reserved: boolean;
  readonly forged: boolean;
  /** Not lined up with any of chatwire's IDs (the two encodings differ here). */
  readonly differs: boolean;
}

/** Reserved IDs of `b` not paired, in order, with reserved IDs of `a` (the fallback). */
function unpairedReserved(
  a: readonly number[],
  b: readonly number[],
  reserved: ReadonlySet<number>,
): Uint8Array {
  const ra = a.filter((id) => reserved.has(id));
  const out = new Uint8Array(b.length).fill(1);
  let k = 0;
  b.forEach((id, j) => {
    if (!reserved.has(id)) return;
    if (k < ra.length && ra[k] === id) {
      k++;
      return;
    }
    out[j] = 0;
  });
  return out;
}

export function naiveCells(
  tok: PageTokenizer,
  chatwireIds: readonly number[],
  naiveIds: readonly number[],
  reserved: ReadonlySet<number>,
): { cells: NaiveCell[]; aligned: boolean } {
  const matched = matchedInB(chatwireIds, naiveIds);
  const paired = matched ?? unpairedReserved(chatwireIds, naiveIds, reserved);
  const cells = naiveIds.map((id, j) => {
    const isReserved = reserved.has(id);
    return {
      id,
      label: tokenLabel(tok, id),
      reserved: isReserved,
      forged: isReserved && paired[j] === 0,
      differs: matched !== undefined && matched[j] === 0,
    };
  });
  return { cells, aligned: matched !== undefined };
}
