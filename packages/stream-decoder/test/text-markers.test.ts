// Text markers (Grammar.textMarkers, docs/decoder.md "Text markers"): literal strings the model
// writes as ordinary text that make a marker move where that move is valid. Expected events are
// written by hand from the rules; the engine is compared with the reference decoder and with
// itself under every chunking (IDs one at a time, bursts, the text cut into tokens anywhere,
// markers spelled through byte pieces).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createDecoder,
  createReferenceDecoder,
  type DecoderEvent,
  type DecoderOptions,
  eventCollector,
} from "../src/index.ts";
import { calledAction } from "./expected-events.ts";
import {
  mergedAll,
  type SyntheticFamily,
  TEXT_CALL_GRAMMAR,
  TEXT_CALL_SAMPLES,
  TEXT_CONTAINER_GRAMMAR,
  TEXT_CONTAINER_SAMPLES,
  textMarkerFamily,
} from "./grammar-support.ts";
import { textOf } from "./models.ts";
import { eventsInBursts, type MakeDecoder } from "./push-bursts.ts";
import { decodeText, encCut } from "./text-marker-support.ts";

const callFam = textMarkerFamily(TEXT_CALL_GRAMMAR);
const boxFam = textMarkerFamily(TEXT_CONTAINER_GRAMMAR);

function run(
  make: MakeDecoder,
  fam: SyntheticFamily,
  ids: readonly number[],
  options: DecoderOptions = {},
  sizes: readonly number[] = [1],
): DecoderEvent[] {
  return eventsInBursts(make, fam.spec, ids, options, sizes);
}

const START = { type: "message_start", role: "assistant", metadata: "" } as const;
const END = [{ type: "message_end" }, { type: "stop", reason: "eos", token: 0 }] as const;
const end = (fam: SyntheticFamily) => [END[0], { ...END[1], token: fam.id.eos }];

describe("text markers: moves where they are valid", () => {
  it("a call block opened and closed by text markers; the template's newline before it dropped", () => {
    const json = '{"name": "get_weather", "arguments": {"city": "Paris"}}';
    const events = decodeText(callFam, `Hello\n<｜DSML｜call>\n${json}\n</｜DSML｜call> after`);
    expect(events).toEqual([
      START,
      { type: "text", text: "Hello" },
      { type: "action_start", kind: "tool_call" },
      // An action's text is its body as written (no newline rule inside, as with reserved markers).
      { type: "action_text", text: `\n${json}\n` },
      {
        type: "action_end",
        kind: "tool_call",
        raw: `\n${json}\n`,
        call: { name: "get_weather", arguments: { city: "Paris" } },
      },
      { type: "text", text: " after" },
      ...end(callFam),
    ]);
    // Streamed: the name, then the arguments, as with a reserved open marker.
    const streamed = decodeText(callFam, `<｜DSML｜call>${json}</｜DSML｜call>`, { streamToolCalls: true });
    expect(streamed.filter((e) => e.type === "tool_call_name")).toEqual([
      { type: "tool_call_name", name: "get_weather" },
    ]);
    expect(textOf(streamed, "tool_call_arguments")).toBe('{"city": "Paris"}');
  });

  it("only the block's own close is a marker in reasoning; a call's open there is reasoning text", () => {
    const events = decodeText(
      callFam,
      "<think>\nHmm <｜DSML｜call> is text here\n\n</think>\n\nok <think> again",
    );
    expect(events).toEqual([
      START,
      { type: "reasoning", text: "Hmm <｜DSML｜call> is text here" },
      // "<think>" opens only in content; after the close "\n\n" is the template's.
      { type: "text", text: "ok " },
      { type: "reasoning", text: " again" },
      ...end(callFam),
    ]);
  });

  it("a marker that is not valid where it is written is text (a close in content, a separator outside its block)", () => {
    expect(decodeText(callFam, "a </｜DSML｜call> b </think>")).toEqual([
      START,
      { type: "text", text: "a </｜DSML｜call> b </think>" },
      ...end(callFam),
    ]);
    expect(decodeText(boxFam, "x |ARGS| </call> </calls> |A| y")).toEqual([
      START,
      { type: "text", text: "x |ARGS| </call> </calls> |A| y" },
      ...end(boxFam),
    ]);
  });

  it("a container whose children are text-marked; the separator is the body's", () => {
    const events = decodeText(
      boxFam,
      'Hi <calls><call>get_weather|ARGS|{"city": "Paris"}</call>\n<call>get_time|ARGS|{}</call></calls> done',
    );
    expect(events).toEqual([
      START,
      { type: "text", text: "Hi " },
      ...calledAction("tool_call", 'get_weather{"city": "Paris"}', {
        name: "get_weather",
        arguments: { city: "Paris" },
      }),
      ...calledAction("tool_call", "get_time{}", { name: "get_time", arguments: {} }),
      { type: "text", text: " done" },
      ...end(boxFam),
    ]);
  });

  it("text between a container's children is an error; a child's open is text outside the container", () => {
    const events = decodeText(boxFam, "<call>x</call><calls> oops <call>f|ARGS|{}</call></calls>");
    // One error per piece of text (whitespace is dropped: the templates write it between blocks).
    const oops = [..."oops"].map((c) => ({
      type: "error",
      code: "text-outside-block",
      message: `text between the blocks of "calls": "${c}"`,
    }));
    expect(events).toEqual([
      START,
      { type: "text", text: "<call>x</call>" },
      ...oops,
      ...calledAction("tool_call", "f{}", { name: "f", arguments: {} }),
      ...end(boxFam),
    ]);
  });

  it("a block that reopens at its own text marker: each call ends at the next one", () => {
    const events = decodeText(boxFam, '>>>get_weather|A|{"city": "Paris"}>>>get_time|A|{}');
    expect(events.filter((e) => e.type === "action_end")).toEqual([
      {
        type: "action_end",
        kind: "tool_call",
        raw: 'get_weather{"city": "Paris"}',
        call: { name: "get_weather", arguments: { city: "Paris" } },
      },
      { type: "action_end", kind: "tool_call", raw: "get_time{}", call: { name: "get_time", arguments: {} } },
    ]);
  });
});

/**
 * Events with each action's body deltas gathered (its text, streamed name and arguments: other
 * tokens cut them elsewhere) and adjacent text / reasoning merged.
 */
function bodies(events: readonly DecoderEvent[]): unknown[] {
  const out: unknown[] = [];
  let body: { text: string; names: string[]; args: string } | null = null;
  for (const e of mergedAll(events)) {
    if (e.type === "action_text" || e.type === "tool_call_name" || e.type === "tool_call_arguments") {
      if (body === null) {
        body = { text: "", names: [], args: "" };
        out.push(body);
      }
      if (e.type === "action_text") body.text += e.text;
      else if (e.type === "tool_call_name") body.names.push(e.name);
      else body.args += e.text;
    } else {
      body = null;
      out.push(e);
    }
  }
  return out;
}

describe("text markers: streaming", () => {
  /** The events after each pushed ID. */
  function progress(fam: SyntheticFamily, ids: readonly number[]): DecoderEvent[][] {
    const c = eventCollector();
    const d = createDecoder(fam.spec, c, {});
    const out: DecoderEvent[][] = [];
    for (const id of ids) {
      d.push(id);
      out.push([...c.events]);
    }
    return out;
  }

  it("text that may still become a marker is held, and released at the unit that rules it out", () => {
    // "a", "b", "<", the 3 bytes of "｜" (text only when complete), "DSML", then "x".
    const ids = [...callFam.enc("ab<"), ...callFam.enc("｜"), ...callFam.enc("DSML"), ...callFam.enc("x")];
    expect(ids.length).toBe(8);
    const seen = progress(callFam, ids).map((evs) => textOf(evs));
    expect(seen).toEqual(["a", "ab", "ab", "ab", "ab", "ab", "ab", "ab<｜DSMLx"]);
  });

  it("after each ID, all the text is out but its longest end that may still become a marker", () => {
    // Content of the container grammar: its markers there are "<calls>" and ">>>"; these pieces
    // never complete one ("<calls" and "<ca" are held until the next piece rules them out).
    const pieces = ["<", "<ca", "ll", "<cal", "x", "ls", "s", "<calls"];
    const held = (t: string): number => {
      let k = 0;
      for (const m of ["<calls>", ">>>"])
        for (let n = Math.min(m.length - 1, t.length); n > k; n--)
          if (m.startsWith(t.slice(t.length - n))) {
            k = n;
            break;
          }
      return k;
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const c = eventCollector();
        const d = createDecoder(boxFam.spec, c, {});
        let input = "";
        for (const part of parts) {
          for (const id of boxFam.enc(part)) d.push(id);
          input += part;
          const out = c.events.map((e) => (e.type === "text" ? e.text : "")).join("");
          expect(out).toBe(input.slice(0, input.length - held(input)));
          expect(input.length - out.length).toBeLessThan("<calls>".length);
        }
      }),
      { seed: 3702, numRuns: 200 },
    );
  });

  it("a marker cut anywhere, spelled through byte pieces or glued to text, gives the same events", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          ...TEXT_CALL_SAMPLES.map((t) => [callFam, t] as const),
          ...TEXT_CONTAINER_SAMPLES.map((t) => [boxFam, t] as const),
        ),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        ([fam, text], cuts, sizes, stream) => {
          const options: DecoderOptions = stream ? { streamToolCalls: true } : {};
          const whole = bodies(run(createDecoder, fam, [...fam.enc(text), fam.id.eos as number], options));
          const ids = [...encCut(fam, text, cuts), fam.id.eos as number];
          const events = run(createDecoder, fam, ids, options, sizes);
          expect(bodies(events)).toEqual(whole);
          expect(run(createReferenceDecoder, fam, ids, options, sizes)).toEqual(events);
          for (const e of events)
            if (e.type === "text" || e.type === "reasoning" || e.type === "action_text")
              expect(e.text).not.toMatch(/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]|\uFFFD/);
        },
      ),
      { seed: 3701, numRuns: 300 },
    );
  });
});

describe("text markers and a plain-text call", () => {
  it("text that starts a plain-text call moves the decoder: a marker after it is read there (as text)", () => {
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    const events = decodeText(callFam, '{"name": "f", "arguments": {}}<｜DSML｜call>x', { tools });
    expect(events).toEqual([
      START,
      { type: "action_start", kind: "tool_call" },
      { type: "action_text", text: '{"name": "f", "arguments": {}}<｜DSML｜call>x' },
      {
        type: "action_end",
        kind: "tool_call",
        raw: '{"name": "f", "arguments": {}}<｜DSML｜call>x',
        error: expect.any(String),
      },
      ...end(callFam),
    ]);
    // Without tools the same text is content, and the marker opens the call block.
    expect(decodeText(callFam, '{"a": 1}<｜DSML｜call>x').filter((e) => e.type === "action_start")).toEqual([
      { type: "action_start", kind: "tool_call" },
    ]);
  });
});

describe("text markers and stop strings", () => {
  it("a stop string in the text before a marker stops there; one inside a marker's text never matches it", () => {
    const text = 'Hello\n<｜DSML｜call>\n{"name": "f", "arguments": {}}\n</｜DSML｜call>';
    expect(decodeText(callFam, text, { stopStrings: ["llo"] })).toEqual([
      START,
      { type: "text", text: "He" },
      { type: "stop", reason: "stop_string", text: "llo" },
    ]);
    // "DSML" is only ever marker text here: the call is decoded and nothing stops.
    const events = decodeText(callFam, text, { stopStrings: ["DSML"] });
    expect(events.find((e) => e.type === "action_end")).toMatchObject({ call: { name: "f", arguments: {} } });
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
  });

  it("held text that is not a marker goes through the stop strings like any text (never leaks)", () => {
    expect(decodeText(callFam, "a <｜DSML｜caX b", { stopStrings: ["｜ca"] })).toEqual([
      START,
      { type: "text", text: "a <｜DSML" },
      { type: "stop", reason: "stop_string", text: "｜ca" },
    ]);
    // Held at the end of the stream: flushed as text, stop strings apply.
    expect(decodeText(callFam, "a <｜DSML｜ca", { stopStrings: ["L｜c"] })).toEqual([
      START,
      { type: "text", text: "a <｜DSM" },
      { type: "stop", reason: "stop_string", text: "L｜c" },
    ]);
  });

  it("a stop inside a text-marked call ends it with an error and its raw text", () => {
    const events = decodeText(
      callFam,
      '<｜DSML｜call>{"name": "f", "arguments": {"a": "STOP"}}</｜DSML｜call>',
      {
        stopStrings: ["STOP"],
      },
    );
    expect(events.filter((e) => e.type === "action_end")).toEqual([
      {
        type: "action_end",
        kind: "tool_call",
        raw: '{"name": "f", "arguments": {"a": "',
        error: expect.any(String),
      },
    ]);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "stop_string", text: "STOP" });
  });
});

describe("text markers: the compiler", () => {
  const compile = (textMarkers: Record<string, unknown>) => () =>
    textMarkerFamily({ ...TEXT_CALL_GRAMMAR, textMarkers } as typeof TEXT_CALL_GRAMMAR);
  it("rejects markers it cannot read, with a TypeError", () => {
    expect(compile({ "": { move: "block-open", block: "call" } })).toThrow(TypeError);
    expect(compile({ "a\uFFFD": { move: "block-open", block: "call" } })).toThrow(TypeError);
    expect(compile({ "a\uD800": { move: "block-open", block: "call" } })).toThrow(TypeError);
    expect(compile({ "<x>": { move: "message-end" } })).toThrow(/cannot be text/);
    expect(compile({ "<x>": { move: "block-open", block: "nope" } })).toThrow(/unknown block/);
    expect(compile({ "<｜x>": { move: "block-open", block: "call" } })).not.toThrow();
  });
});
