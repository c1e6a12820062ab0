// Template-origin runs of a rendering, split on the reserved strings they spell, remembered per
// run text. A template writes the same few runs on every message ("<|im_end|>\n<|im_start|>",
// "\n<think>\n"), and finding reserved strings in them compares every candidate at every "<";
// measured on Qwen3's template (100 messages) that scan was 6% of encodeChat, now a table lookup.
// Only short runs are kept, and the cache is bounded (a fixed table of SLOTS entries): a template
// that writes long or ever-new text (a loop over caller data building template text) costs what
// it cost before, never more memory than the bound.
//
// The table is direct-mapped (slot = a mix of the run's length and three of its characters, the
// entry verified by string equality), not a Map: every run of a rendering is a fresh string (a
// rope of template literals), and a Map lookup hashes the whole fresh string each time. Measured
// (node 20, a rope of three literals, as "<|im_end|>\n<|im_start|>"): Map.get ~100 ns per run,
// the slot ~15-30 ns; the bench's 10 requests look up ~150 such runs.
import type { ChatSink } from "../chat/sink.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";

/**
 * A run as the builder's template() splits it: text pieces (string) and reserved IDs (number);
 * with `encode`, a text piece between two reserved IDs of the run is its IDs (an array, see
 * createTemplateRunCache).
 */
type Split = readonly (string | number | readonly number[])[];

const MAX_RUN = 256;
/** Table size (a power of two). */
const SLOTS = 1024;

/** The slot of a non-empty run: its length and its first, middle and last code units, mixed. */
function slotOf(text: string): number {
  const n = text.length;
  const h =
    Math.imul(n, 0x9e3779b1) ^
    Math.imul(text.charCodeAt(0), 0x85ebca6b) ^
    Math.imul(text.charCodeAt(n >> 1), 0xc2b2ae35) ^
    Math.imul(text.charCodeAt(n - 1), 0x27d4eb2f);
  return (h ^ (h >>> 15)) & (SLOTS - 1);
}

export interface TemplateRunCache {
  /**
   * Same as sink.template(text, message, field): reserved strings become IDs, the rest text.
   * `last`: nothing follows this run in the sink (the rendering's last run), so its text after
   * its last reserved string is a whole encoder run too.
   */
  emit(text: string, message: number | null, field: string, sink: ChatSink, last?: boolean): void;
}

/**
 * `encode` (the encoder call the ChatBuilder makes for a run: TextModel.encodeInto / encode) is
 * given only when the sink is the builder itself (no strip filter, no text-piece split in
 * front): then a text piece BETWEEN two reserved strings of one template run ("\n" in
 * "<|im_end|>\n<|im_start|>") is a whole encoder run of the builder (its run ends at each
 * reserved ID), so its IDs are computed once, when the run is split, and placed as they are:
 * the same IDs, and the same span (message, field) the builder gives a one-segment run. Text at
 * a run's start or end may join the caller text next to it and is passed as text.
 */
export function createTemplateRunCache(
  scanner: SpecialScanner,
  encode?: (text: string) => number[],
): TemplateRunCache {
  // Slot k holds keys[k] and its split splits[k] (keys[k] undefined: empty).
  const keys = new Array<string | undefined>(SLOTS).fill(undefined);
  const splits = new Array<Split>(SLOTS).fill([]);
  // tails[k]: the IDs of keys[k]'s final text piece when it follows a reserved string (made when
  // the run is first emitted as the last one; cleared with its slot).
  const tails = new Array<readonly number[] | undefined>(SLOTS).fill(undefined);
  // The first characters of the reserved strings ("<", "[" in every real registry): a run
  // holding none of them holds no reserved string, and indexOf on a short run is cheaper than
  // hashing it (tojson's punctuation between caller strings is one template run per gap).
  const firsts = [...new Set([...scanner.strings.keys()].map((s) => s.charAt(0)).filter((c) => c !== ""))];
  const mayHold = (text: string): boolean => {
    for (const c of firsts) if (text.includes(c)) return true;
    return false;
  };
  const fastPath = firsts.length <= 4;
  const split = (text: string): Split => {
    const out: (string | number | readonly number[])[] = [];
    let from = 0;
    for (const m of scanner.scan(text)) {
      if (m.index > from) out.push(text.slice(from, m.index));
      out.push(m.id);
      from = m.index + m.token.length;
    }
    if (from < text.length) out.push(text.slice(from));
    if (encode !== undefined)
      for (let i = 1; i + 1 < out.length; i++) {
        const p = out[i];
        if (typeof p === "string" && typeof out[i - 1] === "number" && typeof out[i + 1] === "number")
          out[i] = encode(p);
      }
    return out;
  };
  return {
    emit(text, message, field, sink, last = false) {
      if (text.length > MAX_RUN) {
        sink.template(text, message, field);
        return;
      }
      if (fastPath && !mayHold(text)) {
        sink.text(text, message, field);
        return;
      }
      let parts: Split;
      const k = slotOf(text);
      if (keys[k] === text) parts = splits[k] as Split;
      else {
        parts = split(text);
        keys[k] = text;
        splits[k] = parts;
        tails[k] = undefined;
      }
      let end = parts.length;
      let tail: readonly number[] | undefined;
      if (last && encode !== undefined && end >= 2) {
        const p = parts[end - 1];
        if (typeof p === "string" && typeof parts[end - 2] === "number") {
          tail = tails[k] ?? encode(p);
          tails[k] = tail;
          end--;
        }
      }
      for (let j = 0; j < end; j++) {
        const p = parts[j] as Split[number];
        if (typeof p === "string") sink.text(p, message, field);
        else if (typeof p === "number") sink.reserved(p, message, "marker");
        else for (let i = 0; i < p.length; i++) sink.reserved(p[i] as number, message, field);
      }
      if (tail !== undefined)
        for (let i = 0; i < tail.length; i++) sink.reserved(tail[i] as number, message, field);
    },
  };
}
