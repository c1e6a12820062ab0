// An ID array that keeps its room from one encoding to the next: an encoder writes its IDs into
// it by index (TextModel.encodeAt) and hands out one copy (takeIds), and the chat builder keeps
// its ID buffer the same way between conversations (trimIds). Room for up to KEEP_IDS IDs
// (512 KiB) is kept; the room a longer text needed is let go after its call, so one huge input
// does not hold memory for the life of the tokenizer.

/** The most IDs of room an array keeps between calls. */
export const KEEP_IDS = 1 << 16;

/** The array's first `n` IDs as a new array; the array's room is let go when it is above KEEP_IDS. */
export function takeIds(scratch: number[], n: number): number[] {
  const ids = scratch.slice(0, n);
  trimIds(scratch);
  return ids;
}

/** Lets go of the array's room (empties it) when it is above KEEP_IDS. */
export function trimIds(scratch: number[]): void {
  if (scratch.length > KEEP_IDS) scratch.length = 0;
}
