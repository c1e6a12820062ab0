// The compact binary form of a text model's load-time tables (merges, piece strings, hash-index
// slots, pair table, decode table): named typed arrays and string lists plus a small JSON
// header, so a later load reads them as views of one buffer instead of re-deriving them from
// the source file. Runtime-neutral: bytes in, bytes out (the Node entry stores them, see
// ../../node/table-cache.ts).
//
// Layout (little-endian):
//   [0, 8)    magic "CWTABLE" + format version byte
//   [8, 12)   u32 header length H
//   [12, 12+H) header JSON (UTF-8): { meta, sections: [[name, type, offset, length], ...] }
//   padding to a multiple of 8, then the data area; a section's offset is relative to it.
//
// Never trusted blindly: readTableFile checks the magic, that the header is a JSON object of
// the expected shape, and that every section is aligned, of a known type and inside the data;
// any problem returns undefined (never throws), and the caller then builds from the source
// file. Integrity of the contents (a flipped bit inside an array) is the storage layer's job
// (a SHA-256 of the whole file in the Node cache) plus the per-family checks of what they read.

const MAGIC = [0x43, 0x57, 0x54, 0x41, 0x42, 0x4c, 0x45, 0x01]; // "CWTABLE" v1

type ArrayType = "i32" | "u32" | "f32" | "u8" | "i16" | "u16";
export type TableArray = Int32Array | Uint32Array | Float32Array | Uint8Array | Int16Array | Uint16Array;

const SIZE: Record<ArrayType, number> = { i32: 4, u32: 4, f32: 4, u8: 1, i16: 2, u16: 2 };

function typeOf(a: TableArray): ArrayType {
  if (a instanceof Int32Array) return "i32";
  if (a instanceof Uint32Array) return "u32";
  if (a instanceof Float32Array) return "f32";
  if (a instanceof Int16Array) return "i16";
  if (a instanceof Uint16Array) return "u16";
  return "u8";
}

function view(type: ArrayType, buf: ArrayBuffer, offset: number, length: number): TableArray {
  switch (type) {
    case "i32":
      return new Int32Array(buf, offset, length);
    case "u32":
      return new Uint32Array(buf, offset, length);
    case "f32":
      return new Float32Array(buf, offset, length);
    case "i16":
      return new Int16Array(buf, offset, length);
    case "u16":
      return new Uint16Array(buf, offset, length);
    default:
      return new Uint8Array(buf, offset, length);
  }
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What a family writes: a JSON-able meta object, typed arrays and string lists by name. */
export interface TableContents {
  readonly meta: { readonly [key: string]: JsonValue };
  readonly arrays: { readonly [name: string]: TableArray };
  /** String lists; an undefined entry (a hole) is kept as such. */
  readonly strings: { readonly [name: string]: readonly (string | undefined)[] };
}

/** A read table file. Arrays are views of the buffer it was read from. */
export interface TableFile {
  readonly meta: { readonly [key: string]: JsonValue };
  array(name: string, type: "i32"): Int32Array | undefined;
  array(name: string, type: "u32"): Uint32Array | undefined;
  array(name: string, type: "f32"): Float32Array | undefined;
  array(name: string, type: "u8"): Uint8Array | undefined;
  array(name: string, type: "i16"): Int16Array | undefined;
  array(name: string, type: "u16"): Uint16Array | undefined;
  /** A string list, or undefined when absent or malformed. */
  strings(name: string): (string | undefined)[] | undefined;
}

/**
 * A string list is stored as per-entry flags (0 = ASCII without NUL, 1 = other, 2 = hole), the
 * ASCII entries joined by NUL as bytes, and the others joined by a code unit none of them holds: as
 * UTF-8 (`#wide8`) when every one is well-formed (always for SentencePiece and byte-level
 * vocabularies), else as UTF-16 units (`#units`: lone surrogates survive). Read back with one
 * native decode and one native split per group and one pass over the flags (no JS loop per entry or
 * per byte: it would run cold, during a load). A split keeps ASCII entries one-byte strings, as the
 * .model reader makes them.
 */
const HOLE = 2;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function separatorFor(list: readonly string[], limit: number): number {
  const seen = new Uint8Array(limit);
  for (const s of list)
    for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) < limit) seen[s.charCodeAt(k)] = 1;
  // Never a surrogate: it must stand alone in the UTF-8 form.
  for (let cu = 0; cu < limit; cu++) if (seen[cu] === 0 && (cu < 0xd800 || cu > 0xdfff)) return cu;
  return -1;
}

function packStrings(list: readonly (string | undefined)[]): { [name: string]: TableArray } | undefined {
  const n = list.length;
  const flags = new Uint8Array(n);
  const ascii: string[] = [];
  const wide: string[] = [];
  let wellFormed = true;
  for (let i = 0; i < n; i++) {
    const s = list[i];
    if (s === undefined) {
      flags[i] = HOLE;
      continue;
    }
    // An ASCII entry holding NUL (the ASCII group's separator) goes to the other group.
    let w = false;
    for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) >= 0x80 || s.charCodeAt(k) === 0) w = true;
    flags[i] = w ? 1 : 0;
    if (w && LONE_SURROGATE.test(s)) wellFormed = false;
    (w ? wide : ascii).push(s);
  }
  const sepA = 0;
  const sepW = separatorFor(wide, 0x10000);
  if (sepW < 0) return undefined;
  const a = ascii.join(String.fromCharCode(sepA));
  const w = wide.join(String.fromCharCode(sepW));
  const asciiBytes = new Uint8Array(a.length);
  for (let k = 0; k < a.length; k++) asciiBytes[k] = a.charCodeAt(k);
  const sep = Int32Array.of(sepA, sepW, ascii.length, wide.length);
  if (wellFormed) return { flags, ascii: asciiBytes, wide8: new TextEncoder().encode(w), sep };
  const units = new Uint16Array(w.length);
  for (let k = 0; k < w.length; k++) units[k] = w.charCodeAt(k);
  return { flags, ascii: asciiBytes, units, sep };
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const CHUNK = 8192;

/** UTF-16 units to a string, lone surrogates kept (a UTF-16 TextDecoder would replace them). */
function unitsToString(units: Uint16Array): string {
  let out = "";
  for (let i = 0; i < units.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, units.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return out;
}

function splitGroup(text: string, sep: number, count: number): string[] | undefined {
  if (count === 0) return text.length === 0 ? [] : undefined;
  const parts = text.split(String.fromCharCode(sep));
  return parts.length === count ? parts : undefined;
}

function unpackStrings(
  flags: Uint8Array,
  ascii: Uint8Array,
  wide: { readonly utf8: Uint8Array } | { readonly units: Uint16Array },
  sep: Int32Array,
): (string | undefined)[] | undefined {
  if (sep.length !== 4) return undefined;
  const sepA = sep[0] as number;
  const sepW = sep[1] as number;
  if (sepA >= 0x80 || sepA < 0 || sepW < 0 || sepW > 0xffff) return undefined;
  const asciiText = utf8.decode(ascii);
  // A byte >= 0x80 would make an entry other than what was stored. It either starts a valid
  // sequence (fewer units than bytes) or an invalid one (U+FFFD): both are found natively. (Native
  // decode, not a regex: a regex is slow on its first, cold runs during a load.)
  if (asciiText.length !== ascii.length || asciiText.includes("\ufffd")) return undefined;
  const wideText = "utf8" in wide ? utf8.decode(wide.utf8) : unitsToString(wide.units);
  // (A UTF-8 group that was not what the writer encoded may split into other entries; the
  // digest of the stored file is what guards the contents, see the header.)
  const a = splitGroup(asciiText, sepA, sep[2] as number);
  const w = splitGroup(wideText, sepW, sep[3] as number);
  if (a === undefined || w === undefined) return undefined;
  const n = flags.length;
  if (a.length === n) {
    // Every entry ASCII (the counts say so). A hole or other-group flag would contradict them:
    // checked natively, not by a cold loop over every flag.
    if (flags.includes(1) || flags.includes(HOLE)) return undefined;
    return a;
  }
  const out = new Array<string | undefined>(n);
  let ai = 0;
  let wi = 0;
  for (let i = 0; i < n; i++) {
    const f = flags[i];
    if (f === 0) out[i] = a[ai++];
    else if (f === 1) out[i] = w[wi++];
    else if (f !== HOLE) return undefined;
  }
  // More flags of a group than its entries read past its end (undefined entries): refused.
  return ai === a.length && wi === w.length ? out : undefined;
}

const align8 = (n: number): number => (n + 7) & ~7;

/** Serializes `contents` into one table file. */
export function writeTableFile(contents: TableContents): Uint8Array {
  const entries: [string, TableArray][] = Object.entries(contents.arrays);
  for (const [name, list] of Object.entries(contents.strings)) {
    const packed = packStrings(list);
    if (packed === undefined) continue; // no free separator: the list is left out (rebuilt on read)
    for (const [part, a] of Object.entries(packed)) entries.push([`${name}#${part}`, a]);
  }
  const sections: [string, ArrayType, number, number][] = [];
  let offset = 0;
  for (const [name, a] of entries) {
    sections.push([name, typeOf(a), offset, a.length]);
    offset = align8(offset + a.byteLength);
  }
  const header = new TextEncoder().encode(JSON.stringify({ meta: contents.meta, sections }));
  const dataStart = align8(12 + header.length);
  const out = new Uint8Array(dataStart + offset);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(8, header.length, true);
  out.set(header, 12);
  for (let i = 0; i < entries.length; i++) {
    const a = (entries[i] as [string, TableArray])[1];
    const at = (sections[i] as [string, ArrayType, number, number])[2];
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), dataStart + at);
  }
  return out;
}

function isObject(v: unknown): v is { [key: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Files already read, by their bytes: a load asks several readers in turn (the cache's version
 * check, then each model kind's), and the header's JSON (a tokenizer.json's rest, with its added
 * tokens) is parsed once. What a read returns is never written to.
 */
const readFiles = new WeakMap<Uint8Array, TableFile | undefined>();

/** Reads a table file; undefined when it is not a well-formed one (never throws). */
export function readTableFile(input: Uint8Array): TableFile | undefined {
  if (readFiles.has(input)) return readFiles.get(input);
  let file: TableFile | undefined;
  try {
    file = read(input);
  } catch {
    file = undefined;
  }
  if (input instanceof Uint8Array) readFiles.set(input, file);
  return file;
}

function read(input: Uint8Array): TableFile | undefined {
  if (!(input instanceof Uint8Array) || input.length < 12) return undefined;
  for (let i = 0; i < MAGIC.length; i++) if (input[i] !== MAGIC[i]) return undefined;
  // Views need aligned offsets: a buffer from a pool (small files) may start anywhere.
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice();
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(8, true);
  if (12 + headerLength > bytes.length) return undefined;
  const header: unknown = JSON.parse(utf8.decode(bytes.subarray(12, 12 + headerLength)));
  if (!isObject(header) || !isObject(header.meta) || !Array.isArray(header.sections)) return undefined;
  const dataStart = bytes.byteOffset + align8(12 + headerLength);
  const dataLength = bytes.byteOffset + bytes.length - dataStart;
  if (dataLength < 0) return undefined;
  const arrays = new Map<string, TableArray>();
  for (const s of header.sections) {
    if (!Array.isArray(s) || s.length !== 4) return undefined;
    const [name, type, offset, length] = s;
    if (typeof name !== "string" || typeof type !== "string" || !Object.hasOwn(SIZE, type)) return undefined;
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) return undefined;
    const size = SIZE[type as ArrayType];
    const off = offset as number;
    const len = length as number;
    if (off < 0 || len < 0 || off % 8 !== 0 || off + len * size > dataLength) return undefined;
    if (arrays.has(name)) return undefined;
    arrays.set(name, view(type as ArrayType, bytes.buffer as ArrayBuffer, dataStart + off, len));
  }
  const meta = header.meta;
  const get = (name: string, type: ArrayType): TableArray | undefined => {
    const a = arrays.get(name);
    return a !== undefined && typeOf(a) === type ? a : undefined;
  };
  return {
    meta,
    array: get as TableFile["array"],
    strings(name) {
      const flags = get(`${name}#flags`, "u8");
      const ascii = get(`${name}#ascii`, "u8");
      const wide8 = get(`${name}#wide8`, "u8");
      const units = get(`${name}#units`, "u16");
      const sep = get(`${name}#sep`, "i32");
      if (flags === undefined || ascii === undefined || sep === undefined) return undefined;
      // Exactly one form of the other group.
      if ((wide8 === undefined) === (units === undefined)) return undefined;
      const wide = wide8 !== undefined ? { utf8: wide8 as Uint8Array } : { units: units as Uint16Array };
      return unpackStrings(flags as Uint8Array, ascii as Uint8Array, wide, sep as Int32Array);
    },
  };
}
