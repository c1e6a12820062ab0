// Hostile requests: a structural string put inside every caller string. The generators' rule
// (test-vectors/gen), re-stated here: the middle by code points, as Python slices a str.

/** `token` at the middle of `s` (by code point). */
export function insertMid(s: string, token: string): string {
  const cps = [...s];
  const mid = Math.floor(cps.length / 2);
  return cps.slice(0, mid).join("") + token + cps.slice(mid).join("");
}

export interface InsertOptions {
  /** Leave empty strings as they are. */
  readonly skipEmpty?: boolean;
  /** Counts the strings changed. */
  readonly count?: { n: number };
}

/** Every caller string (not `role` / `type` values, not object keys) with `token` at its middle. */
export function insertEverywhere(v: unknown, token: string, options: InsertOptions = {}, key = ""): unknown {
  if (typeof v === "string") {
    if (key === "role" || key === "type" || (options.skipEmpty === true && v === "")) return v;
    if (options.count !== undefined) options.count.n++;
    return insertMid(v, token);
  }
  if (Array.isArray(v)) return v.map((x) => insertEverywhere(x, token, options));
  if (v !== null && typeof v === "object") {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = insertEverywhere(x, token, options, k);
    return o;
  }
  return v;
}
