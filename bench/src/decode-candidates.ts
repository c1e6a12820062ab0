// Candidates the decode workers share (measure.ts alternate()).
import type { Candidate } from "./measure.ts";
import { sinkText } from "./sink-handler.ts";

/**
 * The minimal floor: for each ID its precomputed piece string (`pieces`, the reference piece
 * table) to a callback that adds its length to the sink.
 */
export function floorCandidate(pieces: readonly string[], ids: readonly number[]): Candidate {
  const n = ids.length;
  return {
    name: "floor",
    run() {
      const cb = sinkText;
      for (let i = 0; i < n; i++) cb(pieces[ids[i] as number] as string);
      return n;
    },
  };
}
