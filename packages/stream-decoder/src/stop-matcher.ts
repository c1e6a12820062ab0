// Caller stop strings, found across token boundaries (pitfall B5) with text held back ONLY
// while the held tail is still a prefix of some stop string (llama.cpp's rule, not vLLM's
// fixed max_len-1 window, pitfall B6). An Aho-Corasick automaton over UTF-16 code units:
// the held text is always exactly the string of the current node, so holding costs nothing.
//
// When several stop strings could match, the one that ENDS first wins (the stream stops as
// early as possible); among those ending at the same place, the longest (earliest start).
//
// Compiled ONCE per (decoder spec, stop-string set) and shared by every stream (style.md 5):
// compiling used to run inside every createDecoder() (~18 µs of a 38 µs creation, bench
// profile); now a stream only allocates its small StopMatcher.
import type { DecoderSpec } from "./spec.ts";

/** Per token ID: not looked at yet / its text has no unit that can start a stop string / it may. */
const ID_UNKNOWN = 0;
const ID_CLEAR = 1;
const ID_CANDIDATE = 2;

function hasBit(bits: Uint32Array, c: number): boolean {
  return ((bits[c >>> 5] as number) & (1 << (c & 31))) !== 0;
}

function setBit(bits: Uint32Array, c: number): void {
  bits[c >>> 5] = (bits[c >>> 5] as number) | (1 << (c & 31));
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
  /** The distinct code units of the patterns (the automaton's alphabet), in first-seen order. */
  readonly alphabet: Uint16Array;
  /** Full transition table (failure links resolved): next node = delta[node * alphabet.length + a]. */
  readonly delta: Int32Array;
  /** Node string (the text held while in this node). */
  readonly nodeText: readonly string[];
  /** Longest pattern that is a suffix of the node string, or -1. */
  readonly match: Int32Array;
  /**
   * Per token ID of spec.text, filled lazily (ID_*): most tokens never contain a unit that can
   * start a stop string, so the per-token fast path skips the per-character scan. Measured
   * (bench --quick, Qwen3 plain 8k, 2 stop strings): 45.2 -> ~12 ns/token together with the
   * transition table below (Map.get per character before).
   */
  readonly idFlags: Uint8Array;

  constructor(spec: DecoderSpec, patterns: readonly string[]) {
    for (const s of patterns) {
      if (typeof s !== "string" || s === "") throw new TypeError("stop strings must be non-empty strings");
    }
    this.spec = spec;
    this.patterns = Object.freeze([...patterns]);
    const children: Map<number, number>[] = [new Map()];
    const nodeText: string[] = [""];
    const terminal: number[] = [-1];
    const firstUnit = new Uint32Array(2048);
    const anyUnit = new Uint32Array(2048);
    const alpha: number[] = [];
    this.patterns.forEach((p, pi) => {
      let s = 0;
      for (let i = 0; i < p.length; i++) {
        const c = p.charCodeAt(i);
        if (i === 0) setBit(firstUnit, c);
        if (!hasBit(anyUnit, c)) {
          setBit(anyUnit, c);
          alpha.push(c);
        }
        const map = children[s] as Map<number, number>;
        let t = map.get(c);
        if (t === undefined) {
          t = children.length;
          children.push(new Map());
          nodeText.push(p.slice(0, i + 1));
          terminal.push(-1);
          map.set(c, t);
        }
        s = t;
      }
      if (terminal[s] === -1) terminal[s] = pi;
    });
    const n = children.length;
    const a = alpha.length;
    const fail = new Int32Array(n);
    const match = new Int32Array(n).fill(-1);
    const delta = new Int32Array(n * a);
    // Breadth-first: fail links, the full transition table, and the longest pattern ending at
    // each node (its own pattern, else the one of its fail node).
    const queue: number[] = [0];
    for (let qi = 0; qi < queue.length; qi++) {
      const s = queue[qi] as number;
      const f = fail[s] as number;
      const own = terminal[s] as number;
      match[s] = own !== -1 ? own : s === 0 ? -1 : (match[f] as number);
      const map = children[s] as Map<number, number>;
      for (let k = 0; k < a; k++) {
        const child = map.get(alpha[k] as number);
        if (child !== undefined) {
          fail[child] = s === 0 ? 0 : (delta[f * a + k] as number);
          delta[s * a + k] = child;
          queue.push(child);
        } else delta[s * a + k] = s === 0 ? 0 : (delta[f * a + k] as number);
      }
    }
    this.firstUnit = firstUnit;
    this.anyUnit = anyUnit;
    this.alphabet = Uint16Array.from(alpha);
    this.delta = delta;
    this.nodeText = nodeText;
    this.match = match;
    this.idFlags = new Uint8Array(spec.text.length);
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

/** Distinct stop-string sets per spec; cleared when full (a server with per-request sets). */
const CACHE_LIMIT = 64;
const bySpec = new WeakMap<DecoderSpec, Map<string, StopStrings>>();
/** The same array object passed again (the common case): no key string to build. */
const byArray = new WeakMap<readonly string[], StopStrings>();

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
  let cache = bySpec.get(spec);
  if (cache === undefined) {
    cache = new Map();
    bySpec.set(spec, cache);
  }
  const key = JSON.stringify(strings);
  let c = cache.get(key);
  if (c === undefined || !samePatterns(c, strings)) {
    c = new StopStrings(spec, strings);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, c);
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
    const { anyUnit, alphabet, delta, match } = this.automaton;
    const a = alphabet.length;
    let s = this.state;
    for (let i = from; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      // A unit in no stop string sends every node back to the root (one bit test).
      if (((anyUnit[c >>> 5] as number) & (1 << (c & 31))) === 0) {
        s = 0;
        continue;
      }
      // Stop-string alphabets are small (tens of units): a linear scan beats a Map lookup.
      let k = 0;
      while (alphabet[k] !== c) k++;
      s = delta[s * a + k] as number;
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
