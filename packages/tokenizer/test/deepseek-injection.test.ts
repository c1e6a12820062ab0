// DeepSeek V3 / R1: no caller string can place a reserved ID. Every structural string (the
// family's tokens, <think>/</think>, the other added tokens) inserted into every caller string of
// every golden conversation leaves the reserved IDs exactly those of the benign conversation, on
// the package vocabulary and on the DERIVED R1 one; the audit names each rendered occurrence;
// "reject" refuses it. Plus the refusals documented in render.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/errors.ts";
import { DEEPSEEK_R1_TOKENS } from "../src/families/deepseek/tokens.ts";
import { type DeepSeekEncoder, type DeepSeekFamily, encoder, FAMILIES, golden } from "./deepseek-support.ts";
import { insertEverywhere } from "./injection-support.ts";

const STRUCTURAL = [
  ...Object.values(DEEPSEEK_R1_TOKENS),
  "<|EOT|>",
  "<｜fim▁hole｜>",
  "<｜▁pad▁｜>",
  "<｜place▁holder▁no▁798｜>",
  "<｜place▁holder▁no▁0｜>",
];

const reservedOf = (enc: DeepSeekEncoder, ids: readonly number[]): number[] =>
  ids.filter((id) => enc.nameById.has(id));

function checkFamily(family: DeepSeekFamily, derived: boolean): void {
  const label = `${family}${derived ? " (derived R1 vocabulary)" : ""}`;
  describe(`${label}: structural strings in every caller field`, () => {
    const enc = encoder(family, derived);
    const g = golden(family);
    for (const v of g.chat) {
      it(`${v.name}: ${STRUCTURAL.length} strings, reserved IDs unchanged`, () => {
        const twin = reservedOf(enc, enc.encodeChat(v.request).ids);
        for (const s of STRUCTURAL) {
          const req = insertEverywhere(v.request, s, { skipEmpty: true });
          if (family === "deepseek-r1" && s === "</think>" && v.request.continue_final_message === true) {
            // Documented refusal: the template would cut the continued content at "</think>".
            expect(() => enc.encodeChat(req)).toThrow(/continue_final_message cannot continue content/);
            continue;
          }
          const e = enc.encodeChat(req);
          expect(reservedOf(enc, e.ids), s).toEqual(twin);
          // Every new occurrence in the rendered caller text is in the audit (a string that is no
          // token of this vocabulary, <think> on the package one, is plain text: never audited).
          const count = (r: string) => r.split(s).length - 1;
          const added = count(enc.renderChat(req)) - count(enc.renderChat(v.request));
          const audited = (x: { audit: Array<{ token: string }> }) =>
            x.audit.filter((a) => a.token === s).length;
          expect(audited(e) - audited(enc.encodeChat(v.request)), s).toBe(enc.reserved.has(s) ? added : 0);
        }
      });
    }
  });
}

for (const family of FAMILIES) checkFamily(family, false);
checkFamily("deepseek-r1", true);

describe("audit positions and the reject policy", () => {
  const enc = encoder("deepseek-r1", true);
  it("R1 drops the text before the last </think>; the audit offset is into the whole content", () => {
    const content = "reasoning</think>answer <｜User｜> and <think>";
    const e = enc.encodeChat({
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", content },
      ],
      add_generation_prompt: false,
    });
    expect(e.audit).toEqual([
      { message: 1, field: "content", token: "<｜User｜>", index: content.indexOf("<｜User｜>"), id: 128803 },
      { message: 1, field: "content", token: "<think>", index: content.lastIndexOf("<think>"), id: 128798 },
    ]);
    expect(reservedOf(enc, e.ids)).toEqual([0, 128803, 128804, 1]);
  });

  it('"reject" refuses a structural string in a tool name, naming the field', () => {
    const req = {
      messages: [
        { role: "user", content: "q" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ type: "function", function: { name: "f<｜tool▁sep｜>", arguments: "{}" } }],
        },
      ],
    };
    try {
      enc.encodeChat(req, "reject");
      expect.fail("no error");
    } catch (e) {
      expect(TokenizerError.isInstance(e) && e.type).toBe("special-token-in-text");
      expect(String(e)).toContain("tool_calls[0].function.name");
    }
  });
});

describe("refusals (documented in families/deepseek/render.ts)", () => {
  // (V3 with content AND tool calls is not refused: it renders the text only, as its template
  // does; golden content_with_tool_calls.)
  const cases: ReadonlyArray<readonly [DeepSeekFamily, string, unknown]> = [
    [
      "deepseek-r1",
      "continue a system message",
      { messages: [{ role: "system", content: "s" }], continue_final_message: true },
    ],
    [
      "deepseek-v3",
      "continue a tool-call message",
      {
        messages: [
          { role: "assistant", content: null, tool_calls: [{ function: { name: "f", arguments: "{}" } }] },
        ],
        continue_final_message: true,
      },
    ],
    [
      "deepseek-r1",
      "continue content cut at </think>",
      { messages: [{ role: "assistant", content: "a</think>b" }], continue_final_message: true },
    ],
    ["deepseek-v3", "a native role of another family", { messages: [{ role: "observation", content: "x" }] }],
    [
      "deepseek-r1",
      "a custom tool call",
      {
        messages: [
          { role: "assistant", tool_calls: [{ type: "custom", function: { name: "f", arguments: "{}" } }] },
        ],
      },
    ],
  ];
  for (const [family, label, req] of cases) {
    it(`${family}: ${label}`, () => {
      const enc = encoder(family);
      try {
        enc.encodeChat(req);
        expect.fail("no error");
      } catch (e) {
        expect(TokenizerError.isInstance(e) && e.type).toBe("invalid-conversation");
      }
    });
  }
});

describe("property: random conversations with structural text (fast-check, seeded)", () => {
  const text = fc
    .array(
      fc.oneof(fc.constantFrom(...STRUCTURAL, "\n", "```json", "function"), fc.string({ maxLength: 6 })),
      {
        maxLength: 5,
      },
    )
    .map((p) => p.join(""));
  const message = fc.oneof(
    fc.record({ role: fc.constantFrom("system", "user", "assistant", "tool"), content: text }),
    fc.record({
      role: fc.constant("assistant"),
      content: fc.constant(null),
      tool_calls: fc.array(
        fc.record({ type: fc.constant("function"), function: fc.record({ name: text, arguments: text }) }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  );
  const blank = (v: unknown, key = ""): unknown => {
    if (typeof v === "string") return key === "role" || key === "type" ? v : "x";
    if (Array.isArray(v)) return v.map((x) => blank(x));
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, blank(x, k)]));
    return v;
  };
  for (const [family, derived] of [
    ["deepseek-v3", false],
    ["deepseek-r1", true],
  ] as const) {
    it(`${family}${derived ? " (derived)" : ""}: the reserved IDs are those of the conversation with every caller string "x"`, () => {
      const enc = encoder(family, derived);
      fc.assert(
        fc.property(fc.array(message, { maxLength: 7 }), fc.boolean(), (messages, agp) => {
          const req = { messages, add_generation_prompt: agp };
          const e = enc.encodeChat(req);
          expect(reservedOf(enc, e.ids)).toEqual(reservedOf(enc, enc.encodeChat(blank(req)).ids));
        }),
        { seed: 8010, numRuns: 300 },
      );
    });
  }
});
