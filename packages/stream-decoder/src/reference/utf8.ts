// Partial UTF-8 between byte pieces, for the reference decoder: held bytes are decoded as
// soon as a character is complete, and resolved to U+FFFD when the span ends. Written from
// the two rules, not from the engine's ../utf8-pending.ts:
// - "maximal-subpart" is the WHATWG decoder itself (TextDecoder, streaming, one per stream);
// - "per-byte" is SentencePiece's DecodeUTF8: at each position a whole valid sequence, or
//   ONE byte as U+FFFD and the next byte starts again.

const REPLACEMENT = "\uFFFD";

/** Sequence length announced by a lead byte (SentencePiece's structural rule), 0: not a lead. */
function leadLength(b: number): number {
  if (b < 0x80) return 1;
  if ((b & 0xe0) === 0xc0) return 2;
  if ((b & 0xf0) === 0xe0) return 3;
  if ((b & 0xf8) === 0xf0) return 4;
  return 0;
}

const MIN_CODE_POINT = [0, 0, 0x80, 0x800, 0x10000];

/** The code point of a structurally complete sequence, or -1 when it is overlong, a surrogate or too large. */
function codePoint(seq: readonly number[]): number {
  const n = seq.length;
  const b0 = seq[0] as number;
  let cp = n === 1 ? b0 : n === 2 ? b0 & 0x1f : n === 3 ? b0 & 0x0f : b0 & 0x07;
  for (let i = 1; i < n; i++) cp = (cp << 6) | ((seq[i] as number) & 0x3f);
  if (cp < (MIN_CODE_POINT[n] as number) || (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff) return -1;
  return cp;
}

/** A U+FEFF is a character of the text like any other: TextDecoder would drop one at the start. */
const whatwgDecoder = () => new TextDecoder("utf-8", { ignoreBOM: true });

export class ReferenceUtf8 {
  private readonly perByte: boolean;
  private whatwg: InstanceType<typeof TextDecoder>;
  /** per-byte: the bytes not decoded yet (at most 3 between calls). */
  private held: number[] = [];

  constructor(mode: "per-byte" | "maximal-subpart") {
    this.perByte = mode === "per-byte";
    this.whatwg = whatwgDecoder();
  }

  /** Adds a byte piece; returns the characters it completed (possibly ""). */
  feed(bytes: Uint8Array): string {
    if (!this.perByte) return this.whatwg.decode(bytes, { stream: true });
    for (const b of bytes) this.held.push(b);
    return this.drain(false);
  }

  /** The span ends: what is held becomes text (an incomplete sequence as U+FFFD); "" when nothing is. */
  flush(): string {
    // A final decode() with nothing held returns "" and leaves the decoder ready for more.
    if (!this.perByte) return this.whatwg.decode();
    return this.drain(true);
  }

  reset(): void {
    this.held = [];
    this.whatwg = whatwgDecoder();
  }

  private drain(final: boolean): string {
    let out = "";
    const h = this.held;
    let i = 0;
    while (i < h.length) {
      const n = leadLength(h[i] as number);
      if (n === 0) {
        out += REPLACEMENT;
        i++;
        continue;
      }
      let structural = true;
      let have = 1;
      while (have < n && i + have < h.length) {
        if (((h[i + have] as number) & 0xc0) !== 0x80) {
          structural = false;
          break;
        }
        have++;
      }
      if (structural && have < n) {
        if (!final) break;
        // Cut short at the end of the span: one byte is one U+FFFD, the rest is read again.
        out += REPLACEMENT;
        i++;
        continue;
      }
      const cp = structural ? codePoint(h.slice(i, i + n)) : -1;
      if (cp < 0) {
        out += REPLACEMENT;
        i++;
        continue;
      }
      out += String.fromCodePoint(cp);
      i += n;
    }
    this.held = h.slice(i);
    return out;
  }
}
