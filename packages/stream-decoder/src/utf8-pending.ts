// Incomplete UTF-8 held as bytes between tokens (harmony's approach; guessing from a decoded
// text that ends in U+FFFD would confuse a real U+FFFD with a cut character). One fixed 4-byte
// buffer per stream: no allocation per byte.
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

  /**
   * feed() of a piece with a ByteSplit, when the held bytes and its own make valid UTF-8: the
   * completed text (possibly ""), with no per-byte work; undefined (nothing changed) when they
   * do not (then feed() decides the replacement characters).
   */
  feedSplit(p: ByteSplit): string | undefined {
    let out = p.mid;
    const k = this.len;
    if (k === 0) {
      if (p.lead !== 0) return undefined;
    } else {
      if (p.lead === 0) return undefined;
      const held = this.packed();
      if (held === p.memoHeld) out = p.memoOut;
      else if (held === p.memoHeld2) out = p.memoOut2;
      else {
        const r = this.complete(p, k);
        if (r === undefined || r === "") return r;
        out = r;
        p.memoHeld2 = p.memoHeld;
        p.memoOut2 = p.memoOut;
        p.memoHeld = held;
        p.memoOut = r;
      }
    }
    const t = p.tailBytes;
    const b = this.buf;
    for (let i = 0; i < p.tailLen; i++) b[i] = (t >>> (8 * i)) & 0xff;
    this.len = p.tailLen;
    return out;
  }

  /** The held bytes packed little-endian, their count above bit 24. */
  private packed(): number {
    const b = this.buf;
    let v = this.len << 24;
    for (let i = 0; i < this.len; i++) v |= (b[i] as number) << (8 * i);
    return v;
  }

  /**
   * feedSplit with `k` held bytes, for a piece that starts with continuation bytes: the
   * completed character and the piece's middle; "" when the sequence is still incomplete (the
   * bytes were added to the held ones); undefined when the bytes are not valid UTF-8.
   */
  private complete(p: ByteSplit, k: number): string | undefined {
    const b = this.buf;
    const lead = p.lead;
    const need = seqLen(b[0] as number);
    if (k + lead > need) return undefined;
    for (let i = 0; i < lead; i++) b[k + i] = (p.leadBytes >>> (8 * i)) & 0xff;
    if (!validPrefix(b, 0, k + lead)) return undefined;
    if (k + lead < need) {
      // Still incomplete: only a piece of nothing but continuation bytes can add to it.
      if (p.mid !== "" || p.tailLen !== 0) return undefined;
      this.len = k + lead;
      return "";
    }
    const cp = String.fromCodePoint(this.codePoint(need));
    return p.mid === "" ? cp : cp + p.mid;
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

/**
 * A byte piece's bytes, split once per ID (byteSplitOf): `lead` continuation bytes that finish
 * a held sequence, then complete valid UTF-8 (`mid`, decoded), then a valid prefix of one more
 * sequence (`tail`, held). Only pieces whose bytes are all valid UTF-8 in that sense get one:
 * on valid input both replacement policies decode the same, so Utf8Pending.feedSplit needs
 * neither; everything else takes feed().
 */
export class ByteSplit {
  constructor(
    /** Leading continuation bytes (0..3), packed little-endian in `leadBytes`. */
    readonly lead: number,
    readonly leadBytes: number,
    readonly mid: string,
    /** Trailing incomplete sequence (0..3 bytes), packed little-endian in `tailBytes`. */
    readonly tailLen: number,
    readonly tailBytes: number,
  ) {}

  /**
   * The last held prefix this piece completed (held bytes packed like `leadBytes`, with their
   * count above bit 24; -1: none) and the text that gave: a piece usually follows the same
   * prefix (an emoji's second half its first half), so its character is made once.
   */
  memoHeld = -1;
  memoOut = "";
  /**
   * The prefix completed before that one, and its text: a continuation piece that ends several
   * characters (a rare CJK tail after two different leads) alternates between two.
   */
  memoHeld2 = -1;
  memoOut2 = "";
}

/** Length of the sequence a lead byte starts (1..4), 0 for a byte that cannot start one. */
function seqLen(b0: number): number {
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return 2;
  if (b0 >= 0xe0 && b0 <= 0xef) return 3;
  if (b0 >= 0xf0 && b0 <= 0xf4) return 4;
  return 0;
}

/** b[from .. from+n) is a valid prefix (or all) of one UTF-8 sequence: no overlong, surrogate or > U+10FFFF. */
function validPrefix(b: ArrayLike<number>, from: number, n: number): boolean {
  const b0 = b[from] as number;
  const len = seqLen(b0);
  if (len === 0 || n > len) return false;
  for (let i = 1; i < n; i++) {
    const x = b[from + i] as number;
    let lo = 0x80;
    let hi = 0xbf;
    if (i === 1) {
      if (b0 === 0xe0) lo = 0xa0;
      else if (b0 === 0xed) hi = 0x9f;
      else if (b0 === 0xf0) lo = 0x90;
      else if (b0 === 0xf4) hi = 0x8f;
    }
    if (x < lo || x > hi) return false;
  }
  return true;
}

const STRICT = new TextDecoder("utf-8", { fatal: true });

/** The ByteSplit of a byte piece, or null when its bytes are not valid UTF-8 in that shape. */
export function byteSplitOf(bytes: Uint8Array): ByteSplit | null {
  const n = bytes.length;
  let lead = 0;
  let leadBytes = 0;
  while (lead < n && ((bytes[lead] as number) & 0xc0) === 0x80) {
    if (lead === 3) return null;
    leadBytes |= (bytes[lead] as number) << (8 * lead);
    lead++;
  }
  let i = lead;
  let tail = n;
  while (i < n) {
    const len = seqLen(bytes[i] as number);
    if (len === 0) return null;
    if (i + len > n) {
      if (!validPrefix(bytes, i, n - i)) return null;
      tail = i;
      break;
    }
    if (!validPrefix(bytes, i, len)) return null;
    i += len;
  }
  let tailBytes = 0;
  for (let j = tail; j < n; j++) tailBytes |= (bytes[j] as number) << (8 * (j - tail));
  return new ByteSplit(lead, leadBytes, STRICT.decode(bytes.subarray(lead, tail)), n - tail, tailBytes);
}
