// Incomplete UTF-8 held as bytes between tokens (harmony's approach, not the "ends in U+FFFD"
// heuristic of pitfall B7). One fixed 4-byte buffer per stream: no allocation per byte.
//
// Two replacement policies, chosen by the text model's decode table so that the streamed
// output equals the reference one-shot decode exactly:
// - "per-byte" (SentencePiece DecodeIds): at each position either a whole valid sequence is
//   consumed or ONE byte becomes U+FFFD and scanning restarts at the next byte;
// - "maximal-subpart" (WHATWG TextDecoder / Rust from_utf8_lossy, used by HF ByteLevel): a
//   maximal valid prefix that is cut short becomes ONE U+FFFD; the offending byte restarts.

const REPLACEMENT = "\uFFFD";

export class Utf8Pending {
  private readonly buf = new Uint8Array(4);
  /** Number of held bytes (0..3 between calls). Read by the decoder's fast-path check. */
  len = 0;
  private readonly perByte: boolean;

  constructor(mode: "per-byte" | "maximal-subpart") {
    this.perByte = mode === "per-byte";
  }

  reset(): void {
    this.len = 0;
  }

  /** Adds bytes; returns the text that became complete (possibly ""). */
  feed(bytes: Uint8Array): string {
    let out = "";
    for (let i = 0; i < bytes.length; i++) {
      this.buf[this.len++] = bytes[i] as number;
      out += this.drain(false);
    }
    return out;
  }

  /** The span ends: everything held is resolved (incomplete sequences -> U+FFFD). */
  flush(): string {
    return this.len === 0 ? "" : this.drain(true);
  }

  private drain(final: boolean): string {
    let out = "";
    while (this.len > 0) {
      const r = this.perByte ? this.checkPerByte() : this.checkMaximal();
      if (r > 0) {
        out += String.fromCodePoint(this.codePoint(r));
        this.shift(r);
      } else if (r === 0) {
        if (!final) break;
        // Cut short at the end of the span.
        out += REPLACEMENT;
        this.shift(this.perByte ? 1 : this.len);
      } else {
        out += REPLACEMENT;
        this.shift(-r);
      }
    }
    return out;
  }

  private shift(n: number): void {
    const b = this.buf;
    for (let i = n; i < this.len; i++) b[i - n] = b[i] as number;
    this.len -= n;
  }

  private codePoint(n: number): number {
    const b = this.buf;
    const b0 = b[0] as number;
    if (n === 1) return b0;
    if (n === 2) return ((b0 & 0x1f) << 6) | ((b[1] as number) & 0x3f);
    if (n === 3) return ((b0 & 0x0f) << 12) | (((b[1] as number) & 0x3f) << 6) | ((b[2] as number) & 0x3f);
    return (
      ((b0 & 0x07) << 18) |
      (((b[1] as number) & 0x3f) << 12) |
      (((b[2] as number) & 0x3f) << 6) |
      ((b[3] as number) & 0x3f)
    );
  }

  /** >0: a complete valid sequence of that length; 0: incomplete so far; <0: drop -r bytes as one U+FFFD. */
  private checkMaximal(): number {
    const b = this.buf;
    const b0 = b[0] as number;
    if (b0 < 0x80) return 1;
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) need = 1;
    else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      if (b0 === 0xe0) lo = 0xa0;
      else if (b0 === 0xed) hi = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      if (b0 === 0xf0) lo = 0x90;
      else if (b0 === 0xf4) hi = 0x8f;
    } else return -1;
    for (let i = 1; i < this.len; i++) {
      const x = b[i] as number;
      const l = i === 1 ? lo : 0x80;
      const h = i === 1 ? hi : 0xbf;
      if (x < l || x > h) return -i;
    }
    return this.len - 1 >= need ? need + 1 : 0;
  }

  // SentencePiece util DecodeUTF8/IsValidDecodeUTF8: structural check (lead + trail bytes),
  // then overlong / surrogate / range checks on the finished code point; any failure costs
  // exactly one byte.
  private checkPerByte(): number {
    const b = this.buf;
    const b0 = b[0] as number;
    if (b0 < 0x80) return 1;
    let need: number;
    let min: number;
    if ((b0 & 0xe0) === 0xc0) {
      need = 1;
      min = 0x80;
    } else if ((b0 & 0xf0) === 0xe0) {
      need = 2;
      min = 0x800;
    } else if ((b0 & 0xf8) === 0xf0) {
      need = 3;
      min = 0x10000;
    } else return -1;
    for (let i = 1; i < this.len; i++) if (((b[i] as number) & 0xc0) !== 0x80) return -1;
    if (this.len - 1 < need) return 0;
    const cp = this.codePoint(need + 1);
    if (cp < min || (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff) return -1;
    return need + 1;
  }
}
