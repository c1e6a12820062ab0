// The chat builder's cache of template-only text (format literals such as "user", "\n",
// "assistant"): the encoding of a sequence of template segments as ONE encoder call, with the
// segment each token is attributed to, kept per text model. Template text is a small fixed set
// (what the family renderers write), so a per-message header costs two Map lookups instead of an
// encoder call. Caller text is a key only in a header before a cut or in a run that ends in
// template text (a template's role: "user" + "\n", the generation prompt's "assistant" + "\n";
// see ChatBuilder.encodeRun), already audited, and in at most MAX_CALLER_ENTRIES entries,
// so caller text can never crowd the template's own runs out. Bounded: at most MAX_ENTRIES
// entries of at most MAX_CHARS characters in at most MAX_SEGMENTS segments per model; past that
// the builder encodes as without the cache.

import type { TextModel } from "../models/text-model.ts";

/** The encoding of segments s0..sk (their texts joined) as one encoder call. */
export interface FixedRun {
  readonly ids: readonly number[];
  /** Span runs: owners[r] = the segment index (0..k) of the next counts[r] tokens. */
  readonly owners: readonly number[];
  readonly counts: readonly number[];
}

interface Node {
  /** Children by the next segment's text. */
  next: Map<string, Node> | undefined;
  run: FixedRun | undefined;
}

/** One model's cache (look it up once per encoding: fixedRunsOf). */
export interface FixedRunCache {
  readonly root: Map<string, Node>;
  entries: number;
  /** Entries whose key holds caller text (at most MAX_CALLER_ENTRIES of the MAX_ENTRIES). */
  callerEntries: number;
}

export const MAX_ENTRIES = 512;
export const MAX_CALLER_ENTRIES = 64;
export const MAX_CHARS = 64;
/** Runs of more segments are never cached (nor computed for the cache: see ChatBuilder.fixedRun). */
export const MAX_SEGMENTS = 8;

const caches = new WeakMap<TextModel, FixedRunCache>();

export function fixedRunsOf(model: TextModel): FixedRunCache {
  let c = caches.get(model);
  if (c === undefined) {
    c = { root: new Map(), entries: 0, callerEntries: 0 };
    caches.set(model, c);
  }
  return c;
}

/** The cached run of texts[from..to) (a builder's segment texts), or undefined. */
export function findFixedRun(
  cache: FixedRunCache,
  texts: readonly string[],
  from: number,
  to: number,
): FixedRun | undefined {
  let map: Map<string, Node> | undefined = cache.root;
  let node: Node | undefined;
  for (let k = from; k < to; k++) {
    if (map === undefined) return undefined;
    node = map.get(texts[k] as string);
    if (node === undefined) return undefined;
    map = node.next;
  }
  return node?.run;
}

/** Whether one more entry fits (for a key with caller text: within its share). */
export function hasRoom(cache: FixedRunCache, caller: boolean): boolean {
  return cache.entries < MAX_ENTRIES && (!caller || cache.callerEntries < MAX_CALLER_ENTRIES);
}

/**
 * Stores `run` for texts[from..to) unless the cache is full (for a key with caller text:
 * its share is) or the texts are too long; answers whether it did.
 */
export function storeFixedRun(
  cache: FixedRunCache,
  texts: readonly string[],
  from: number,
  to: number,
  run: FixedRun,
  caller = false,
): boolean {
  if (!hasRoom(cache, caller)) return false;
  let chars = 0;
  for (let k = from; k < to; k++) chars += (texts[k] as string).length;
  if (chars > MAX_CHARS) return false;
  let map = cache.root;
  let node: Node | undefined;
  for (let k = from; k < to; k++) {
    const text = texts[k] as string;
    node = map.get(text);
    if (node === undefined) {
      node = { next: undefined, run: undefined };
      map.set(text, node);
    }
    if (k + 1 < to) {
      node.next ??= new Map();
      map = node.next;
    }
  }
  if (node === undefined || node.run !== undefined) return false;
  node.run = run;
  cache.entries++;
  if (caller) cache.callerEntries++;
  return true;
}
