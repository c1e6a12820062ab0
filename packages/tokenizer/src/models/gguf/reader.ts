// The metadata section of a GGUF file (v2/v3, little-endian), from bytes: header, then every
// key/value with its type. The tensor section is not read (a tokenizer needs none of it).
// Layout (ggml's gguf.cpp / docs/gguf.md):
//   "GGUF" u32 version, u64 tensor_count, u64 kv_count,
//   kv_count x (string key, u32 type, value)    string = u64 byte length + UTF-8 bytes
//   array value = u32 item type, u64 count, items
//
// The file is untrusted: every count or length it claims is checked against the bytes still
// present BEFORE anything is allocated for it (an array of N items needs N x the item's
// smallest encoding), so a hostile header costs at most the bytes given. Anything wrong is a
// TokenizerError("bad-gguf-file") naming the offset; `fields.truncated` is true when the bytes
// ended inside the metadata (a reader holding only a file's head may then read more).
import { TokenizerError } from "../../errors.ts";

export type GgufScalarType =
  | "u8"
  | "i8"
  | "u16"
  | "i16"
  | "u32"
  | "i32"
  | "f32"
  | "bool"
  | "string"
  | "u64"
  | "i64"
  | "f64";

/** GGUF type codes, in file order (9 = array). */
const TYPE_BY_CODE: readonly (GgufScalarType | "array")[] = [
  "u8",
  "i8",
  "u16",
  "i16",
  "u32",
  "i32",
  "f32",
  "bool",
  "string",
  "array",
  "u64",
  "i64",
  "f64",
];

type NumericType = Exclude<GgufScalarType, "string" | "bool">;

/** The typed arrays of the numeric types whose items are JS numbers. */
type NumberArray =
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array;

type NumericArray = NumberArray | BigUint64Array | BigInt64Array;

/**
 * Every numeric type as data: its typed array (whose element size is the item's size) and how a
 * DataView reads one little-endian item. Scalars, arrays and the big-endian fallback all read
 * through this one table.
 */
const NUMERIC: {
  readonly [T in NumericType]: {
    readonly array: { readonly BYTES_PER_ELEMENT: number; new (n: number | ArrayBuffer): NumericArray };
    readonly get: (v: DataView, at: number) => number | bigint;
  };
} = {
  u8: { array: Uint8Array, get: (v, at) => v.getUint8(at) },
  i8: { array: Int8Array, get: (v, at) => v.getInt8(at) },
  u16: { array: Uint16Array, get: (v, at) => v.getUint16(at, true) },
  i16: { array: Int16Array, get: (v, at) => v.getInt16(at, true) },
  u32: { array: Uint32Array, get: (v, at) => v.getUint32(at, true) },
  i32: { array: Int32Array, get: (v, at) => v.getInt32(at, true) },
  f32: { array: Float32Array, get: (v, at) => v.getFloat32(at, true) },
  f64: { array: Float64Array, get: (v, at) => v.getFloat64(at, true) },
  u64: { array: BigUint64Array, get: (v, at) => v.getBigUint64(at, true) },
  i64: { array: BigInt64Array, get: (v, at) => v.getBigInt64(at, true) },
};

/** Bytes of one item (a string: its 8-byte length, the least it can take). */
function itemBytes(type: GgufScalarType): number {
  return type === "string" ? 8 : type === "bool" ? 1 : NUMERIC[type].array.BYTES_PER_ELEMENT;
}

export type GgufScalar = number | bigint | boolean | string;

export type GgufArrayItems =
  | { readonly type: "string"; readonly items: readonly string[] }
  | { readonly type: "bool"; readonly items: readonly boolean[] }
  | { readonly type: "u64" | "i64"; readonly items: BigInt64Array | BigUint64Array }
  | {
      readonly type: "u8" | "i8" | "u16" | "i16" | "u32" | "i32" | "f32" | "f64";
      readonly items: NumberArray;
    };

export type GgufValue =
  | { readonly type: "u8" | "i8" | "u16" | "i16" | "u32" | "i32" | "f32" | "f64"; readonly value: number }
  | { readonly type: "u64" | "i64"; readonly value: bigint }
  | { readonly type: "bool"; readonly value: boolean }
  | { readonly type: "string"; readonly value: string }
  | ({ readonly type: "array" } & { readonly array: GgufArrayItems });

export interface GgufMetadata {
  readonly version: 2 | 3;
  /** tensor_count as the header claims it (not checked: the tensor section is not read). */
  readonly tensorCount: bigint;
  readonly kv: ReadonlyMap<string, GgufValue>;
  /** general.alignment, else 32 (a power of two). */
  readonly alignment: number;
  /** Byte offset where the metadata ends (the tensor infos start). */
  readonly metadataEnd: number;
}

const MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
const DEFAULT_ALIGNMENT = 32;

/** A leading U+FEFF is the string's text, not a byte order mark. */
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses the header and metadata of `bytes` (a whole file, or its head). */
export function readGgufMetadata(bytes: Uint8Array, file = "model.gguf"): GgufMetadata {
  if (!(bytes instanceof Uint8Array))
    throw new TokenizerError("invalid-argument", `${file}: GGUF content must be a Uint8Array`, { file });
  return new Reader(bytes, file).metadata();
}

class Reader {
  private readonly view: DataView;
  private pos = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly file: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  metadata(): GgufMetadata {
    this.need(4, "the magic");
    if (this.view.getUint32(0, true) !== MAGIC) this.fail('not a GGUF file (no "GGUF" magic)', 0);
    this.pos = 4;
    const version = this.u32("the version");
    if (version !== 2 && version !== 3) {
      const hint = version === 0x02000000 || version === 0x03000000 ? " (a big-endian file)" : "";
      this.fail(`unsupported GGUF version ${version}${hint} (supported: 2, 3)`, 4);
    }
    const tensorCount = this.u64("the tensor count");
    const kvCount = this.u64("the key count");
    // Each key/value takes at least 8 (key length) + 4 (type) + 1 bytes.
    if (kvCount > BigInt(this.left()) / 13n)
      this.fail(`claims ${kvCount} keys, more than ${this.left()} bytes can hold`, this.pos - 8, true);
    const kv = new Map<string, GgufValue>();
    for (let i = 0, n = Number(kvCount); i < n; i++) {
      const at = this.pos;
      const key = this.string("key", i);
      if (kv.has(key)) this.fail(`duplicate key ${JSON.stringify(key)}`, at);
      const code = this.u32(`the type of ${key}`);
      kv.set(key, this.value(code, key, this.pos - 4));
    }
    const alignment = alignmentOf(kv.get("general.alignment"), (m) => this.fail(m, this.pos));
    return { version, tensorCount, kv, alignment, metadataEnd: this.pos };
  }

  private value(code: number, key: string, at: number): GgufValue {
    const type = TYPE_BY_CODE[code];
    if (type === undefined) return this.fail(`${key}: unknown value type ${code}`, at);
    if (type !== "array") return this.scalar(type, key);
    const itemCode = this.u32(`the item type of ${key}`);
    const itemType = TYPE_BY_CODE[itemCode];
    if (itemType === undefined) return this.fail(`${key}: unknown array item type ${itemCode}`, this.pos - 4);
    if (itemType === "array") return this.fail(`${key}: nested arrays are not supported`, this.pos - 4);
    const countAt = this.pos;
    const count = this.u64(`the length of ${key}`);
    const left = BigInt(this.left());
    // Checked before any allocation: the smallest encoding of `count` items must fit.
    if (count * BigInt(itemBytes(itemType)) > left)
      this.fail(`${key}: claims ${count} items, more than the ${left} bytes left can hold`, countAt, true);
    return { type: "array", array: this.items(itemType, Number(count), key) };
  }

  private items(type: GgufScalarType, n: number, key: string): GgufArrayItems {
    if (type === "string") return { type, items: this.stringItems(n, key) };
    if (type === "bool") {
      const items: boolean[] = [];
      for (let i = 0; i < n; i++) items.push(this.bool(key));
      return { type, items };
    }
    const { array, get } = NUMERIC[type];
    const size = array.BYTES_PER_ELEMENT;
    this.need(n * size, key);
    let items: NumericArray;
    if (LITTLE_ENDIAN) {
      // A copy (the source may be unaligned or reused), then a typed view of it. Not
      // bytes.slice: a Node Buffer's slice is a view into a shared pool.
      const buf = new ArrayBuffer(n * size);
      new Uint8Array(buf).set(this.bytes.subarray(this.pos, this.pos + n * size));
      items = new array(buf);
    } else {
      // Typed arrays use the platform's byte order: a big-endian one reads item by item.
      items = new array(n);
      const out = items as unknown as { [i: number]: number | bigint };
      for (let i = 0; i < n; i++) out[i] = get(this.view, this.pos + i * size);
    }
    this.pos += n * size;
    return { type, items } as GgufArrayItems;
  }

  /**
   * The n strings of array `key`. Their bytes are gathered into one buffer and decoded by one
   * TextDecoder call, then cut at each string's UTF-16 length: a decode per string costs a
   * builtin call and a scratch view for each of a vocabulary's 10^5 tokens and merges. The
   * whole being valid UTF-8 with no string starting on a continuation byte means each string is
   * valid on its own. Anything else (a bad length, bad UTF-8) is read again string by string,
   * which fails naming the item.
   */
  private stringItems(n: number, key: string): string[] {
    const start = this.pos;
    const bytes = this.bytes;
    const view = this.view;
    const ends = new Int32Array(n);
    let p = start;
    let total = 0;
    for (let i = 0; i < n; i++) {
      if (bytes.length - p < 8) return this.stringsOneByOne(start, n, key);
      const len = view.getUint32(p, true);
      p += 8;
      if (view.getUint32(p - 4, true) !== 0 || len > bytes.length - p)
        return this.stringsOneByOne(start, n, key);
      p += len;
      total += len;
      ends[i] = total;
    }
    const all = new Uint8Array(total);
    p = start;
    // One pass copies the bytes and counts each string's UTF-16 units (one per sequence start, two
    // for a 4-byte sequence: a surrogate pair); ends[i] then becomes the string's end in units.
    for (let i = 0, at = 0, u = 0; i < n; i++) {
      const end = ends[i] as number;
      p += 8;
      if (end > at && ((bytes[p] as number) & 0xc0) === 0x80) return this.stringsOneByOne(start, n, key);
      while (at < end) {
        const c = bytes[p++] as number;
        all[at++] = c;
        if ((c & 0xc0) !== 0x80) u += c >= 0xf0 ? 2 : 1;
      }
      ends[i] = u;
    }
    let text: string;
    try {
      text = strict.decode(all);
    } catch {
      return this.stringsOneByOne(start, n, key);
    }
    const items = new Array<string>(n);
    for (let i = 0, u = 0; i < n; i++) {
      const stop = ends[i] as number;
      items[i] = text.slice(u, stop);
      u = stop;
    }
    this.pos = p;
    return items;
  }

  /** stringItems the slow way, from `start`: each string decoded (and checked) alone. */
  private stringsOneByOne(start: number, n: number, key: string): string[] {
    this.pos = start;
    const items: string[] = [];
    for (let i = 0; i < n; i++) items.push(this.string(key, i));
    return items;
  }

  private scalar(type: GgufScalarType, key: string): GgufValue {
    if (type === "string") return { type, value: this.string(key) };
    if (type === "bool") return { type, value: this.bool(key) };
    const { array, get } = NUMERIC[type];
    this.need(array.BYTES_PER_ELEMENT, key);
    const value = get(this.view, this.pos);
    this.pos += array.BYTES_PER_ELEMENT;
    return { type, value } as GgufValue;
  }

  private bool(what: string): boolean {
    this.need(1, what);
    const b = this.bytes[this.pos++] ?? 0;
    if (b > 1) this.fail(`${what}: bool byte ${b} is neither 0 nor 1`, this.pos - 1);
    return b === 1;
  }

  /** A string value; `index` >= 0: item `index` of array `key` (the name is built only on failure). */
  private string(key: string, index = -1): string {
    const at = this.pos;
    if (this.left() < 8) this.need(8, name(key, index));
    // The length as two u32 halves: no BigInt per string (a vocabulary has 10^5 of them).
    const n = this.view.getUint32(at, true);
    const high = this.view.getUint32(at + 4, true);
    this.pos += 8;
    if (high !== 0 || n > this.left()) {
      const len = (BigInt(high) << 32n) | BigInt(n);
      this.fail(`${name(key, index)}: length ${len} runs past the end (${this.left()} bytes left)`, at, true);
    }
    const start = this.pos;
    this.pos += n;
    return this.utf8(start, n, key, index);
  }

  /**
   * UTF-8 text, strictly validated. Short strings (every vocabulary entry) are decoded here:
   * a TextDecoder call per token costs several times the decoding itself.
   */
  private utf8(start: number, n: number, key: string, index: number): string {
    const b = this.bytes;
    if (n > 256) {
      try {
        return strict.decode(b.subarray(start, start + n));
      } catch {
        return this.fail(`${name(key, index)}: not valid UTF-8`, start);
      }
    }
    const units = this.units;
    let u = 0;
    const end = start + n;
    for (let i = start; i < end; ) {
      const c = b[i] as number; // i < end <= b.length
      if (c < 0x80) {
        units[u++] = c;
        i++;
        continue;
      }
      const cp = decodeMultiByte(b, i, end);
      if (cp < 0) return this.fail(`${name(key, index)}: not valid UTF-8`, i);
      i += cp > 0xffff ? 4 : cp > 0x7ff ? 3 : 2;
      if (cp > 0xffff) {
        units[u++] = 0xd800 + ((cp - 0x10000) >> 10);
        units[u++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      } else units[u++] = cp;
    }
    return String.fromCharCode.apply(null, units.subarray(0, u) as unknown as number[]);
  }

  /** Scratch for utf8(): at most one UTF-16 unit per byte. */
  private readonly units = new Uint16Array(256);

  private u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  private u64(what: string): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  private left(): number {
    return this.bytes.length - this.pos;
  }

  private need(n: number, what: string): void {
    if (n > this.left()) this.fail(`truncated: ${what} runs past the end of the file`, this.pos, true);
  }

  private fail(message: string, offset: number, truncated = false): never {
    throw new TokenizerError("bad-gguf-file", `${this.file}: ${message} (at byte ${offset})`, {
      file: this.file,
      offset,
      ...(truncated ? { truncated: true } : {}),
    });
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function alignmentOf(v: GgufValue | undefined, fail: (message: string) => never): number {
  if (v === undefined) return DEFAULT_ALIGNMENT;
  if (v.type !== "u32") return fail(`general.alignment must be a u32, not ${v.type}`);
  const a = v.value;
  if (a === 0 || (a & (a - 1)) !== 0) return fail(`general.alignment ${a} is not a power of two`);
  return a;
}

/** The code point of the multi-byte sequence at b[i] (strict: no overlong form, no surrogate), or -1. */
function decodeMultiByte(b: Uint8Array, i: number, end: number): number {
  const c = b[i] as number;
  const cont = (k: number): number => {
    const x = i + k < end ? (b[i + k] as number) : 0;
    return (x & 0xc0) === 0x80 ? x & 0x3f : -1;
  };
  if (c >= 0xc2 && c <= 0xdf) {
    const c1 = cont(1);
    return c1 < 0 ? -1 : ((c & 0x1f) << 6) | c1;
  }
  if (c >= 0xe0 && c <= 0xef) {
    const c1 = cont(1);
    const c2 = cont(2);
    if (c1 < 0 || c2 < 0) return -1;
    const cp = ((c & 0x0f) << 12) | (c1 << 6) | c2;
    return cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) ? -1 : cp;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const c1 = cont(1);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 < 0 || c2 < 0 || c3 < 0) return -1;
    const cp = ((c & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3;
    return cp < 0x10000 || cp > 0x10ffff ? -1 : cp;
  }
  return -1;
}

function name(key: string, index: number): string {
  return index < 0 ? key : `${key}[${index}]`;
}
