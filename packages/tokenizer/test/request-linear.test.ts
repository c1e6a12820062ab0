// The JSON-text reader for tool-call arguments (InternLM2 / ChatGLM3 re-serialize them) and the
// request normalizer are one linear pass. Measured in the same process as a size ratio: each
// hostile shape at 4x the size costs about 4x (median of 5 runs; bound 10x, a quadratic pass would
// be ~16x), plus fuzzing against JSON.parse for what both accept.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PyJsonError, parsePyJson, pyValueJson, pyValueLiteral } from "../src/formats/py-value.ts";
import type { ChatContentPart, ChatRequest } from "../src/index.ts";
import { tokenizerFor } from "./chat-support.ts";

function median(f: () => void): number {
  const t: number[] = [];
  for (let i = 0; i < 5; i++) {
    const a = performance.now();
    f();
    t.push(performance.now() - a);
  }
  return t.sort((x, y) => x - y)[2] as number;
}

/** time(4n) / time(n) for a workload built at size n. */
function growth(make: (n: number) => () => void, n: number): number {
  const small = make(n);
  const large = make(4 * n);
  small();
  large();
  return median(large) / median(small);
}

const N = 1 << 17;
const shapes: Array<[string, (n: number) => string]> = [
  ["escape-dense string", (n) => `{"k": "${'\\"\\\\\\n\\u0000'.repeat(n / 16)}"}`],
  ["number-dense array", (n) => `[${Array.from({ length: n / 8 }, () => "1.5e-7").join(",")}]`],
  ["shallow nesting, repeated", (n) => `[${Array.from({ length: n / 12 }, () => "[[[[{}]]]]").join(",")}]`],
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
      expect(ratio, `${what}: 4x input took ${ratio.toFixed(2)}x`).toBeLessThan(10);
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
    }, 5000);
    expect(ratio).toBeLessThan(10);
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
    }, 2000);
    expect(ratio).toBeLessThan(10);
  });
});
