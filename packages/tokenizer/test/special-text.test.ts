// The special-text scanner: every occurrence, longest match at a position, UTF-16 offsets.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/index.ts";
import { createSpecialScanner } from "../src/special-text/index.ts";
import { tokenizerFor } from "./chat-support.ts";

/** The reference scan: at each index the longest string that starts there, then past it. */
const naiveOf = (strings: readonly string[]) => (t: string) => {
  const out: Array<{ token: string; index: number }> = [];
  for (let i = 0; i < t.length; i++) {
    const m = strings.filter((s) => t.startsWith(s, i)).sort((a, b) => b.length - a.length)[0];
    if (m !== undefined) {
      out.push({ token: m, index: i });
      i += m.length - 1;
    }
  }
  return out;
};

describe("scanner", () => {
  const sc = createSpecialScanner(
    new Map([
      ["<|im_end|>", 1],
      ["<|im", 2],
      ["[UNUSED_TOKEN_14]", 3],
      ["[UNUSED_TOKEN_145]", 4],
    ]),
  );
  it("finds every occurrence, longest first, non-overlapping", () => {
    expect(sc.scan("a<|im_end|><|im[UNUSED_TOKEN_145]😀<|im_end|>")).toEqual([
      { token: "<|im_end|>", index: 1, id: 1 },
      { token: "<|im", index: 11, id: 2 },
      { token: "[UNUSED_TOKEN_145]", index: 15, id: 4 },
      { token: "<|im_end|>", index: 35, id: 1 },
    ]);
    expect(sc.first("xx[UNUSED_TOKEN_14]")).toEqual({ token: "[UNUSED_TOKEN_14]", index: 2, id: 3 });
    expect(sc.scan("plain text < | [")).toEqual([]);
  });
  it("property: agrees with a naive scan", () => {
    const strings = [...sc.strings.keys()];
    const naive = naiveOf(strings);
    const text = fc.array(
      fc.oneof(fc.constantFrom(...strings, "<|", "[UNUSED_", "<"), fc.string({ maxLength: 3 })),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(text, (parts) => {
        const t = parts.join("");
        expect(sc.scan(t).map(({ token, index }) => ({ token, index }))).toEqual(naive(t));
      }),
      { numRuns: 2000, seed: 11 },
    );
  });
});

describe("scanner: one, two and three first characters, one-character strings, shared second characters", () => {
  const registries: readonly (readonly string[])[] = [
    ["<|im_start|>", "<|im_end|>", "<think>", "</think>", "<tool_call>", "</tool_call>", "<|im"],
    ["<", "<a", "<ab", "<b>"],
    ["[", "[x]", "<", "<y", "s", "sop"],
    // Two first characters (the runTwo path), each able to start inside the other's strings.
    ["<", "[", "<[", "[<", "<[x]", "[<y>"],
    ["<|im_end|>", "<|im", "[UNUSED_TOKEN_14]", "[UNUSED_TOKEN_145]", "[", "<s>"],
  ];
  for (const strings of registries) {
    it(`property: agrees with a naive scan on ${JSON.stringify(strings)}`, () => {
      const sc = createSpecialScanner(new Map(strings.map((s, i) => [s, 100 + i])));
      const naive = naiveOf(strings);
      const text = fc.array(
        fc.oneof(
          fc.constantFrom(...strings, "<|", "</", "<t", "[", "s", "so", "[<", "<["),
          fc.string({ maxLength: 3 }),
        ),
        { maxLength: 10 },
      );
      fc.assert(
        fc.property(text, (parts) => {
          const t = parts.join("");
          const all = sc.scan(t);
          expect(all.map(({ token, index }) => ({ token, index }))).toEqual(naive(t));
          for (const m of all) expect(m.id).toBe(100 + strings.indexOf(m.token));
          expect(sc.first(t)).toEqual(all[0]);
        }),
        { numRuns: 1500, seed: 12 },
      );
    });
  }
  it("an empty registry finds nothing", () => {
    const sc = createSpecialScanner(new Map());
    expect(sc.scan("<|im_end|>")).toEqual([]);
    expect(sc.first("<|im_end|>")).toBeUndefined();
  });
});

describe("encodeText policies (qwen3)", () => {
  const tok = tokenizerFor("qwen3");
  it("neutralize: encodes as text, audits", () => {
    const r = tok.encodeText("hi<|im_end|>");
    expect(r.ids.some((id) => tok.registry.ids.has(id))).toBe(false);
    expect(r.audit).toEqual([{ token: "<|im_end|>", index: 2, id: 151645 }]);
    expect(tok.textModel.decode(r.ids)).toBe("hi<|im_end|>");
  });
  it("reject: typed error with token and index", () => {
    try {
      tok.encodeText("abc</tool_call>", { specialText: "reject" });
      expect.unreachable();
    } catch (e) {
      expect(TokenizerError.isInstance(e)).toBe(true);
      expect((e as TokenizerError).type).toBe("special-token-in-text");
      expect((e as TokenizerError).fields).toMatchObject({ token: "</tool_call>", index: 3 });
    }
    expect(tok.encodeText("clean", { specialText: "reject" }).ids.length).toBeGreaterThan(0);
  });
  it("rejects an unknown policy", () => {
    expect(() => tok.encodeText("x", { specialText: "strip" as "reject" })).toThrow(/neutralize/);
  });
});
