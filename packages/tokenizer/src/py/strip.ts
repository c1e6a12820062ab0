// Python's str.strip() (Jinja's `trim` filter), which the Llama templates apply to message
// contents: removes the code points str.isspace() accepts (Python 3.11's list: ASCII
// whitespace, \x1c-\x1f, NEL, NBSP, U+1680, U+2000-U+200A, U+2028/9, U+202F, U+205F, U+3000).
// Not U+200B (zero width space) nor U+FEFF. One pass from each end.

const PY_SPACE: ReadonlySet<number> = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Python str.isspace() of one UTF-16 unit (every code point it accepts is in the BMP). */
export function isPySpace(c: number): boolean {
  return PY_SPACE.has(c);
}

/** `s.strip()` and how many UTF-16 units were dropped in front (the audit offset). */
export function pyStrip(s: string): { readonly text: string; readonly dropped: number } {
  let a = 0;
  while (a < s.length && PY_SPACE.has(s.charCodeAt(a))) a++;
  let z = s.length;
  while (z > a && PY_SPACE.has(s.charCodeAt(z - 1))) z--;
  return { text: s.slice(a, z), dropped: a };
}
