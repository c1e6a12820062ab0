// UTF-8 bytes written straight into one growing buffer, for the files a GGUF's vocabulary becomes
// (./spm-proto.ts, ./vocabulary.ts): tens of thousands of short strings, where a TextEncoder call
// and a Uint8Array per string, or template strings joined into one text, would be most of the cost.

export class Utf8Writer {
  buf: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }

  /** Room for n more bytes (the buffer doubles as needed). */
  room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  /**
   * `s` as UTF-8 (a lone surrogate as U+FFFD, as TextEncoder writes it). With `json`, stops at
   * the first character JSON must escape (quote, backslash, control) and returns false, the bytes
   * written so far left in place for the caller to drop.
   */
  text(s: string, json = false): boolean {
    this.room(s.length * 3);
    const buf = this.buf;
    let at = this.length;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        if (json && (c < 0x20 || c === 0x22 || c === 0x5c)) return false;
        buf[at++] = c;
      } else if (c < 0x800) {
        buf[at++] = 0xc0 | (c >> 6);
        buf[at++] = 0x80 | (c & 0x3f);
      } else {
        if (c >= 0xd800 && c <= 0xdfff) {
          const d = s.charCodeAt(i + 1);
          if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
            i++;
            c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            buf[at++] = 0xf0 | (c >> 18);
            buf[at++] = 0x80 | ((c >> 12) & 0x3f);
            buf[at++] = 0x80 | ((c >> 6) & 0x3f);
            buf[at++] = 0x80 | (c & 0x3f);
            continue;
          }
          c = 0xfffd;
        }
        buf[at++] = 0xe0 | (c >> 12);
        buf[at++] = 0x80 | ((c >> 6) & 0x3f);
        buf[at++] = 0x80 | (c & 0x3f);
      }
    }
    this.length = at;
    return true;
  }

  /** A JSON string literal of `s` (escaped by JSON.stringify when it needs any escape). */
  jsonString(s: string): void {
    const start = this.length;
    this.byte(0x22);
    if (this.text(s, true)) this.byte(0x22);
    else {
      this.length = start;
      this.text(JSON.stringify(s));
    }
  }

  /** ASCII text (JSON punctuation, numbers, keys). */
  ascii(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.length++] = s.charCodeAt(i);
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }

  /** The bytes written, in a buffer of their own size. */
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
