// The patterns of a response_template (`open_pattern`, `close_pattern`, xml-inline's
// `tag_pattern`) are Python regexes from a model's files: chatwire never runs them as regexes
// (a hostile one could backtrack for ever). It reads the subset real templates use into a
// sequence of items the body parsers match in linear time, and refuses anything else:
//
//   literal text and escaped punctuation  `<\|tool_call>call:`   -> { lit }
//   `\n` `\t` `\r`                        newline, tab, CR        -> { lit }
//   `\s*` (and `\s?` `\n?` `\s+`)         whitespace              -> { ws } (an edge of a region
//                                                                   whose text is stripped, so
//                                                                   the count does not matter)
//   `(?P<NAME>\w+)`                       a captured word         -> { word: NAME }
//   `(?P<NAME>.*?)` / `.*?`               the shortest text to the next literal -> { lazy }
import type { ResponsePatternItem } from "../../../families/grammar.ts";

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r" };

/** Patterns are short; a longer one is refused before any work (reading one is linear per group). */
const MAX_PATTERN = 1024;

/** The items of `source`, or null when it uses anything outside the subset. */
export function readPattern(source: string): ResponsePatternItem[] | null {
  if (source.length > MAX_PATTERN) return null;
  const items: ResponsePatternItem[] = [];
  let lit = "";
  const flush = (): void => {
    if (lit !== "") items.push({ lit });
    lit = "";
  };
  const ws = (): void => {
    flush();
    const last = items[items.length - 1];
    if (last === undefined || !("ws" in last)) items.push({ ws: true });
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    const next = source[i + 1];
    if (c === "\\") {
      if (next === undefined) return null;
      const q = source[i + 2];
      if (next === "s" && (q === "*" || q === "?" || q === "+")) {
        ws();
        i += 3;
      } else if (next === "n" && q === "?") {
        ws();
        i += 3;
      } else if (next in ESCAPES) {
        lit += ESCAPES[next];
        i += 2;
      } else if (/[^\p{L}\p{N}_]/u.test(next)) {
        // An escaped punctuation character is itself.
        lit += next;
        i += 2;
      } else return null;
      if ("*+?{".includes(source[i] ?? "_")) return null; // a quantifier on a literal
      continue;
    }
    if (c === "(") {
      const m = /^\(\?P<(\w+)>(\\w\+|\.\*\?)\)/u.exec(source.slice(i));
      if (m === null) return null;
      flush();
      const name = m[1] as string;
      items.push(m[2] === "\\w+" ? { word: name } : { lazy: name });
      i += m[0].length;
      continue;
    }
    if (c === "." && source.startsWith(".*?", i)) {
      flush();
      items.push({ lazy: null });
      i += 3;
      continue;
    }
    if (".^$*+?{}[]|)".includes(c)) return null;
    if (next !== undefined && "*+?{".includes(next)) return null; // a quantifier on a literal
    lit += c;
    i += 1;
  }
  flush();
  return items;
}

/** `(?:^|INNER)`: the region may also be open from the start of the output. */
export function startAlternative(source: string): string | null {
  const m = /^\(\?:\^\|(.*)\)$/su.exec(source);
  return m === null ? null : (m[1] as string);
}
