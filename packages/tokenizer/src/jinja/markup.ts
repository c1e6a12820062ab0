// jinja2's `escape` / `e` / `forceescape` / `safe` filters without autoescape (transformers' environment):
// the result is a markupsafe Markup, printed as the HTML-escaped text (& < > " ' ->
// &amp; &lt; &gt; &#34; &#39;). Escaped entities keep the origin of the character they replace.
// Markup behaviour modelled here: `escape` of a Markup returns it unchanged (no double escape),
// and `+` with a Markup operand escapes the other (str) operand and is Markup again. Not
// modelled: str methods and slices of a Markup stay Markup in Python (here plain strings), which
// only shows if such a value is escaped or added with `+` again.
import { PStr } from "./pstr.ts";
import { str, type Value } from "./values.ts";

const MARKUP = new WeakSet<PStr>();
/** False until the first Markup is made: `+` asks isMarkup of every operand, and most processes never make one. */
let anyMarkup = false;

const ENTITY: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&#34;",
  "'": "&#39;",
};

function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITY[c] as string);
}

export function isMarkup(v: Value): v is PStr {
  return anyMarkup && v instanceof PStr && MARKUP.has(v);
}

function mark(s: PStr): PStr {
  // The empty string is one shared value: never marked (escaping it is a no-op anyway).
  if (s.length > 0) {
    anyMarkup = true;
    MARKUP.add(s);
  }
  return s;
}

/** `escape` / `e`: a Markup unchanged, anything else str() then escaped. */
export function htmlEscapeValue(v: Value): PStr {
  if (isMarkup(v)) return v;
  return mark(str(v).mapRuns(htmlEscape));
}

/** `safe` (markupsafe Markup(v)): a Markup unchanged, anything else str() and marked, escaping
 * nothing. A fresh string: the operand (maybe a caller string used elsewhere) stays plain. */
export function markSafe(v: Value): PStr {
  if (isMarkup(v)) return v;
  return mark(str(v).mapRuns((s) => s));
}

/** `forceescape`: escaped even when already Markup. */
export function forceEscape(v: Value): PStr {
  return mark(str(v).mapRuns(htmlEscape));
}

/** `a + b` where one side is Markup: the other escaped, the result Markup. */
export function markupPlus(a: PStr, b: PStr, join: (x: PStr, y: PStr) => PStr): PStr {
  return mark(join(htmlEscapeValue(a), htmlEscapeValue(b)));
}
