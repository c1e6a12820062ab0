// TEMPORARY browser stand-in for `node:buffer`, aliased in vite.config.ts: the tokenizer's
// formats/builder.ts still calls Buffer.byteLength (its replacement is pending in the encoder
// work). Delete this file and the alias once no chatwire source imports node:buffer.
const utf8 = new TextEncoder();

export const Buffer = {
  /** UTF-8 length; a lone surrogate counts 3 bytes (U+FFFD), as Node's does. */
  byteLength(s: string, _encoding?: "utf8"): number {
    return utf8.encode(s).length;
  },
};
