// Incomplete UTF-8 held as bytes between tokens (harmony's approach; guessing from a decoded
// text that ends in U+FFFD would confuse a real U+FFFD with a cut character). The held bytes
// are one small integer per stream: no allocation per byte.
//
// Two replacement policies, chosen by the text model's decode table so that the streamed
// output equals the reference one-shot decode exactly:
// - "per-byte" (SentencePiece DecodeIds): at each position either a whole valid sequence is
//   consumed or ONE byte becomes U+FFFD and scanning restarts at the next byte;
// - "maximal-subpart" (WHATWG TextDecoder / Rust from_utf8_lossy, used by HF ByteLevel): a
//   maximal valid prefix that is cut short becomes ONE U+FFFD; the offending byte restarts.

const REPLACEMENT = "\uFFFD";

/**
 * The bytes a per-byte path works on (held bytes, then the piece's, at most 4 at a time), one
 * for every stream: each path fills it from `held` and packs it back before it returns, and
 * calls nothing in between, so no two streams use it at once.
 */
const SCRATCH = new Uint8Array(4);

export class Utf8Pending {
  /**
   * The held bytes (0..3 between calls) packed little-endian, their count above bit 24 (0:
   * nothing held): one small integer, so the split path moves a piece's held tail in one store.
   * The per-byte paths unpack it into SCRATCH.
   */
  held = 0;
  /** Number of bytes in SCRATCH while a per-byte path runs. */
  private n = 0;
  private readonly perByte: boolean;

  constructor(mode: "per-byte" | "maximal-subpart") {
    this.perByte = mode === "per-byte";
  }

  /** Number of held bytes (0..3). */
  get len(): number {
    return this.held >>> 24;
  }

  reset(): void {
    this.held = 0;
  }

  /** Adds bytes; returns the text that became complete (possibly ""). */
  feed(bytes: Uint8Array): string {
    this.unpack();
    let out = "";
    for (let i = 0; i < bytes.length; i++) {
      SCRATCH[this.n++] = bytes[i] as number;
      out += this.drain(false);
    }
    this.pack();
    return out;
  }

  /**
   * feed() of a piece with a ByteSplit, when the held bytes and its own make valid UTF-8: the
   * completed text (possibly ""), with no per-byte work; undefined (nothing changed) when they
   * do not (then feed() decides the replacement characters).
   */
  feedSplit(p: ByteSplit): string | undefined {
    const held = this.held;
    if (held === 0) {
      if (p.lead !== 0) return undefined;
      this.held = p.tail;
      return p.mid;
    }
    if (p.lead === 0) return undefined;
    if (held === p.memoHeld) {
      this.held = p.memoNext;
      return p.memoOut;
    }
    if (held === p.memoHeld2) {
      this.held = p.memoNext2;
      return p.memoOut2;
    }
    const r = this.complete(p);
    if (r === undefined) return undefined;
    p.memoHeld2 = p.memoHeld;
    p.memoOut2 = p.memoOut;
    p.memoNext2 = p.memoNext;
    p.memoHeld = held;
    p.memoOut = r;
    p.memoNext = this.held;
    return r;
  }

  /** `held` into SCRATCH (and its count into `n`). */
  private unpack(): void {
    const h = this.held;
    const n = h >>> 24;
    const b = SCRATCH;
    for (let i = 0; i < n; i++) b[i] = (h >>> (8 * i)) & 0xff;
    this.n = n;
  }

  /** SCRATCH back into `held` (at most 3 bytes: a complete sequence never stays in it). */
  private pack(): void {
    this.held = packed(SCRATCH, 0, this.n);
  }

  /**
   * feedSplit with bytes held, for a piece that starts with continuation bytes: the completed
   * character and the piece's middle, the piece's tail now held; or "" when the sequence is
   * still incomplete (the bytes were added to the held ones); undefined when the bytes are not
   * valid UTF-8 (nothing changed).
   */
  private complete(p: ByteSplit): string | undefined {
    this.unpack();
    const b = SCRATCH;
    const k = this.n;
    const lead = p.lead;
    const need = seqLen(b[0] as number);
    if (k + lead > need) return undefined;
    for (let i = 0; i < lead; i++) b[k + i] = (p.leadBytes >>> (8 * i)) & 0xff;
    if (!validPrefix(b, 0, k + lead)) return undefined;
    if (k + lead < need) {
      // Still incomplete: only a piece of nothing but continuation bytes can add to it.
      if (p.mid !== "" || p.tail !== 0) return undefined;
      this.n = k + lead;
      this.pack();
      return "";
    }
    this.held = p.tail;
    const cp = String.fromCodePoint(this.codePoint(need));
    return p.mid === "" ? cp : cp + p.mid;
  }

  /** The span ends: everything held is resolved (incomplete sequences -> U+FFFD). */
  flush(): string {
    if (this.held === 0) return "";
    this.unpack();
    const out = this.drain(true);
    this.held = 0;
    return out;
  }

  private drain(final: boolean): string {
    let out = "";
    while (this.n > 0) {
      const r = this.perByte ? this.checkPerByte() : this.checkMaximal();
      if (r > 0) {
        out += String.fromCodePoint(this.codePoint(r));
        this.shift(r);
      } else if (r === 0) {
        if (!final) break;
        // Cut short at the end of the span.
        out += REPLACEMENT;
        this.shift(this.perByte ? 1 : this.n);
      } else {
        out += REPLACEMENT;
        this.shift(-r);
      }
    }
    return out;
  }

  private shift(n: number): void {
    const b = SCRATCH;
    for (let i = n; i < this.n; i++) b[i - n] = b[i] as number;
    this.n -= n;
  }

  private codePoint(n: number): number {
    const b = SCRATCH;
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
    const b = SCRATCH;
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
    for (let i = 1; i < this.n; i++) {
      const x = b[i] as number;
      const l = i === 1 ? lo : 0x80;
      const h = i === 1 ? hi : 0xbf;
      if (x < l || x > h) return -i;
    }
    return this.n - 1 >= need ? need + 1 : 0;
  }

  // SentencePiece util DecodeUTF8/IsValidDecodeUTF8: structural check (lead + trail bytes),
  // then overlong / surrogate / range checks on the finished code point; any failure costs
  // exactly one byte.
  private checkPerByte(): number {
    const b = SCRATCH;
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
    for (let i = 1; i < this.n; i++) if (((b[i] as number) & 0xc0) !== 0x80) return -1;
    if (this.n - 1 < need) return 0;
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
    /**
     * The trailing incomplete sequence (0..3 bytes) as Utf8Pending holds it: packed
     * little-endian, its count above bit 24 (0: none).
     */
    readonly tail: number,
  ) {
    this.midEndsNl = mid.charCodeAt(mid.length - 1) === 10;
  }

  /**
   * `mid` ends in "\n", so does every text feedSplit returns for this piece (else it ends in
   * a completed multi-byte character, or is ""): the newline rules' test without reading it.
   */
  readonly midEndsNl: boolean;

  /**
   * The last held prefix this piece followed (packed as Utf8Pending holds it; -1: none), the
   * text that gave and what was held after it: a piece usually follows the same prefix (an
   * emoji's second half its first half), so its character is made once.
   */
  memoHeld = -1;
  memoOut = "";
  memoNext = 0;
  /**
   * The prefix before that one, its text and what was held after: a continuation piece that
   * ends several characters (a rare CJK tail after two different leads) alternates between two.
   */
  memoHeld2 = -1;
  memoOut2 = "";
  memoNext2 = 0;
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

// ignoreBOM: a U+FEFF at the start of the bytes is text (TextDecoder would drop it).
const STRICT = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

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
  return new ByteSplit(lead, leadBytes, STRICT.decode(bytes.subarray(lead, tail)), packed(bytes, tail, n));
}

/** bytes[from, to) (at most 3) as Utf8Pending holds them: little-endian, their count above bit 24. */
function packed(bytes: Uint8Array, from: number, to: number): number {
  let v = (to - from) << 24;
  for (let j = from; j < to; j++) v |= (bytes[j] as number) << (8 * (j - from));
  return v;
}
