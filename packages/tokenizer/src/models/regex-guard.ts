// A model file's split pattern runs on caller text in V8's backtracking RegExp engine. A group
// that repeats (`*`, `+`, `{n,m}` with m > 1) around a body that can match one string in more than
// one way — a variable quantifier or an alternation inside it: `(a+)+`, `(?:a|a)+`, `(aa?)+` —
// can take time exponential in the text. Such a pattern is refused where the file is read
// (conservatively: an unambiguous body such as `[ab]x?` is refused too). The patterns real
// tokenizers ship repeat only single atoms (`\p{L}+`, `[^\s]*`) or fixed-length groups
// (`(\d{3})+`), or make a group optional (`(?i:'s|'t)?`), which this allows.
//
// One linear pass over the pattern (Oniguruma and JS syntax alike for these constructs).

interface Group {
  readonly start: number;
  /** The body holds a quantifier of variable count (at any depth). */
  quant: boolean;
  /** The body holds an alternation (at any depth). */
  alt: boolean;
}

/** Why `pattern` may backtrack exponentially (a repeated ambiguous group), or undefined. */
export function backtrackingGroup(pattern: string): string | undefined {
  const n = pattern.length;
  const stack: Group[] = [];
  let closed: Group | undefined;
  let i = 0;
  while (i < n) {
    const c = pattern[i] as string;
    if (c === "\\") {
      const k = pattern[i + 1];
      i += 2;
      if ((k === "p" || k === "P" || k === "x" || k === "u") && pattern[i] === "{") {
        const end = pattern.indexOf("}", i);
        i = end < 0 ? n : end + 1;
      }
      closed = undefined;
      continue;
    }
    if (c === "[") {
      i = classEnd(pattern, i);
      closed = undefined;
      continue;
    }
    if (c === "(") {
      stack.push({ start: i, quant: false, alt: false });
      i++;
      if (pattern[i] === "?") {
        // (?: (?= (?! (?<= (?<! (?<name> (?i: (?i-m: ...
        i++;
        while (i < n && /[a-zA-Z<-]/.test(pattern[i] as string)) i++;
        if (i < n && ":=!>".includes(pattern[i] as string)) i++;
      }
      closed = undefined;
      continue;
    }
    if (c === ")") {
      const g = stack.pop();
      const parent = stack[stack.length - 1];
      if (g !== undefined && parent !== undefined) {
        parent.quant ||= g.quant;
        parent.alt ||= g.alt;
      }
      closed = g;
      i++;
      continue;
    }
    if (c === "|") {
      const top = stack[stack.length - 1];
      if (top !== undefined) top.alt = true;
      closed = undefined;
      i++;
      continue;
    }
    const q = quantifierAt(pattern, i);
    if (q !== undefined) {
      if (q.max > 1 && closed !== undefined && (closed.quant || closed.alt))
        return `the group at offset ${closed.start} repeats a body with ${closed.quant ? "a quantifier" : "an alternation"} in it (exponential backtracking)`;
      const top = stack[stack.length - 1];
      if (top !== undefined && q.min !== q.max) top.quant = true;
      closed = undefined;
      i = q.end;
      continue;
    }
    closed = undefined;
    i++;
  }
  return undefined;
}

/** The offset after the character class opening at `i` (classes nest; escapes skipped). */
function classEnd(p: string, i: number): number {
  let depth = 0;
  const n = p.length;
  while (i < n) {
    const c = p[i];
    if (c === "\\") i += 2;
    else if (c === "[") {
      depth++;
      i++;
      if (p[i] === "^") i++;
      if (p[i] === "]") i++; // a literal "]" first in the class
    } else if (c === "]") {
      depth--;
      i++;
      if (depth === 0) return i;
    } else i++;
  }
  return n;
}

/** The quantifier at `i` (with its lazy/possessive suffix), or undefined: `{` not a count is a literal. */
function quantifierAt(
  p: string,
  i: number,
): { readonly min: number; readonly max: number; readonly end: number } | undefined {
  const c = p[i];
  let min = 0;
  let max: number;
  let end: number;
  if (c === "*" || c === "+") {
    min = c === "+" ? 1 : 0;
    max = Number.POSITIVE_INFINITY;
    end = i + 1;
  } else if (c === "?") {
    max = 1;
    end = i + 1;
  } else if (c === "{") {
    const m = /^\{(\d*)(?:(,)(\d*))?\}/.exec(p.slice(i, i + 24));
    if (m === null || (m[1] === "" && m[3] === undefined)) return undefined;
    min = Number(m[1] || 0);
    if (m[2] === undefined) max = min;
    else max = m[3] === "" || m[3] === undefined ? Number.POSITIVE_INFINITY : Number(m[3]);
    end = i + m[0].length;
  } else return undefined;
  if (p[end] === "?" || p[end] === "+") end++;
  return { min, max, end };
}
