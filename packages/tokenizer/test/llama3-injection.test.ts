// The security rule for the Llama 3.x definitions, as properties over every caller field the
// templates render (system/user/assistant content, the first user message that receives the
// tools, tool definitions, tool-call name and arguments (object and JSON-string, keys and
// values), tool and ipython results, chat_template_kwargs.date_string) plus the ones they do
// not render (participant name, tool_call id), with caller strings built from EVERY added-token
// string of the Llama 3.0 vocabulary and of the derived 3.1 one (<|python_tag|>, <|eom_id|>,
// <|finetune_right_pad_id|> included), their fragments and random text, on both vocabularies:
//   1. caller-field spans hold no reserved ID;
//   2. the reserved IDs of the encoding are exactly those of the same request with benign text;
//   3. the audit reports a reserved string iff a rendered caller string holds one, and the
//      "reject" policy refuses exactly then;
//   4. the IDs decode to the text rendering (the same rendering in both views).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/index.ts";
import { decodeShow, encode, type FamilyName, renderText, type VocabName, vocab } from "./llama3-support.ts";

const SLOTS = 12;
const CALLER_FIELDS = new Set(["content", "name", "tools", "tool_calls", "chat_template_kwargs"]);

/** A request holding SLOTS caller strings; `unrendered` = the slots the template never writes. */
function fill(family: FamilyName, s: readonly string[], inUser: boolean): unknown {
  const at = (k: number): string => s[k] ?? "";
  if (family === "llama3")
    return {
      messages: [
        { role: "system", content: at(0) },
        { role: "user", name: at(1), content: [{ type: "text", text: at(2) }] },
        { role: "assistant", content: at(3) },
        { role: "tool", tool_call_id: at(4), content: at(5) },
        { role: "ipython", content: at(6) },
        { role: "user", content: at(7) },
        { role: "assistant", content: `a${at(8)}` },
      ],
      continue_final_message: true,
    };
  return {
    messages: [
      { role: "developer", content: [{ type: "text", text: at(0) }] },
      { role: "user", name: at(1), content: at(2) },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: at(4), type: "function", function: { name: at(3), arguments: { [at(5)]: at(6), n: 1 } } },
        ],
      },
      { role: "tool", tool_call_id: at(4), content: at(7) },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { type: "function", function: { name: "f", arguments: JSON.stringify({ k: at(8), [at(5)]: 2 }) } },
        ],
      },
      { role: "ipython", content: [{ type: "text", text: at(9) }] },
      { role: "assistant", content: `a${at(10)}` },
    ],
    tools: [
      { type: "function", function: { name: at(3), description: at(11), parameters: { [at(5)]: at(6) } } },
    ],
    chat_template_kwargs: { date_string: at(10), tools_in_user_message: inUser },
    continue_final_message: true,
  };
}

const UNRENDERED: Record<FamilyName, ReadonlySet<number>> = {
  llama3: new Set([1, 4, 9, 10, 11]),
  llama31: new Set([1, 4]),
};

const VOCABS: VocabName[] = ["3.0", "3.1-derived"];
const every = [...new Set([...vocab("3.0").reserved.keys(), ...vocab("3.1-derived").reserved.keys()])];

function adversarial(): fc.Arbitrary<string> {
  const piece = fc.constantFrom(...every);
  const cut = (from: boolean) =>
    piece.chain((s) =>
      fc.integer({ min: 1, max: s.length - 1 }).map((k) => (from ? s.slice(k) : s.slice(0, k))),
    );
  const bits = fc.oneof(
    { weight: 4, arbitrary: piece },
    { weight: 1, arbitrary: cut(false) },
    { weight: 1, arbitrary: cut(true) },
    { weight: 2, arbitrary: fc.string({ maxLength: 4, unit: "grapheme" }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "\n\n",
        " ",
        "\u3000",
        '"',
        "\\",
        "\t",
        "<|",
        "|>",
        "你好",
        "😀",
        "assistant",
        "ipython",
      ),
    },
  );
  return fc.array(bits, { maxLength: 6 }).map((a) => a.join(""));
}

const benign = (strings: readonly string[]) => strings.map((x) => (x.length > 0 ? "x" : ""));

describe.each(["llama3", "llama31"] as const)("%s: caller fields never yield a reserved ID", (family) => {
  describe.each(VOCABS)("vocabulary %s", (vname) => {
    const v = vocab(vname);
    const reservedOf = (ids: readonly number[]) => ids.filter((id) => v.names.has(id));

    it("property: spans, reserved-ID sequence, audit, reject policy, both views", () => {
      fc.assert(
        fc.property(
          fc.array(adversarial(), { minLength: SLOTS, maxLength: SLOTS }),
          fc.boolean(),
          (strings, inUser) => {
            const req = fill(family, strings, inUser);
            const enc = encode(family, v, req);
            for (const s of enc.spans) {
              if (!CALLER_FIELDS.has(s.field)) continue;
              for (const id of enc.ids.slice(s.start, s.end)) expect(v.names.has(id)).toBe(false);
            }
            expect(reservedOf(enc.ids)).toEqual(
              reservedOf(encode(family, v, fill(family, benign(strings), inUser)).ids),
            );
            const unrendered = UNRENDERED[family];
            const expected = strings.some((x, k) => !unrendered.has(k) && v.scanner.first(x) !== undefined);
            expect(enc.audit.length > 0, JSON.stringify(strings)).toBe(expected);
            let refused = false;
            try {
              encode(family, v, req, "reject");
            } catch (e) {
              if (!TokenizerError.isInstance(e)) throw e;
              refused = true;
            }
            expect(refused).toBe(expected);
            expect(decodeShow(v, enc.ids)).toBe(renderText(family, v, req));
          },
        ),
        { numRuns: 150, seed: 3108 },
      );
    });

    it("every added-token string of either vocabulary alone, in every slot", () => {
      const want = reservedOf(
        encode(
          family,
          v,
          fill(
            family,
            Array.from({ length: SLOTS }, () => "x"),
            true,
          ),
        ).ids,
      );
      for (const sp of every) {
        const enc = encode(
          family,
          v,
          fill(
            family,
            Array.from({ length: SLOTS }, () => sp),
            true,
          ),
        );
        expect(reservedOf(enc.ids), sp).toEqual(want);
        expect(enc.audit.length > 0, sp).toBe(v.reserved.has(sp));
      }
    });
  });
});
