// A fast path for reading a tokenizer.json: model.vocab and model.merges (99% of Qwen3's
// 11.4 MB) are read straight from the text, everything else goes through JSON.parse.
//
// JSON.parse of the whole file would build a dictionary object with every key internalized and
// one array per merge, then walk them again to build the vocabulary. Here a vocabulary key is
// one slice of the text, a merge is four offsets into the text (resolved to ids by hashing the
// text's code units, see vocab.ts), and JSON.parse sees the document with those two values
// replaced by {} and [].
//
// Exactness: this path accepts only what it fully understands, in the form HF writes it
// (keys/strings without control characters, escapes decoded by JSON.parse itself, ids as plain
// non-negative integers < 2^24, merges all "a b" strings with one space or all [a, b] pairs,
// no duplicate "model"/"vocab"/"merges"/piece keys, no two keys with one id). Anything else,
// including any syntax error, returns undefined and the caller parses the whole file with
// JSON.parse as before, so errors and results are unchanged.

import { TOKEN_ID_LIMIT } from "../tokenizer-json-fields.ts";
import { Vocab } from "./vocab.ts";

export interface ScannedTokenizerJson {
  /** The document with model.vocab replaced by {} and model.merges by [] (JSON.parse'd). */
  readonly rest: object;
  readonly vocab: Vocab;
  /** The text the merge offsets point into. */
  readonly text: string;
  /** Per merge: a = text[m[4r], m[4r+1]), b = text[m[4r+2], m[4r+3]); m[4r] = -1: see `escaped`. */
  readonly mergeRanges: Int32Array;
  readonly mergeCount: number;
  /** Merges with an escaped string, decoded: rank -> [a, b]. */
  readonly escaped: ReadonlyMap<number, readonly [string, string]>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class Bail extends Error {}

/**
 * A slice of 13+ characters can keep its whole parent string alive (the multi-MB file text):
 * detach() copies it into a string of its own (a concatenation is flattened into a new string).
 */
const SLICED_MIN = 13;

function detach(s: string): string {
  return ` ${s}`.slice(1);
}

function bail(): never {
  throw new Bail();
}

/** The scanned document, or undefined when the caller must JSON.parse the whole text. */
export function scanTokenizerJson(text: string): ScannedTokenizerJson | undefined {
  try {
    return new Scanner(text).document();
  } catch (e) {
    if (e instanceof Bail || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  ws(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  expect(c: number): void {
    this.ws();
    if (this.text.charCodeAt(this.pos) !== c) bail();
    this.pos++;
  }

  /** The `{` of an object the scan needs members of (an empty one is not the expected shape). */
  openObject(): void {
    this.expect(0x7b);
    this.ws();
    if (this.text.charCodeAt(this.pos) === 0x7d) bail();
  }

  /** After a member of an object: true at its closing `}`, false at the `,` before the next. */
  endMember(): boolean {
    this.ws();
    const c = this.text.charCodeAt(this.pos++);
    if (c === 0x7d) return true;
    if (c !== 0x2c) bail();
    return false;
  }

  /** Skips a string at pos (after ws); returns the offset of its closing quote; sets `escapedString`. */
  stringEnd(): number {
    const t = this.text;
    if (t.charCodeAt(this.pos) !== QUOTE) bail();
    const start = this.pos + 1;
    let p = start;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        p += 2;
        continue;
      }
      if (!(c >= 0x20)) bail(); // control character (invalid JSON) or end of text (NaN)
      p++;
    }
    this.escapedString = escaped;
    this.pos = p + 1;
    return p;
  }

  escapedString = false;

  /** A string's value (JSON.parse decodes escapes and rejects bad ones). */
  string(): string {
    this.ws();
    const open = this.pos;
    const close = this.stringEnd();
    if (this.escapedString) return JSON.parse(this.text.slice(open, close + 1)) as string;
    const s = this.text.slice(open + 1, close);
    return s.length >= SLICED_MIN ? detach(s) : s;
  }

  /** Skips any JSON value (its syntax is checked later by JSON.parse of the rest). */
  skipValue(): void {
    this.ws();
    const t = this.text;
    const first = t.charCodeAt(this.pos);
    if (first === QUOTE) {
      this.stringEnd();
      return;
    }
    if (first === 0x7b || first === 0x5b) {
      this.pos++;
      let depth = 1;
      while (depth > 0) {
        const c = t.charCodeAt(this.pos);
        if (c === QUOTE) this.stringEnd();
        else {
          if (c === 0x7b || c === 0x5b) depth++;
          else if (c === 0x7d || c === 0x5d) depth--;
          else if (Number.isNaN(c)) bail();
          this.pos++;
        }
      }
      return;
    }
    // A scalar: up to the next delimiter.
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
        return;
      if (Number.isNaN(c)) bail();
      this.pos++;
    }
  }

  document(): ScannedTokenizerJson {
    const t = this.text;
    let vocabRange: [number, number] | undefined;
    let mergesRange: [number, number] | undefined;
    let vocab: Vocab | undefined;
    let merges: { ranges: Int32Array; count: number; escaped: Map<number, [string, string]> } | undefined;
    let sawModel = false;
    this.openObject();
    for (;;) {
      const key = this.string();
      this.expect(0x3a);
      if (key === "model") {
        if (sawModel) bail();
        sawModel = true;
        this.openObject();
        for (;;) {
          const k = this.string();
          this.expect(0x3a);
          this.ws();
          const start = this.pos;
          if (k === "vocab") {
            if (vocab !== undefined) bail();
            vocab = this.vocab();
            vocabRange = [start, this.pos];
          } else if (k === "merges") {
            if (merges !== undefined) bail();
            merges = this.merges();
            mergesRange = [start, this.pos];
          } else this.skipValue();
          if (this.endMember()) break;
        }
      } else this.skipValue();
      if (this.endMember()) break;
    }
    if (vocab === undefined || merges === undefined || vocabRange === undefined || mergesRange === undefined)
      bail();
    if (vocab.sharedIds || vocab.duplicateKeys) bail();
    const [v0, v1] = vocabRange;
    const [m0, m1] = mergesRange;
    const rest =
      v0 < m0
        ? `${t.slice(0, v0)}{}${t.slice(v1, m0)}[]${t.slice(m1)}`
        : `${t.slice(0, m0)}[]${t.slice(m1, v0)}{}${t.slice(v1)}`;
    const parsed: unknown = JSON.parse(rest);
    if (typeof parsed !== "object" || parsed === null) bail();
    return {
      rest: parsed,
      vocab,
      text: t,
      mergeRanges: merges.ranges,
      mergeCount: merges.count,
      escaped: merges.escaped,
    };
  }

  /** {"piece": id, ...} with ids plain integers in [0, 2^24). */
  vocab(): Vocab {
    const t = this.text;
    const keys: string[] = [];
    let ids = new Int32Array(1 << 16);
    this.expect(0x7b);
    this.ws();
    if (t.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return new Vocab(keys, ids.subarray(0, 0));
    }
    for (;;) {
      const key = this.string();
      this.expect(0x3a);
      this.ws();
      let p = this.pos;
      let c = t.charCodeAt(p);
      let id = 0;
      if (c === 0x30) p++;
      else if (c >= 0x31 && c <= 0x39) {
        while (c >= 0x30 && c <= 0x39) {
          id = id * 10 + (c - 0x30);
          if (id >= TOKEN_ID_LIMIT) bail();
          c = t.charCodeAt(++p);
        }
      } else bail();
      c = t.charCodeAt(p);
      if (c === 0x2e || c === 0x65 || c === 0x45) bail(); // fraction or exponent
      this.pos = p;
      if (keys.length === ids.length) {
        const grown = new Int32Array(ids.length * 2);
        grown.set(ids);
        ids = grown;
      }
      ids[keys.length] = id;
      keys.push(key);
      this.ws();
      const d = t.charCodeAt(this.pos++);
      if (d === 0x7d) break;
      if (d !== 0x2c) bail();
    }
    return new Vocab(keys, ids.subarray(0, keys.length));
  }

  /** ["a b", ...] or [["a", "b"], ...] (one form throughout). */
  merges(): { ranges: Int32Array; count: number; escaped: Map<number, [string, string]> } {
    const t = this.text;
    let ranges = new Int32Array(1 << 18);
    const escaped = new Map<number, [string, string]>();
    let count = 0;
    let form = 0; // 1 = "a b", 2 = [a, b]
    this.expect(0x5b);
    this.ws();
    if (t.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return { ranges, count, escaped };
    }
    for (;;) {
      if (4 * count + 4 > ranges.length) {
        const grown = new Int32Array(ranges.length * 2);
        grown.set(ranges);
        ranges = grown;
      }
      const r = 4 * count;
      this.ws();
      const c = t.charCodeAt(this.pos);
      if (c === QUOTE) {
        if (form === 2) bail();
        form = 1;
        const open = this.pos;
        const close = this.stringEnd();
        if (this.escapedString) {
          const parts = (JSON.parse(t.slice(open, close + 1)) as string).split(" ");
          if (parts.length !== 2) bail();
          escaped.set(count, [parts[0]!, parts[1]!]);
          ranges[r] = -1;
        } else {
          // Exactly one space inside the string (what split(" ") into two parts needs).
          const space = t.indexOf(" ", open + 1);
          if (space < 0 || space >= close) bail();
          const second = t.indexOf(" ", space + 1);
          if (second >= 0 && second < close) bail();
          ranges[r] = open + 1;
          ranges[r + 1] = space;
          ranges[r + 2] = space + 1;
          ranges[r + 3] = close;
        }
      } else if (c === 0x5b) {
        if (form === 1) bail();
        form = 2;
        this.pos++;
        this.ws();
        const a0 = this.pos;
        const a1 = this.stringEnd();
        const aEscaped = this.escapedString;
        this.expect(0x2c);
        this.ws();
        const b0 = this.pos;
        const b1 = this.stringEnd();
        const bEscaped = this.escapedString;
        this.expect(0x5d);
        if (aEscaped || bEscaped) {
          escaped.set(count, [
            JSON.parse(t.slice(a0, a1 + 1)) as string,
            JSON.parse(t.slice(b0, b1 + 1)) as string,
          ]);
          ranges[r] = -1;
        } else {
          ranges[r] = a0 + 1;
          ranges[r + 1] = a1;
          ranges[r + 2] = b0 + 1;
          ranges[r + 3] = b1;
        }
      } else bail();
      count++;
      this.ws();
      const d = t.charCodeAt(this.pos++);
      if (d === 0x5d) break;
      if (d !== 0x2c) bail();
    }
    return { ranges, count, escaped };
  }
}
