import type { ChatTokenizer } from "@chatwire/tokenizer";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { harmonyData, haveHarmonySuite } from "../../../test-support/harmony-suite.ts";
import { tokenIds } from "../../../test-support/token-ids.ts";
import { ChatBuilder } from "../../tokenizer/src/chat/builder.ts";
import type { GptOssKey } from "../../tokenizer/src/families/gpt-oss/definition.ts";
import { type HarmonyMessage, renderHarmony } from "../../tokenizer/src/families/gpt-oss/harmony-render.ts";
import {
  compileDecoderSpecFor,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  type DecoderSpec,
  eventCollector,
} from "../src/index.ts";
import { gptOssTokenizer, textOf } from "./models.ts";
import { timeRatio } from "./ratio-support.ts";

interface Parsed {
  role: string;
  channel?: string;
  recipient?: string;
  contentType?: string;
  content: string;
}

/** Messages as harmony's parser reports them, rebuilt from our events. */
function messagesOf(events: readonly DecoderEvent[]): Parsed[] {
  const out: Parsed[] = [];
  let cur: Parsed | undefined;
  for (const e of events) {
    if (e.type === "message_start") {
      cur = { role: e.role, content: "" };
      if (e.channel !== undefined) cur.channel = e.channel;
      if (e.recipient !== undefined) cur.recipient = e.recipient;
      if (e.contentType !== undefined) cur.contentType = e.contentType;
      out.push(cur);
    } else if ((e.type === "text" || e.type === "reasoning" || e.type === "action_text") && cur)
      cur.content += e.text;
    else if (e.type === "message_end") cur = undefined;
  }
  return out;
}

const run = haveHarmonySuite();
let tok: ChatTokenizer;
/** The verified IDs of the loaded files (read after beforeAll loads them). */
const H = tokenIds<GptOssKey>(() => tok);
let spec: DecoderSpec;
let multi: DecoderSpec;

function decode(ids: readonly number[], s: DecoderSpec = spec, options: DecoderOptions = {}): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(s, c, options);
  d.pushMany(ids);
  d.end();
  return c.events;
}

/**
 * Text with reserved tokens written out -> IDs (specials allowed): markers by name, the text
 * between them through the ordinary encoder (token-exact with HF tokenizers on this file:
 * packages/tokenizer/test/gpt-oss-peer.test.ts). Test input only, never a golden.
 */
async function hfIds(text: string): Promise<number[]> {
  const out: number[] = [];
  for (const part of text.split(/(<\|[a-z_0-9]+\|>)/)) {
    if (part === "") continue;
    const id = tok.registry.idByName.get(part);
    if (id !== undefined) out.push(id);
    else out.push(...tok.textModel.encode(part));
  }
  return out;
}

describe.runIf(run)("gpt-oss decoder", () => {
  beforeAll(() => {
    tok = gptOssTokenizer();
    spec = compileDecoderSpecFor(tok);
    // harmony's parse_messages_from_completion_tokens goes on after <|return|> / <|call|>.
    multi = compileDecoderSpecFor(tok, { eosIds: [H.endOfText] });
  });

  describe("openai/harmony parse vectors", () => {
    const ids = (file: string) => harmonyData(file).trim().split(/\s+/).map(Number);

    it("test_simple_reasoning_response.txt", () => {
      expect(messagesOf(decode(ids("test_simple_reasoning_response.txt"), multi))).toEqual([
        {
          role: "assistant",
          channel: "analysis",
          content: 'User asks: "What is 2 + 2?" Simple arithmetic. Provide answer.',
        },
        { role: "assistant", channel: "final", content: "2 + 2 = 4." },
      ]);
    });

    it("test_simple_tool_call.txt (recipient after the channel, bare content type)", () => {
      const events = decode(ids("test_simple_tool_call.txt"), multi);
      expect(messagesOf(events)).toEqual([
        {
          role: "assistant",
          channel: "analysis",
          content: 'User asks: "What is the weather in Tokyo?" We need to use lookup_weather tool.',
        },
        {
          role: "assistant",
          channel: "analysis",
          recipient: "lookup_weather",
          contentType: "code",
          content: '{"location": "Tokyo"}',
        },
      ]);
      expect(events.filter((e) => e.type === "error")).toEqual([]);
    });

    it("test_tool_response_parsing.txt (no preset role: a tool author)", async () => {
      const events = decode(await hfIds(harmonyData("test_tool_response_parsing.txt").trimEnd()));
      expect(messagesOf(events)).toEqual([
        {
          role: "browser.search",
          channel: "commentary",
          recipient: "assistant",
          content: '{"result": "https://openai.com/"}',
        },
      ]);
    });

    it("test_streamable_parser.txt: 3 messages, the browser call as an action", async () => {
      const events = decode(await hfIds(harmonyData("test_streamable_parser.txt").trimEnd()), multi);
      const m = messagesOf(events);
      expect(m.map((x) => [x.role, x.channel, x.recipient, x.contentType])).toEqual([
        ["assistant", "analysis", undefined, undefined],
        ["assistant", "commentary", "browser.search", "code"],
        ["browser.search", "commentary", "assistant", undefined],
      ]);
      expect(
        events.some(
          (e) => e.type === "action_end" && e.kind === "browser.search" && e.call?.arguments.topn === 10,
        ),
      ).toBe(true);
      expect(events.filter((e) => e.type === "error")).toEqual([]);
    });

    it("constrain adjacent to the recipient (harmony's test_streamable_parser_tool_call_with_constrain_adjacent)", async () => {
      const text =
        '<|start|>assistant<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"latitude":48.8566,"longitude":2.3522}<|call|>';
      const c = eventCollector();
      const d = createDecoder(spec, c, { streamToolCalls: true });
      d.pushMany(await hfIds(text));
      d.end();
      expect(messagesOf(c.events)).toEqual([
        {
          role: "assistant",
          channel: "commentary",
          recipient: "functions.get_weather",
          contentType: "<|constrain|>json",
          content: '{"latitude":48.8566,"longitude":2.3522}',
        },
      ]);
      const names = c.events.filter((e) => e.type === "tool_call_name");
      const args = c.events.flatMap((e) => (e.type === "tool_call_arguments" ? [e.text] : []));
      expect(names).toEqual([{ type: "tool_call_name", name: "get_weather" }]);
      expect(args.join("")).toBe('{"latitude":48.8566,"longitude":2.3522}');
      const end = c.events.find((e) => e.type === "action_end");
      expect(end).toMatchObject({
        kind: "tool_call",
        call: { name: "get_weather", arguments: { latitude: 48.8566 } },
      });
      expect(c.events.at(-1)).toEqual({ type: "stop", reason: "eos", token: H.call });
    });
  });

  it("analysis -> reasoning, final -> text, <|return|> stops", async () => {
    const events = decode(
      await hfIds(
        "<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>Hi!<|return|>",
      ),
    );
    expect(textOf(events, "reasoning")).toBe("think");
    expect(textOf(events, "text")).toBe("Hi!");
    expect(events.at(-1)).toEqual({ type: "stop", reason: "eos", token: H.return });
    expect(events.filter((e) => e.type === "error")).toEqual([]);
  });

  it("stop strings: matched across tokens in content, never in headers; held text released at <|end|>", async () => {
    const ids = await hfIds(
      "<|channel|>analysis<|message|>we think STOP? no<|end|><|start|>assistant<|channel|>final<|message|>Hello STOP world<|return|>",
    );
    const events = decode(ids, spec, { stopStrings: ["STOP w", "STOP!"] });
    expect(textOf(events, "reasoning")).toBe("we think STOP? no");
    expect(textOf(events, "text")).toBe("Hello ");
    expect(events.at(-1)).toEqual({ type: "stop", reason: "stop_string", text: "STOP w" });
    const header = decode(await hfIds("<|channel|>final<|message|>x<|return|>"), spec, {
      stopStrings: ["final"],
    });
    expect(header.at(-1)).toEqual({ type: "stop", reason: "eos", token: H.return });
  });

  it("round trip: our rendering of a harmony conversation decodes to its messages", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 4, maxLength: 4 }),
        (s) => {
          const conv: HarmonyMessage[] = [
            { role: "user", index: 0, content: { kind: "text", text: s[0] as string } },
            {
              role: "assistant",
              index: 1,
              channel: "analysis",
              content: { kind: "text", text: s[1] as string },
            },
            {
              role: "assistant",
              index: 1,
              channel: "commentary",
              recipient: "functions.f",
              contentType: "<|constrain|>json",
              content: { kind: "text", text: JSON.stringify({ q: s[2] }) },
            },
            {
              role: "tool",
              index: 2,
              name: "functions.f",
              recipient: "assistant",
              channel: "commentary",
              content: { kind: "text", text: s[3] as string },
            },
          ];
          const b = new ChatBuilder(tok.textModel, tok.scanner, "neutralize");
          renderHarmony(conv, { autoDropAnalysis: true, forCompletion: false }, b, H);
          const events = decode(b.finish().ids, multi);
          expect(messagesOf(events)).toEqual(
            conv.map((m) => ({
              role: m.role === "tool" ? (m.name as string) : m.role,
              ...(m.channel === undefined ? {} : { channel: m.channel }),
              ...(m.recipient === undefined ? {} : { recipient: m.recipient }),
              ...(m.contentType === undefined ? {} : { contentType: m.contentType }),
              content: (m.content as { text: string }).text,
            })),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  describe("hostile input: never throws, one stop, errors not crashes", () => {
    // Every reserved ID of the loaded files (the added tokens), read once they are loaded.
    const reserved = (): number[] => [...tok.registry.ids].sort((a, b) => a - b);

    function checkStream(
      ids: readonly number[],
      s: DecoderSpec,
      options: DecoderOptions = {},
    ): DecoderEvent[] {
      const events = decode(ids, s, options);
      const stops = events.filter((e) => e.type === "stop");
      expect(stops.length).toBe(1);
      expect(events.at(-1)?.type).toBe("stop");
      // Bounded output: at most a few events per input token.
      expect(events.length).toBeLessThanOrEqual(4 * ids.length + 4);
      return events;
    }

    it("random ID sequences (reserved IDs, text, bytes, out of range)", () => {
      const id = fc.oneof(
        fc.constantFrom(...reserved()),
        fc.integer({ min: 0, max: 201_100 }),
        fc.constantFrom(-1, 2 ** 31, 200_019, 316, 28, 220, 9552, 132990),
      );
      fc.assert(
        fc.property(fc.array(id, { maxLength: 60 }), fc.boolean(), (ids, stream) => {
          checkStream(ids, multi, { streamToolCalls: stream, maxBufferedChars: 50 });
          checkStream(ids, spec, { stopStrings: ["a", "to=", "\n\n"], maxTokens: 40 });
          checkStream(ids, spec);
        }),
        { numRuns: 400 },
      );
    });

    it("every reserved ID at every position of a valid generation", async () => {
      const base = await hfIds(
        '<|channel|>analysis<|message|>a b<|end|><|start|>assistant to=functions.f<|channel|>commentary <|constrain|>json<|message|>{"x": 1}<|call|>',
      );
      for (let p = 0; p <= base.length; p++)
        for (const r of reserved()) checkStream([...base.slice(0, p), r, ...base.slice(p)], multi);
    });

    it("garbage headers: error events, recovery at the next <|start|> (no 'tokens remaining in header' crash)", async () => {
      const events = checkStream(
        await hfIds(
          "<|channel|>final extra junk here<|constrain|><|channel|><|message|>x<|end|>junk<|return|><|start|>assistant<|channel|>weird<|message|>y<|end|><|start|>assistant<|channel|>final<|message|>ok<|return|>",
        ),
        multi,
      );
      const codes = events.flatMap((e) => (e.type === "error" ? [e.code] : []));
      expect(codes).toContain("invalid-header");
      expect(codes).toContain("text-outside-message");
      expect(codes).toContain("unexpected-reserved-token");
      expect(codes).toContain("unknown-channel");
      expect(messagesOf(events).map((m) => m.content)).toEqual(["x", "y", "ok"]);
    });

    const callOf = async (content: string, name = "get_weather", options: DecoderOptions = {}) => {
      const events = checkStream(
        await hfIds(
          `<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${content}<|call|>`,
        ),
        spec,
        { streamToolCalls: true, ...options },
      );
      const streamed = events.flatMap((e) => (e.type === "tool_call_arguments" ? [e.text] : [])).join("");
      const end = events.find((e) => e.type === "action_end") as { call?: unknown; error?: string };
      return { end, streamed };
    };

    it("call arguments: a JSON object with JSON's whitespace around it; the streamed deltas never hold more", async () => {
      for (const ws of [" ", "\n", "\t", "\r\n "]) {
        const { end, streamed } = await callOf(`${ws}{"city": "Paris"}${ws}`);
        expect(end.call).toEqual({ name: "get_weather", arguments: { city: "Paris" } });
        expect(JSON.parse(streamed)).toEqual({ city: "Paris" });
      }
      // Not JSON's whitespace, or text after the object: no call, and what was streamed never
      // holds the offending text (a client's partial-JSON parser only ever sees an object's prefix).
      for (const content of [
        '\u00a0{"city": "Paris"}\u00a0',
        '\u2028{"city": "Paris"}',
        '\u3000{"city": "Paris"}',
        '\ufeff{"city": "Paris"}',
        '{"city": "Paris"} trailing text',
        '{"city": "Paris"}}',
      ]) {
        const { end, streamed } = await callOf(content);
        expect(end.call, JSON.stringify(content)).toBeUndefined();
        expect(end.error, JSON.stringify(content)).toBeTypeOf("string");
        expect(streamed === "" || '{"city": "Paris"}'.startsWith(streamed), JSON.stringify(streamed)).toBe(
          true,
        );
      }
    });

    it("call names: an empty one is an error; given the request's tools, an unknown one is an error", async () => {
      const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }];
      const ok = await callOf('{"city": "Paris"}', "get_weather", { tools });
      expect(ok.end.call).toEqual({ name: "get_weather", arguments: { city: "Paris" } });
      const unknown = await callOf('{"city": "Paris"}', "nope", { tools });
      expect(unknown.end.call).toBeUndefined();
      expect(unknown.end.error).toContain('"nope"');
      // Without the request's tools any name is taken.
      expect((await callOf('{"x": 1}', "nope")).end.call).toEqual({ name: "nope", arguments: { x: 1 } });
      const empty = await callOf('{"city": "Paris"}', "");
      expect(empty.end.call).toBeUndefined();
      expect(empty.end.error).toBe("the tool call has no name");
    });

    it("a stop token inside a header, a truncated header", async () => {
      const a = checkStream(await hfIds("<|channel|>fin<|return|>"), spec);
      expect(a.some((e) => e.type === "error" && e.code === "invalid-header")).toBe(true);
      const b = checkStream(await hfIds("<|channel|>final to=func"), spec);
      expect(b.some((e) => e.type === "error" && e.code === "invalid-header")).toBe(true);
      expect(b.at(-1)).toEqual({ type: "stop", reason: "end_of_input" });
    });

    it("a header that never ends is bounded (maxBufferedChars), then skipped to the next <|start|>", async () => {
      const junk = await hfIds(" to".repeat(200));
      const tail = await hfIds("<|start|>assistant<|channel|>final<|message|>ok<|return|>");
      const events = checkStream([...junk, ...tail], spec, { maxBufferedChars: 100 });
      expect(events.filter((e) => e.type === "error").map((e) => (e as { code: string }).code)).toEqual([
        "buffer-overflow",
      ]);
      expect(messagesOf(events)).toEqual([{ role: "assistant", channel: "final", content: "ok" }]);
    });

    it("per-token cost: a 100k-token header is not slower per token than 100k tokens of content (ratio)", async () => {
      const word = (await hfIds(" to"))[0] as number;
      const head = await hfIds("<|channel|>final<|message|>");
      const header = new Array<number>(100_000).fill(word);
      const content = [...head, ...new Array<number>(100_000 - head.length).fill(word)];
      const r = timeRatio(
        () => decode(header, spec, { maxBufferedChars: 10_000_000 }),
        () => decode(content, spec),
      );
      // Idle this reads about 0.25; a header buffered at quadratic cost reads thousands. The bound
      // leaves room for a major GC of a busy worker's heap landing in the hostile runs.
      expect(r).toBeLessThan(50);
    });
  });
});
