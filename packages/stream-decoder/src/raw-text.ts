// The raw text of the open action (ActionEnd.raw, and what a body parser that does not read
// chunks parses at the action's end), kept as UTF-16 code units in one growing buffer and made
// into a string once, at the action's end.
//
// Why not `raw += t`: an action's text arrives one short piece per token, so a concatenated
// string is a rope of one node per token whose pieces are the spec's table strings, scattered
// over the heap. The parse at the end flattens it, visiting every node and piece again, long
// after they were read: that walk, plus one string node per token, was most of what a long
// tool call cost. Copying the few units of each piece while the handler has just read it, and
// decoding the buffer in one native call at the end, reads each piece once, in order.
//
// The string is made exactly from the code units (a lone surrogate stays what it is): with
// Node's Buffer ("ucs2" never replaces), else String.fromCharCode over slices.

/** What this file uses of Node's Buffer (looked up at run time: browsers have none). */
export interface Ucs2Buffer {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: "ucs2"): string };
}
export const NODE_BUFFER = (globalThis as { Buffer?: Ucs2Buffer }).Buffer;

/** Up to this many units, String.fromCharCode over the units beats setting up a Buffer view. */
const SMALL = 256;
/** Units per String.fromCharCode call (an argument list of this size is safe everywhere). */
const SLICE = 8192;
/** Buffers up to this many units go back to the shared free list when an action ends. */
const KEEP_MAX = 1 << 16;
/** Most buffers kept on the free list (with KEEP_MAX: at most 512 KB per process). */
const FREE_MAX = 4;
const EMPTY = new Uint16Array(0);
/**
 * Buffers of ended actions, for the next action of any decoder: a server makes one decoder per
 * stream, and growing a fresh buffer from nothing for each call cost more than the copies into it.
 */
const FREE: Uint16Array[] = [];

export class RawText {
  private buf: Uint16Array = EMPTY;
  /** Units held. */
  length = 0;

  /** Appends `t` (the caller bounds the total by maxBufferedChars). */
  append(t: string): void {
    const n = t.length;
    let len = this.length;
    let b = this.buf;
    if (len + n > b.length) b = this.grow(len + n);
    for (let j = 0; j < n; j++) b[len++] = t.charCodeAt(j);
    this.length = len;
  }

  private grow(need: number): Uint16Array {
    const old = this.buf;
    let b: Uint16Array | undefined;
    for (let i = FREE.length - 1; i >= 0; i--) {
      const f = FREE[i] as Uint16Array;
      if (f.length >= need) {
        b = f;
        FREE.splice(i, 1);
        break;
      }
    }
    if (b === undefined) {
      let size = Math.max(256, old.length * 2);
      while (size < need) size *= 2;
      b = new Uint16Array(size);
    }
    b.set(old.subarray(0, this.length));
    this.buf = b;
    if (old !== EMPTY) release(old);
    return b;
  }

  /** The text held, as one flat string; the buffer is then empty. */
  take(): string {
    const out = unitsToString(this.buf, this.length, NODE_BUFFER);
    this.clear();
    return out;
  }

  /** Empty; the buffer goes back to the free list. */
  clear(): void {
    this.length = 0;
    const b = this.buf;
    if (b === EMPTY) return;
    this.buf = EMPTY;
    release(b);
  }
}

function release(b: Uint16Array): void {
  if (b.length <= KEEP_MAX && FREE.length < FREE_MAX) FREE.push(b);
}

/**
 * The string of the first `n` code units of `b`, exactly (lone surrogates kept): with `buffer`
 * (Node's Buffer) for long texts, else String.fromCharCode over slices. Exported for the test
 * that holds both ways to plain concatenation.
 */
export function unitsToString(b: Uint16Array, n: number, buffer: Ucs2Buffer | undefined): string {
  if (n === 0) return "";
  if (n <= SMALL) return String.fromCharCode.apply(null, b.subarray(0, n) as unknown as number[]);
  if (buffer !== undefined) return buffer.from(b.buffer, b.byteOffset, n * 2).toString("ucs2");
  let out = "";
  for (let i = 0; i < n; i += SLICE)
    out += String.fromCharCode.apply(null, b.subarray(i, Math.min(n, i + SLICE)) as unknown as number[]);
  return out;
}
