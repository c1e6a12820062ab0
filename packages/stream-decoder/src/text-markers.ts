// Text markers (Grammar.textMarkers): literal strings that make a marker move when the model
// writes them as ordinary text. Compiled once per spec into one small automaton per place a
// move is valid (content; the body of each block; each container between its children), so
// the decoder only ever looks for the markers it may act on where it is:
//
//   content                the open markers of top-level blocks, role markers
//   a reasoning block      its own close marker
//   an action block        its close marker, its separators, its open marker when it reopens,
//                          role markers (a role marker ends the segment, as its reserved form)
//   a container            its children's open markers and its own close marker
//
// The automaton is Aho-Corasick over the set's strings: one step per UTF-16 unit, its state is
// the longest suffix of the text read that may still become a marker (the text the decoder
// holds: at most the longest marker minus one unit), and a marker is found at the unit that
// completes it (the first to complete wins; of two ending at the same unit, the longer).
// Linear in the text, bounded memory; no allocation per step.
import type { Grammar, MarkerMove } from "@chatwire/tokenizer";

/** One text marker of a set: its text and its move (Cls.BlockOpen / BlockClose / Separator, block index; Cls.Role, role). */
export interface CompiledTextMarker {
  readonly text: string;
  readonly cls: number;
  /** -1 for a role move. */
  readonly block: number;
  /** The role a role move starts ("" for the other moves). */
  readonly role: string;
}

/** The markers valid in one place, as an automaton (state 0: nothing held). */
export class TextMarkerSet {
  readonly markers: readonly CompiledTextMarker[];
  /** Units of text each state holds (the length of its prefix). */
  readonly depth: Int32Array;
  /** The marker a state completes (index into `markers`), -1: none. */
  readonly match: Int32Array;
  private readonly edges: ReadonlyArray<ReadonlyMap<number, number>>;
  private readonly fail: Int32Array;
  private readonly prefix: readonly string[];
  /** clearOf's byte per ID: 0 not seen, 1 clear, 2 has a unit a marker starts with. */
  private clear: Uint8Array | null = null;

  constructor(markers: readonly CompiledTextMarker[]) {
    this.markers = markers;
    // ---- the trie ----
    const edges: Map<number, number>[] = [new Map()];
    const prefix: string[] = [""];
    const own: number[] = [-1];
    markers.forEach((m, k) => {
      let s = 0;
      for (let i = 0; i < m.text.length; i++) {
        const e = edges[s] as Map<number, number>;
        const c = m.text.charCodeAt(i);
        let n = e.get(c);
        if (n === undefined) {
          n = edges.length;
          edges.push(new Map());
          prefix.push(m.text.slice(0, i + 1));
          own.push(-1);
          e.set(c, n);
        }
        s = n;
      }
      // Two markers with the same text: the first one listed.
      if ((own[s] as number) < 0) own[s] = k;
    });
    const n = edges.length;
    const fail = new Int32Array(n);
    const match = new Int32Array(n).fill(-1);
    const depth = new Int32Array(n);
    // ---- failure links, breadth first (a state's link is shorter, so it is done before it) ----
    const queue: number[] = [0];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q] as number;
      depth[s] = (prefix[s] as string).length;
      // The marker completed here: the state's own (the longest), else its link's.
      match[s] =
        (own[s] as number) >= 0 ? (own[s] as number) : s === 0 ? -1 : (match[fail[s] as number] as number);
      for (const [c, t] of edges[s] as Map<number, number>) {
        if (s !== 0) fail[t] = this.stepFrom(edges, fail, fail[s] as number, c);
        queue.push(t);
      }
    }
    this.edges = edges;
    this.fail = fail;
    this.match = match;
    this.depth = depth;
    this.prefix = prefix;
  }

  private stepFrom(
    edges: ReadonlyArray<ReadonlyMap<number, number>>,
    fail: Int32Array,
    from: number,
    c: number,
  ): number {
    let s = from;
    for (;;) {
      const t = (edges[s] as ReadonlyMap<number, number>).get(c);
      if (t !== undefined) return t;
      if (s === 0) return 0;
      s = fail[s] as number;
    }
  }

  /**
   * Whether the text `t` of ID `id` (in [0, size)) has no unit a marker of the set starts with:
   * fed from state 0 it holds and finds nothing. Computed at the ID's first sight, then one
   * byte per ID (made at the first call: only decoders of a grammar with text markers pay it).
   */
  clearOf(id: number, t: string, size: number): boolean {
    let c = this.clear;
    if (c === null) {
      c = new Uint8Array(size);
      this.clear = c;
    }
    let v = c[id] as number;
    if (v === 0) {
      const first = this.edges[0] as ReadonlyMap<number, number>;
      v = 1;
      for (let i = 0; i < t.length; i++)
        if (first.has(t.charCodeAt(i))) {
          v = 2;
          break;
        }
      c[id] = v;
    }
    return v === 1;
  }

  /** The state after unit `c` in state `s` (amortized O(1): each fallback shortens the held text). */
  next(s: number, c: number): number {
    return this.stepFrom(this.edges, this.fail, s, c);
  }

  /** The text state `s` holds. */
  heldText(s: number): string {
    return this.prefix[s] as string;
  }
}

/** The compiled text markers of a grammar: the set valid in content, and in each block (index). */
export interface CompiledTextMarkers {
  readonly content: TextMarkerSet | null;
  /** Per block index: the set valid inside it (its body, or a container between its children). */
  readonly inBlock: readonly (TextMarkerSet | null)[];
}

/** What compileTextMarkers needs of a compiled block. */
export interface TextMarkerBlock {
  readonly name: string;
  /** Emits.* of spec.ts: 0 reasoning, 1 action, 2 container. */
  readonly emits: number;
  readonly parent: number;
  readonly reopens: boolean;
}

/** Move classes (spec.ts Cls), passed in so this module does not import the spec's module. */
export interface TextMarkerClasses {
  readonly blockOpen: number;
  readonly blockClose: number;
  readonly separator: number;
  readonly role: number;
}

const EMITS_ACTION = 1;
const EMITS_CONTAINER = 2;

/**
 * Compiles Grammar.textMarkers against the grammar's blocks (`blockAt`: name -> index), or
 * returns null when the grammar has none. `bad` throws the compiler's TypeError.
 */
export function compileTextMarkers(
  grammar: Grammar,
  blocks: readonly TextMarkerBlock[],
  blockAt: ReadonlyMap<string, number>,
  cls: TextMarkerClasses,
  bad: (message: string) => never,
): CompiledTextMarkers | null {
  const entries = Object.entries(grammar.textMarkers ?? {}) as Array<[string, MarkerMove | undefined]>;
  const all: CompiledTextMarker[] = [];
  for (const [text, move] of entries) {
    if (move === undefined) continue;
    const name = JSON.stringify(text);
    if (text === "") bad("a text marker is empty");
    if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text))
      bad(`text marker ${name} has a lone surrogate`);
    // A held partial UTF-8 sequence flushes as U+FFFD at a span end: no marker may be made of it.
    if (text.includes("\uFFFD")) bad(`text marker ${name} contains U+FFFD`);
    if (move.move === "role") {
      all.push({ text, cls: cls.role, block: -1, role: move.role });
      continue;
    }
    if (move.move !== "block-open" && move.move !== "block-close" && move.move !== "separator")
      bad(`text marker ${name}: a "${move.move}" move cannot be text`);
    const b = blockAt.get(move.block);
    if (b === undefined) bad(`text marker ${name} names an unknown block ${JSON.stringify(move.block)}`);
    all.push({
      text,
      cls:
        move.move === "block-open"
          ? cls.blockOpen
          : move.move === "block-close"
            ? cls.blockClose
            : cls.separator,
      block: b as number,
      role: "",
    });
  }
  if (all.length === 0) return null;
  if (grammar.header.syntax === "harmony") bad("text markers are not read under a harmony header");
  const set = (ms: readonly CompiledTextMarker[]): TextMarkerSet | null =>
    ms.length === 0 ? null : new TextMarkerSet(ms);
  const content = set(
    all.filter((m) => m.cls === cls.role || (m.cls === cls.blockOpen && blocks[m.block]?.parent === -1)),
  );
  const inBlock = blocks.map((blk, b) =>
    set(
      all.filter((m) =>
        m.cls === cls.role
          ? blk.emits === EMITS_ACTION
          : blk.emits === EMITS_CONTAINER
            ? (m.cls === cls.blockOpen && blocks[m.block]?.parent === b) ||
              (m.cls === cls.blockClose && m.block === b)
            : m.block === b &&
              (m.cls === cls.blockClose ||
                (blk.emits === EMITS_ACTION &&
                  (m.cls === cls.separator || (m.cls === cls.blockOpen && blk.reopens)))),
      ),
    ),
  );
  return Object.freeze({ content, inBlock: Object.freeze(inBlock) });
}
