// Template-origin runs of a rendering, split on the reserved strings they spell, remembered per
// run text. A template writes the same few runs on every message ("<|im_end|>\n<|im_start|>",
// "\n<think>\n"), and finding reserved strings in them compares every candidate at every "<";
// measured on Qwen3's template (100 messages) that scan was 6% of encodeChat, now a Map lookup.
// Only short runs are kept, and the cache is bounded (cleared when full): a template that writes
// long or ever-new text (a loop over caller data building template text) costs what it cost
// before, never more memory than the bound.
import type { ChatSink } from "../formats/sink.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";

/** A run as the builder's template() splits it: text pieces (string) and reserved IDs (number). */
type Split = readonly (string | number)[];

const MAX_RUN = 256;
const MAX_ENTRIES = 4096;

export interface TemplateRunCache {
  /** Same as sink.template(text, message, field): reserved strings become IDs, the rest text. */
  emit(text: string, message: number | null, field: string, sink: ChatSink): void;
}

export function createTemplateRunCache(scanner: SpecialScanner): TemplateRunCache {
  const cache = new Map<string, Split>();
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
      let parts = cache.get(text);
      if (parts === undefined) {
        if (cache.size >= MAX_ENTRIES) cache.clear();
        parts = split(text);
        cache.set(text, parts);
      }
      for (const p of parts)
        if (typeof p === "string") sink.text(p, message, field);
        else sink.reserved(p, message, "marker");
    },
  };
}
