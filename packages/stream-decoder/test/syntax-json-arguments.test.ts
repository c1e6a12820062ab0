// The "json-arguments" body syntax (Functionary v3.2's `>>>NAME\n{json}`: the action kind is the
// tool's name, read from the recipient line, and the body its JSON arguments). The reference is
// the generated call (JSON.parse of JSON.stringify of its arguments): any chunking, streamed or
// not, gives that call, the name is reported at once, the deltas concatenate to the arguments;
// garbage never throws and is chunk-invariant. Through the decoder: the recipient lines of the
// Functionary v3.2 template (its `>>>` a text marker starting the next message, `all` content).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BodyParser } from "../src/syntax/body.ts";
import {
  bodyParser,
  cutAt,
  cutsArb,
  drivePieces,
  expectChunkInvariant,
  expectJsonCallRoundTrip,
  jsonArgsArb,
} from "./body-support.ts";
import {
  agreedCalls,
  burstsArb,
  decodeIds,
  expectStreamedCalls,
  haveTemplate,
  loadEntry,
  message,
} from "./derived-format-support.ts";
import { mergedAll } from "./grammar-support.ts";

const parser = (max?: number): BodyParser => bodyParser("json-arguments", max);

/** The body fed in chunks after a header naming `kind`. */
const drive = (p: BodyParser, kind: string, chunks: readonly string[], streamed: boolean) =>
  drivePieces(p, chunks, streamed, { kind });
const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/);
const args = jsonArgsArb;

describe("json-arguments: the kind names the tool, the body is {json}, any chunking", () => {
  it("round trip (the generated call is the reference)", () => {
    const trail = fc.constantFrom("", "\n", " \n");
    expectJsonCallRoundTrip(parser, name, trail, (_, json, t) => `${json}${t}`, true);
  });

  it("the peer's case and malformed bodies", () => {
    for (const streamed of [false, true]) {
      expect(drive(parser(), "special_function", ['{"arg1": 1}'], streamed).result).toEqual({
        call: { name: "special_function", arguments: { arg1: 1 } },
      });
      expect(drive(parser(), "", ["{}"], streamed).result).toEqual({ error: "the tool call has no name" });
      expect(drive(parser(), "f", ["[1]"], streamed).result).toEqual({
        error: "the tool call's arguments are not a JSON object",
      });
      expect("error" in drive(parser(), "f", ["{"], streamed).result).toBe(true);
      expect("error" in drive(parser(), "python", ["print(1)"], streamed).result).toBe(true);
    }
    const tools = new Map([["f", {}]]);
    const known = (kind: string) => {
      const p = parser();
      p.reset(null, tools, kind);
      p.feed("{}");
      return p.end("{}");
    };
    expect(known("f")).toEqual({ call: { name: "f", arguments: {} } });
    expect(known("g")).toEqual({ error: 'the call names a tool the request does not give: "g"' });
    expect(drive(parser(10), "f", ['{"k": "long value"}'], true).result).toEqual({
      error: "the tool call body is longer than 10 characters",
    });
  });

  it("garbage never throws and is chunk-invariant", () => {
    const unit = fc.constantFrom(...'{}[]":,>\\ \nab01'.split(""));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), cutsArb, fc.boolean(), (units, cuts, streamed) => {
        expectChunkInvariant(parser, [units.join("")], cuts, streamed, { kind: "f" });
      }),
      { numRuns: 400 },
    );
  });
});

const V32 = "models/templates/meetkai-functionary-medium-v3.2.jinja";

describe.skipIf(!haveTemplate(V32))(
  "json-arguments through the decoder (Functionary v3.2 recipient lines)",
  () => {
    // Content that ends in ">" runs into the next `>>>` (the first three ">" are the mark): not generated.
    const content = fc.constantFrom("Hello.", "1 > 0 and 2 >> 1.", "Two\nlines >> x", "");

    it("content and calls as messages one after another; bursts and the reference path agree", () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.oneof(
              content.map((c) => ({ c })),
              fc.tuple(name, args),
            ),
            { minLength: 1, maxLength: 4 },
          ),
          burstsArb,
          (messages, bursts) => {
            // The generation prompt wrote the first `>>>`: the output starts with a recipient line.
            const output = `${messages
              .map((m) => ("c" in m ? `all\n${m.c}` : `${m[0]}\n${JSON.stringify(m[1])}`))
              .join(">>>")}<|eot_id|>`;
            const expected = messages.flatMap((x) =>
              "c" in x ? [] : [{ name: x[0], arguments: JSON.parse(JSON.stringify(x[1])) as unknown }],
            );
            const names = expected.map((c) => c.name);
            const m = agreedCalls(V32, output, names, bursts);
            expect(m.content).toBe(messages.map((x) => ("c" in x ? x.c : "")).join(""));
            expectStreamedCalls(m, expected);
          },
        ),
        { numRuns: 40 },
      );
    });

    it("other tokenizations of the same text (cut anywhere, marks split) give the same events", () => {
      const { tok, encode } = loadEntry(V32);
      const text = 'all\nChecking >> now.>>>f\n{"city": "Paris >> Rome"}>>>all\nDone.';
      const eot = encode("<|eot_id|>");
      const whole = decodeIds(V32, [...encode(text), ...eot], "one");
      expect(message(whole).calls).toEqual([{ name: "f", arguments: { city: "Paris >> Rome" } }]);
      fc.assert(
        fc.property(cutsArb, (cuts) => {
          const ids = [...cutAt(text, cuts).flatMap((p) => tok.textModel.encode(p)), ...eot];
          expect(mergedAll(decodeIds(V32, ids, "one"))).toEqual(mergedAll(whole));
          expect(mergedAll(decodeIds(V32, ids, "reference"))).toEqual(mergedAll(whole));
        }),
        { numRuns: 100 },
      );
    });

    // llama.cpp's other parse cases of this format (tests/test-chat.cpp, a later revision than
    // test-vectors/peer-parse): content lines then a call, trailing whitespace, python code.
    it("reads the peer's other cases", () => {
      const read = (text: string) => message(decodeIds(V32, loadEntry(V32).encode(text), "one"));
      expect(read('all\nHello, world!\nnono\nWhat\'s up?>>>special_function\n{"arg1": 1}\n')).toMatchObject({
        content: "Hello, world!\nnono\nWhat's up?",
        calls: [{ name: "special_function", arguments: { arg1: 1 } }],
        errors: [],
      });
      expect(read('special_function\n{"arg1": 1} \n                    ')).toMatchObject({
        content: "",
        calls: [{ name: "special_function", arguments: { arg1: 1 } }],
        errors: [],
      });
      expect(read("python\n# This is a program:\nprint('hey')")).toMatchObject({
        content: "",
        calls: [{ name: "python", arguments: { code: "# This is a program:\nprint('hey')" } }],
        errors: [],
      });
    });

    it("each recipient line starts a message; text without one is content", () => {
      const events = decodeIds(V32, loadEntry(V32).encode('all\nOn it.>>>f\n{"a": 1}<|eot_id|>'), "one");
      expect(events.filter((e) => e.type === "message_start")).toEqual([
        { type: "message_start", role: "assistant", metadata: "all" },
        { type: "message_start", role: "assistant", metadata: "f" },
      ]);
      expect(message(decodeIds(V32, loadEntry(V32).encode("Hello<|eot_id|>"), "one")).content).toBe("Hello");
    });
  },
);
