// Caller stop strings, found across token boundaries (a stop string can start in one token and
// end in a later one), with text held back ONLY while the held tail is still a prefix of some
// stop string (llama.cpp's rule; vLLM's fixed max_len-1 window holds back text that cannot be
// a stop string). An Aho-Corasick automaton over UTF-16 code units:
// the held text is always exactly the string of the current node, so holding costs nothing.
//
// When several stop strings could match, the one that ENDS first wins (the stream stops as
// early as possible); among those ending at the same place, the longest (earliest start).
//
// Compiled ONCE per (decoder spec, stop-string set) and shared by every stream, so creating a
// stream only allocates its small StopMatcher.
//
// Memory is linear in the total pattern length (about 26 bytes per trie node, plus up to four
// bytes per vocabulary ID and two 8 KB bitmaps), never length x alphabet: the trie's edges are
// stored sparsely (a node's children are consecutive node numbers, sorted by unit) and
// failure links are followed at match time (a full transition table would be nodes x distinct
// units: quadratic in one long stop string). Each unit still costs amortized O(1) (a failure step never gains depth; depth grows by at most
// one per unit). Sets are limited to MAX_STOP_STRINGS strings of MAX_STOP_STRING_LENGTH
// units (TypeError beyond), and the per-spec cache of compiled sets is bounded in bytes.
import { MAX_STOP_STRING_LENGTH, MAX_STOP_STRINGS } from "./limits.ts";
import type { DecoderSpec } from "./spec.ts";
import { undefinedTable } from "./text-table.ts";

/** Per token ID: not looked at yet / its text has no unit that can start a stop string / it may. */
const ID_UNKNOWN = 0;
const ID_CLEAR = 1;
const ID_CANDIDATE = 2;

function setBit(bits: Uint32Array, c: number): void {
  bits[c >>> 5] = (bits[c >>> 5] as number) | (1 << (c & 31));
}

/**
 * Texts the decoder derives from a token ID's text, the same for every use of the ID (see
 * StopStrings.passes): "\n" + the text, the text minus its last "\n", the text minus all its
 * trailing "\n".
 */
export const AFTER_NEWLINE = 0;
export const WITHOUT_NEWLINE = 1;
export const WITHOUT_NEWLINES = 2;
export type DerivedText = typeof AFTER_NEWLINE | typeof WITHOUT_NEWLINE | typeof WITHOUT_NEWLINES;

/** Checks a stop-string list against the documented limits (TypeError: caller misuse). */
export function checkStopStrings(strings: readonly string[]): void {
  if (!Array.isArray(strings)) throw new TypeError("stopStrings must be an array of strings");
  if (strings.length > MAX_STOP_STRINGS)
    throw new TypeError(`at most ${MAX_STOP_STRINGS} stop strings (got ${strings.length})`);
  for (const s of strings) {
    if (typeof s !== "string" || s === "") throw new TypeError("stop strings must be non-empty strings");
    if (s.length > MAX_STOP_STRING_LENGTH)
      throw new TypeError(
        `a stop string is at most ${MAX_STOP_STRING_LENGTH} UTF-16 code units long (got ${s.length})`,
      );
  }
}

/**
 * A compiled, immutable stop-string set for one decoder spec (`compileStopStrings`); pass it
 * as `stopStrings` to share it between streams explicitly. Plain string arrays are compiled
 * through a small per-spec cache, so passing the same strings again is cheap too.
 */
export class StopStrings {
  readonly spec: DecoderSpec;
  readonly patterns: readonly string[];
  /** Bit per UTF-16 code unit: can this unit start a stop string? (2^16 bits.) */
  readonly firstUnit: Uint32Array;
  /** Bit per UTF-16 code unit: does it occur in any stop string? Others reset to the root. */
  readonly anyUnit: Uint32Array;
  /** Trie nodes in breadth-first order (0 = root). The unit on the edge into each node. */
  readonly unit: Uint16Array;
  /** Children of node s: nodes firstChild[s] .. firstChild[s] + childCount[s] - 1, units ascending. */
  readonly firstChild: Int32Array;
  readonly childCount: Int32Array;
  /** Failure link: the node of the longest proper suffix of the node string that is in the trie. */
  readonly fail: Int32Array;
  /** Longest pattern that is a suffix of the node string, or -1. */
  readonly match: Int32Array;
  /** Node string = patterns[nodePattern[s]].slice(0, depth[s]) (the text held in this node). */
  readonly depth: Int32Array;
  readonly nodePattern: Int32Array;
  /**
   * Per token ID of spec.text, filled lazily (ID_*): most tokens never contain a unit that can
   * start a stop string, so the per-token fast path skips the per-character scan.
   */
  readonly idFlags: Uint8Array;
  /**
   * Per kind of text the decoder derives from an ID's text (DerivedText), per token ID, filled
   * lazily (ID_*; ID_CLEAR: that text, fed from the root, matches nothing and ends at the
   * root, so it goes out as it is with no scan). The text after a newline the grammar held and
   * the text before a newline it holds are about 1 token in 11 in the mixed 8k fixture. Each
   * table is allocated at its first use and counted in byteLength from the start.
   */
  private readonly derived: (Uint8Array | null)[] = [null, null, null];
  /** The matcher passes() feeds (made at its first use). */
  private probe: StopMatcher | null = null;
  /** Bytes this set holds (typed arrays, pattern text and clearText; the per-spec cache counts these). */
  readonly byteLength: number;
  private clear: (string | undefined)[] | null = null;
  /** Decoders that asked for clearText() before it was made. */
  private decoders = 0;
  /** heldText per node, made at its first use (one slice per node, not one per token). */
  private readonly held: (string | undefined)[];

  constructor(spec: DecoderSpec, patterns: readonly string[]) {
    checkStopStrings(patterns);
    this.spec = spec;
    this.patterns = Object.freeze([...patterns]);
    // The trie, built with one Map of edges (key: node * 65536 + unit) and typed arrays, then
    // renumbered breadth-first (children of a node consecutive, units ascending). Transient
    // memory is linear in the pattern length too (one Map for all edges, not one per node).
    let textUnits = 0;
    for (const p of this.patterns) textUnits += p.length;
    const cap = textUnits + 1;
    const parentOf = new Int32Array(cap);
    const unitOf = new Uint16Array(cap);
    const tmpDepth = new Int32Array(cap);
    const tmpPattern = new Int32Array(cap);
    const tmpTerminal = new Int32Array(cap).fill(-1);
    const edges = new Map<number, number>();
    const firstUnit = new Uint32Array(2048);
    const anyUnit = new Uint32Array(2048);
    let n = 1;
    let maxDepth = 0;
    this.patterns.forEach((p, pi) => {
      let s = 0;
      for (let i = 0; i < p.length; i++) {
        const c = p.charCodeAt(i);
        if (i === 0) setBit(firstUnit, c);
        setBit(anyUnit, c);
        const key = s * 65536 + c;
        let t = edges.get(key);
        if (t === undefined) {
          t = n++;
          parentOf[t] = s;
          unitOf[t] = c;
          tmpDepth[t] = i + 1;
          tmpPattern[t] = pi;
          edges.set(key, t);
        }
        s = t;
      }
      if (tmpTerminal[s] === -1) tmpTerminal[s] = pi;
      if (p.length > maxDepth) maxDepth = p.length;
    });
    edges.clear();
    // Breadth-first numbering, one depth at a time: nodes of depth d sorted by (new number
    // of the parent, unit), packed into one float per node for a numeric typed-array sort.
    const levelStart = new Int32Array(maxDepth + 2);
    for (let t = 1; t < n; t++) (levelStart[(tmpDepth[t] as number) + 1] as number)++;
    for (let d = 1; d <= maxDepth + 1; d++)
      levelStart[d] = (levelStart[d] as number) + (levelStart[d - 1] as number);
    const byLevel = new Int32Array(n);
    const fill = levelStart.slice();
    for (let t = 1; t < n; t++) {
      const d = tmpDepth[t] as number;
      byLevel[fill[d] as number] = t;
      fill[d] = (fill[d] as number) + 1;
    }
    const newId = new Int32Array(n);
    const unit = new Uint16Array(n);
    const firstChild = new Int32Array(n);
    const childCount = new Int32Array(n);
    const fail = new Int32Array(n);
    const match = new Int32Array(n).fill(-1);
    const depth = new Int32Array(n);
    const nodePattern = new Int32Array(n);
    const terminal = new Int32Array(n).fill(-1);
    terminal[0] = tmpTerminal[0] as number;
    let next = 1;
    for (let d = 1; d <= maxDepth; d++) {
      const from = levelStart[d] as number;
      const to = levelStart[d + 1] as number;
      const keys = new Float64Array(to - from);
      for (let k = from; k < to; k++) {
        const t = byLevel[k] as number;
        keys[k - from] = ((newId[parentOf[t] as number] as number) * 65536 + (unitOf[t] as number)) * n + t;
      }
      keys.sort();
      for (const key of keys) {
        const t = key % n;
        const id = next++;
        newId[t] = id;
        const parent = newId[parentOf[t] as number] as number;
        if (childCount[parent] === 0) firstChild[parent] = id;
        childCount[parent] = (childCount[parent] as number) + 1;
        unit[id] = unitOf[t] as number;
        depth[id] = d;
        nodePattern[id] = tmpPattern[t] as number;
        terminal[id] = tmpTerminal[t] as number;
      }
    }
    for (let s = 0; s < n; s++) {
      // Parents come before children in breadth-first order: fail[] of shallower nodes is set.
      const own = terminal[s] as number;
      for (let k = 0; k < (childCount[s] as number); k++) {
        const child = (firstChild[s] as number) + k;
        const c = unit[child] as number;
        let f = s;
        let target = 0;
        while (f !== 0) {
          f = fail[f] as number;
          const t = this.childOf(firstChild, childCount, unit, f, c);
          if (t !== -1) {
            target = t;
            break;
          }
        }
        fail[child] = s === 0 ? 0 : target;
      }
      match[s] = own !== -1 ? own : s === 0 ? -1 : (match[fail[s] as number] as number);
    }
    this.firstUnit = firstUnit;
    this.anyUnit = anyUnit;
    this.unit = unit;
    this.firstChild = firstChild;
    this.childCount = childCount;
    this.fail = fail;
    this.match = match;
    this.depth = depth;
    this.nodePattern = nodePattern;
    this.idFlags = new Uint8Array(spec.text.length);
    // clearText(): one 8-byte slot per ID once a second decoder used this set.
    this.held = new Array<string | undefined>(n).fill(undefined);
    // n * 26 typed-array bytes and an 8-byte held slot per node; clearText(): 8 bytes per ID.
    this.byteLength =
      2 * 8192 + n * 34 + 2 * textUnits + 4 * this.idFlags.byteLength + 8 * spec.classes.length;
  }

  /**
   * The decoder's fast-path table for this set, from its second decoder on (then shared): per
   * ID what the decoder's plain-text table has, but only for IDs whose text cannot start a stop
   * string (mayStart false); undefined for every other ID. The decoder fills it, lazily, like
   * its plain-text table. With it, a token that cannot start a stop string costs one table
   * read, as without stop strings (no idFlags read). null for the set's first decoder, which
   * reads idFlags per token instead: the table is one slot per vocabulary ID, and a server
   * whose every request brings its own stop strings would make one per request.
   */
  clearText(): (string | undefined)[] | null {
    let c = this.clear;
    if (c === null) {
      if (++this.decoders < 2) return null;
      c = undefinedTable(this.spec.classes.length);
      this.clear = c;
    }
    return c;
  }

  /** The child of node s on unit c, or -1. */
  private childOf(
    firstChild: Int32Array,
    childCount: Int32Array,
    unit: Uint16Array,
    s: number,
    c: number,
  ): number {
    let lo = firstChild[s] as number;
    let hi = lo + (childCount[s] as number);
    // Most nodes have one child; the root has at most one per distinct first unit.
    while (hi - lo > 8) {
      const mid = (lo + hi) >>> 1;
      if ((unit[mid] as number) < c) lo = mid + 1;
      else hi = mid + 1;
    }
    for (let t = lo; t < hi; t++) if (unit[t] === c) return t;
    return -1;
  }

  /** The next node from s on unit c (a unit of some pattern): goto, else failure links. */
  step(s: number, c: number): number {
    const { firstChild, childCount, unit, fail } = this;
    let x = s;
    for (;;) {
      const t = this.childOf(firstChild, childCount, unit, x, c);
      if (t !== -1) return t;
      if (x === 0) return 0;
      x = fail[x] as number;
    }
  }

  /** The text held while in node s. */
  heldText(s: number): string {
    if (s === 0) return "";
    let h = this.held[s];
    if (h === undefined) {
      h = (this.patterns[this.nodePattern[s] as number] as string).slice(0, this.depth[s]);
      this.held[s] = h;
    }
    return h;
  }

  /** Index of the first code unit at or after `from` that could start a stop string, or -1. */
  firstCandidate(chunk: string, from: number): number {
    const bits = this.firstUnit;
    for (let i = from; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (((bits[c >>> 5] as number) & (1 << (c & 31))) !== 0) return i;
    }
    return -1;
  }

  /**
   * Does `text` (the caller's text of kind `kind` for ID `id`), fed from the root,
   * match nothing and end at the root? Then it goes out as it is. Computed once per kind and
   * ID, then a byte read.
   */
  passes(kind: DerivedText, id: number, text: string): boolean {
    let flags = this.derived[kind] as Uint8Array | null;
    if (flags === null) {
      flags = new Uint8Array(this.idFlags.length);
      this.derived[kind] = flags;
    }
    let f = flags[id] as number;
    if (f === ID_UNKNOWN) {
      this.probe ??= new StopMatcher(this);
      const p = this.probe;
      p.reset();
      f = !p.feed(text, 0) && p.state === 0 ? ID_CLEAR : ID_CANDIDATE;
      flags[id] = f;
    }
    return f === ID_CLEAR;
  }

  /** Can spec.text[id] contain the start of a stop string? (Computed once per ID, then a byte read.) */
  mayStart(id: number): boolean {
    let f = this.idFlags[id] as number;
    if (f === ID_UNKNOWN) {
      f = this.firstCandidate(this.spec.text[id] as string, 0) === -1 ? ID_CLEAR : ID_CANDIDATE;
      this.idFlags[id] = f;
    }
    return f === ID_CANDIDATE;
  }
}

/**
 * The per-spec cache of compiled sets: at most CACHE_LIMIT sets and CACHE_BYTES bytes
 * (StopStrings.byteLength) per spec; the oldest sets are dropped first (a server with
 * per-request sets). A set always fits: the limits cap one set at ~2 MB.
 */
const CACHE_LIMIT = 64;
export const CACHE_BYTES = 16 * 1024 * 1024;

interface SpecCache {
  readonly sets: Map<string, StopStrings>;
  bytes: number;
}
const bySpec = new WeakMap<DecoderSpec, SpecCache>();
/** The same array object passed again (the common case): no key string to build. */
const byArray = new WeakMap<readonly string[], StopStrings>();

/** Bytes of compiled sets held by the cache for `spec` (tests, docs/decoder.md). */
export function stopStringCacheBytes(spec: DecoderSpec): number {
  return bySpec.get(spec)?.bytes ?? 0;
}

function samePatterns(c: StopStrings, strings: readonly string[]): boolean {
  const p = c.patterns;
  if (p.length !== strings.length) return false;
  for (let i = 0; i < p.length; i++) if (p[i] !== strings[i]) return false;
  return true;
}

/** Compiles (or finds in the per-spec cache) the stop-string set `strings` for `spec`. */
export function compileStopStrings(spec: DecoderSpec, strings: readonly string[]): StopStrings {
  // The array may have been changed since it was cached: its contents are compared.
  const isArray = Array.isArray(strings);
  const hit = isArray ? byArray.get(strings) : undefined;
  if (hit !== undefined && hit.spec === spec && samePatterns(hit, strings)) return hit;
  // The limits before anything is built from the strings (the key below included).
  checkStopStrings(strings);
  let cache = bySpec.get(spec);
  if (cache === undefined) {
    cache = { sets: new Map(), bytes: 0 };
    bySpec.set(spec, cache);
  }
  const key = JSON.stringify(strings);
  let c = cache.sets.get(key);
  if (c === undefined || !samePatterns(c, strings)) {
    c = new StopStrings(spec, strings);
    const old = cache.sets.get(key);
    if (old !== undefined) {
      cache.sets.delete(key);
      cache.bytes -= old.byteLength;
    }
    for (const [k, v] of cache.sets) {
      if (cache.sets.size < CACHE_LIMIT && cache.bytes + c.byteLength <= CACHE_BYTES) break;
      cache.sets.delete(k);
      cache.bytes -= v.byteLength;
    }
    cache.sets.set(key, c);
    cache.bytes += c.byteLength;
  }
  if (isArray) byArray.set(strings, c);
  return c;
}

/** Per-stream matcher state. `feed` leaves `state` at the end node or reports a match. */
export class StopMatcher {
  state = 0;
  /** After a match: pattern index and the index in the chunk of its last code unit. */
  matched = -1;
  matchEnd = -1;
  readonly automaton: StopStrings;

  constructor(automaton: StopStrings) {
    this.automaton = automaton;
  }

  reset(): void {
    this.state = 0;
    this.matched = -1;
    this.matchEnd = -1;
  }

  /** Runs chunk[from..]; true on a match (see matched / matchEnd). */
  feed(chunk: string, from: number): boolean {
    const a = this.automaton;
    const { anyUnit, match } = a;
    let s = this.state;
    for (let i = from; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      // A unit in no stop string sends every node back to the root (one bit test).
      if (((anyUnit[c >>> 5] as number) & (1 << (c & 31))) === 0) {
        s = 0;
        continue;
      }
      s = a.step(s, c);
      const m = match[s] as number;
      if (m !== -1) {
        this.state = s;
        this.matched = m;
        this.matchEnd = i;
        return true;
      }
    }
    this.state = s;
    return false;
  }
}
