// The JSON-text reader for tool-call arguments (InternLM2 / ChatGLM3 re-serialize them) and the
// request normalizer are one linear pass. Measured in the same process as a size ratio: each
// hostile shape at 16x the size costs about 16x (fastest of 5 runs in CPU time; bound 100x, generous for GC
// and cache effects on a shared machine: 8x sizes measured 10-20x and up to 41x at load average
// 16, so the old 8x/40x bound flaked; a quadratic pass would be ~256x). Base sizes are past the cache-resident regime, where small
// inputs look unfairly fast. Plus fuzzing against JSON.parse.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatContentPart, ChatRequest } from "../src/index.ts";
import { PyJsonError, parsePyJson, pyValueJson, pyValueLiteral } from "../src/py/value.ts";
import { tokenizerFor } from "./chat-support.ts";

/** This process's CPU time in ms (time spent descheduled by other processes does not count). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * The fastest of 5 runs in CPU time: the least disturbed by GC and by the other processes. Runs
 * stop early once one is under `enough` (the fastest of all 5 would be under it too).
 */
function fastest(f: () => void, enough = 0): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5 && best >= enough; i++) {
    const a = cpuMs();
    f();
    best = Math.min(best, cpuMs() - a);
  }
  return best;
}

const FACTOR = 16;
const BOUND = 100;

/**
 * time(FACTOR * n) / time(n) for a workload built at size n. The large runs stop at the first
 * under BOUND x the small time: the ratio's verdict is the fastest-of-5 one, and a quadratic
 * workload runs all 5.
 */
function growth(make: (n: number) => () => void, n: number): number {
  const small = make(n);
  const large = make(FACTOR * n);
  small();
  large();
  const smallTime = fastest(small);
  return fastest(large, BOUND * smallTime) / smallTime;
}

const N = 1 << 16;
const shapes: Array<[string, (n: number) => string]> = [
  ["escape-dense string", (n) => `{"k": "${'\\"\\\\\\n\\u0000'.repeat(n / 16)}"}`],
  ["many keys", (n) => `{${Array.from({ length: n / 10 }, (_, i) => `"a${i}":1`).join(",")}}`],
  [
    "nesting at the depth limit, repeated",
    (n) => `[${Array.from({ length: n / 130 }, () => `${"[".repeat(62)}${"]".repeat(62)}`).join(",")}]`,
  ],
];

describe("parsePyJson + writers: linear", () => {
  for (const [what, make] of shapes) {
    it(what, () => {
      const ratio = growth((n) => {
        const text = make(n);
        return () => {
          const v = parsePyJson(text);
          pyValueJson(v);
          pyValueLiteral(v);
        };
      }, N);
      expect(ratio, `${what}: ${FACTOR}x input took ${ratio.toFixed(2)}x`).toBeLessThan(BOUND);
    });
  }
});

describe("parsePyJson: agrees with JSON.parse", () => {
  it("random JSON text: same value (as JSON) or both refuse", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 5 }), fc.string({ maxLength: 20 })), (s) => {
        let ours: string | undefined;
        try {
          ours = pyValueJson(parsePyJson(s));
        } catch (e) {
          expect(e instanceof PyJsonError).toBe(true);
        }
        let theirs: unknown;
        let ok = true;
        try {
          theirs = JSON.parse(s);
        } catch {
          ok = false;
        }
        expect(ours !== undefined, s).toBe(ok);
        // Python and JS differ only in number spelling (1.0 vs 1): compare after JSON.parse
        if (ours !== undefined) expect(JSON.parse(ours)).toEqual(theirs);
      }),
      { numRuns: 2000, seed: 5 },
    );
  });
});

describe("normalizer + rendering: linear in messages, parts and tool calls", () => {
  const tok = tokenizerFor("qwen3");
  it("text parts", () => {
    const req = (n: number): ChatRequest => ({
      messages: [
        {
          role: "user",
          content: Array.from({ length: n }, (): ChatContentPart => ({ type: "text", text: "ab" })),
        },
      ],
    });
    const ratio = growth((n) => {
      const r = req(n);
      return () => tok.renderChat(r);
    }, 20000);
    expect(ratio).toBeLessThan(BOUND);
  });
  it("messages with tool calls and results", () => {
    const req = (n: number): ChatRequest => ({
      messages: Array.from({ length: n }, (_, i) =>
        i % 2 === 0
          ? {
              role: "assistant" as const,
              content: null,
              tool_calls: [{ type: "function" as const, function: { name: "f", arguments: '{"a": 1}' } }],
            }
          : { role: "tool" as const, content: "r" },
      ),
    });
    const ratio = growth((n) => {
      const r = req(n);
      return () => tok.renderChat(r);
    }, 4000);
    expect(ratio).toBeLessThan(BOUND);
  });
});
