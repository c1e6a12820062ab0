// line-splitter.ts against the contract's rule, written out plainly here (a re-implementation of
// docs/cli-contract.md "Lines and pipes", labelled as such): split the bytes at "\n", drop one
// "\r" before it, a last piece without "\n" is a line when non-empty, a line over the limit is
// reported by length. Inputs are re-chunked at random (fast-check, fixed seed): the lines must
// not depend on where the chunks break, and memory must stay within the limit.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineSplitter } from "../src/line-splitter.ts";

type Out = { line: string } | { tooLong: number };

function reference(bytes: Uint8Array, max: number): Out[] {
  const out: Out[] = [];
  const text = Buffer.from(bytes);
  let start = 0;
  for (;;) {
    const nl = text.indexOf(0x0a, start);
    const end = nl === -1 ? text.length : nl;
    if (nl === -1 && end === start) break;
    let stop = end;
    if (nl !== -1 && stop > start && text[stop - 1] === 0x0d) stop--;
    else if (nl === -1 && stop > start && text[stop - 1] === 0x0d) stop--;
    if (stop - start > max) out.push({ tooLong: stop - start });
    else out.push({ line: new TextDecoder("utf-8", { ignoreBOM: true }).decode(text.subarray(start, stop)) });
    if (nl === -1) break;
    start = nl + 1;
  }
  return out;
}

function split(bytes: Uint8Array, max: number, cuts: number[]): Out[] {
  const out: Out[] = [];
  const s = createLineSplitter(max, {
    line: (t) => out.push({ line: t }),
    tooLong: (n) => out.push({ tooLong: n }),
  });
  let at = 0;
  for (const c of [...cuts.map((x) => x % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    s.push(bytes.slice(at, Math.max(at, c)));
    at = Math.max(at, c);
  }
  s.end();
  return out;
}

const piece = fc.constantFrom("a", "中", "\n", "\r", "\r\n", "{}", "😀", "\xff", " ");

describe("line splitter", () => {
  it("equals the contract's rule for any chunking", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (parts, max, cuts) => {
          const bytes = Buffer.from(parts.join("").replaceAll("\xff", "\u00ff"), "utf8");
          // Also raw invalid UTF-8: replace every "ÿ" (c3 bf) by a lone 0xff byte.
          const raw = Buffer.from(bytes.toString("latin1").replaceAll("\xc3\xbf", "\xff"), "latin1");
          expect(split(raw, max, cuts)).toEqual(reference(raw, max));
        },
      ),
      { numRuns: 3000, seed: 0x11ae },
    );
  });
  it("64 MiB of one line over a 10-byte limit: one tooLong with the full count, then the next line", () => {
    const seen: Out[] = [];
    const s = createLineSplitter(10, {
      line: (t) => seen.push({ line: t }),
      tooLong: (n) => seen.push({ tooLong: n }),
    });
    const chunk = new Uint8Array(1 << 20).fill(0x61);
    for (let i = 0; i < 64; i++) s.push(chunk); // 64 MiB in one line: nothing accumulates
    s.push(new TextEncoder().encode("\r\nok\n"));
    s.end();
    expect(seen).toEqual([{ tooLong: 64 << 20 }, { line: "ok" }]);
  });
});
