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
import type { ChatSink } from "../formats/sink.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";

/** A run as the builder's template() splits it: text pieces (string) and reserved IDs (number). */
type Split = readonly (string | number)[];

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
  /** Same as sink.template(text, message, field): reserved strings become IDs, the rest text. */
  emit(text: string, message: number | null, field: string, sink: ChatSink): void;
}

export function createTemplateRunCache(scanner: SpecialScanner): TemplateRunCache {
  // Slot k holds keys[k] and its split splits[k] (keys[k] undefined: empty).
  const keys = new Array<string | undefined>(SLOTS).fill(undefined);
  const splits = new Array<Split>(SLOTS).fill([]);
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
    const out: (string | number)[] = [];
    let from = 0;
    for (const m of scanner.scan(text)) {
      if (m.index > from) out.push(text.slice(from, m.index));
      out.push(m.id);
      from = m.index + m.token.length;
    }
    if (from < text.length) out.push(text.slice(from));
    return out;
  };
  return {
    emit(text, message, field, sink) {
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
      }
      for (const p of parts)
        if (typeof p === "string") sink.text(p, message, field);
        else sink.reserved(p, message, "marker");
    },
  };
}
