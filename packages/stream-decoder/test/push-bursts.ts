import type { Decoder } from "../src/index.ts";

/** Pushes `ids` in bursts of the given sizes in order (the last size repeats; none means one ID at a time), then ends. */
export function pushInBursts(d: Decoder, ids: readonly number[], sizes: readonly number[]): void {
  let i = 0;
  let k = 0;
  while (i < ids.length) {
    const n = sizes.length === 0 ? 1 : (sizes[Math.min(k++, sizes.length - 1)] as number);
    d.pushMany(ids.slice(i, i + n));
    i += n;
  }
  d.end();
}
