// Origins.top(origin) is handed down while caller JSON becomes values (no path string is read);
// it must stay what it is defined as: the first segment (up to "[" or ".") of the origin's
// field as get() reports it, "content" when that segment is empty. Checked over random caller
// JSON whose keys hold "." / "[" / "" / " (key)", at the root (a message dict) and below.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Origins } from "../src/jinja/origins.ts";
import { PDict } from "../src/jinja/values.ts";

/** The definition (what Origins.top computed from the field before it was handed down). */
function topByDefinition(field: string): string {
  const cut = field.search(/[[.]/);
  const top = cut < 0 ? field : field.slice(0, cut);
  return top === "" ? "content" : top;
}

const key = fc.oneof(
  fc.constantFrom("", ".", "[", "a.b", "x[0]", "role", "content", " (key)", ".lead", "[0]"),
  fc.string({ maxLength: 6 }),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 4 }),
    fc.integer(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(key, tie("value"), { maxKeys: 3 }),
  ),
})).value;

function checkAll(o: Origins): number {
  let n = 0;
  for (let origin = 1; ; origin++) {
    const f = o.get(origin);
    if (f.field === "template" && f.message === null) break;
    expect(o.top(origin), `origin ${origin} field ${JSON.stringify(f.field)}`).toBe(topByDefinition(f.field));
    n++;
  }
  return n;
}

describe("Origins.top", () => {
  it("equals the first segment of the field path, below a named field", () => {
    fc.assert(
      fc.property(
        json,
        fc.constantFrom("tools", "content", "chat_template_kwargs.x", "content[1].text"),
        (v, f) => {
          const o = new Origins();
          o.value(v, 0, f);
          checkAll(o);
        },
      ),
    );
  });

  it("equals the first segment of the field path, at a message's root (keys read off the key)", () => {
    fc.assert(
      fc.property(fc.dictionary(key, json, { maxKeys: 4 }), (m) => {
        const o = new Origins();
        const d = new PDict();
        for (const [k, x] of Object.entries(m)) o.entry(d, k, x, 3, "", 0);
        checkAll(o);
      }),
    );
  });

  it("covers root keys with separators (the cases handed down differently)", () => {
    const o = new Origins();
    const d = new PDict();
    for (const k of ["a.b", "x[0]", "", ".", "plain"]) o.entry(d, k, { "c.d": ["s", { e: "t" }] }, 0, "", 0);
    expect(checkAll(o)).toBeGreaterThan(20);
  });
});
