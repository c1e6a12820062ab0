// Engine features of the grammar data that the new families use, on SYNTHETIC grammars and a
// synthetic text model (./synthetic.ts), so they are tested before (and independently of) the
// family definitions: header "pair" with dropAfter, "role" moves with header "none",
// container blocks with separators, plainTextToolCall (only with DecoderOptions.tools), body
// syntax dispatch. Expected events are written from the grammar's rules, not from the output.
import type { Grammar } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import type { DecoderOptions } from "../src/index.ts";
import { calledAction, textMessage } from "./expected-events.ts";
import {
  mergedAll,
  PAIR_GRAMMAR,
  PAIR_KEYS,
  ROLE_KEYS,
  roleGrammar,
  syntheticFamily,
} from "./grammar-support.ts";
import { run } from "./models.ts";

const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }];
const CALL = '{"name": "get_weather", "parameters": {"city": "Paris"}}';

describe('header "pair" with dropAfter', () => {
  const f = syntheticFamily(PAIR_GRAMMAR, PAIR_KEYS, ["eot", "endOfText"]);
  const { id } = f;

  it("the prompt ended with the header: content, then <eot> ends and stops", () => {
    const ev = mergedAll(run(f.spec, [...f.enc("Hello world"), id.eot as number]));
    expect(ev).toEqual([
      ...textMessage("assistant", "Hello world"),
      { type: "stop", reason: "eos", token: id.eot },
    ]);
  });

  it("ROLE between the markers; the template's \\n\\n after the header is dropped, more is text", () => {
    const f = syntheticFamily(PAIR_GRAMMAR, PAIR_KEYS, []);
    const { id } = f;
    const ids = [
      ...f.enc("Hello"),
      id.eot as number,
      id.startHeader as number,
      ...f.enc("user"),
      id.endHeader as number,
      ...f.enc("\n\n\nHello"),
      id.eom as number,
    ];
    const ev = mergedAll(run(f.spec, ids));
    expect(ev).toEqual([
      ...textMessage("assistant", "Hello"),
      ...textMessage("user", "\nHello"),
      { type: "stop", reason: "end_of_input" },
    ]);
  });

  it("a header-end marker outside a pair header is misplaced; a stop inside the header still opens the message", () => {
    const ev = mergedAll(run(f.spec, [id.endHeader as number, ...f.enc("Hello")]));
    expect(ev[1]).toMatchObject({ type: "error", code: "unexpected-reserved-token", token: id.endHeader });
    const g = syntheticFamily(PAIR_GRAMMAR, PAIR_KEYS, []);
    const ev2 = mergedAll(
      run(g.spec, [g.id.eot as number, g.id.startHeader as number, ...g.enc("user")], { maxTokens: 3 }),
    );
    expect(ev2.slice(2)).toEqual([
      { type: "message_start", role: "user", metadata: "" },
      { type: "stop", reason: "max_tokens" },
    ]);
  });

  it("a block of the pair grammar (<python_tag> ... <eom>) is an action closed by the message end", () => {
    const ev = mergedAll(run(f.spec, [id.pythonTag as number, ...f.enc("Hello"), id.eom as number]));
    expect(ev).toEqual([
      { type: "message_start", role: "assistant", metadata: "" },
      ...calledAction("python_tag", "Hello", { name: "python_tag", arguments: { code: "Hello" } }),
      { type: "message_end" },
      { type: "stop", reason: "end_of_input" },
    ]);
  });
});

describe("plainTextToolCall json-call: only with DecoderOptions.tools", () => {
  const f = syntheticFamily(PAIR_GRAMMAR, PAIR_KEYS, ["eot", "endOfText"]);
  const ids = [...f.enc(CALL), f.id.eot as number];

  it("with tools: the whole content is a tool call (action events, the parsed call)", () => {
    const ev = mergedAll(run(f.spec, ids, { tools: TOOLS }));
    expect(ev).toEqual([
      { type: "message_start", role: "assistant", metadata: "" },
      ...calledAction("tool_call", CALL, { name: "get_weather", arguments: { city: "Paris" } }),
      { type: "message_end" },
      { type: "stop", reason: "eos", token: f.id.eot },
    ]);
  });

  it("with tools and streamToolCalls: the name, then the arguments text", () => {
    const ev = mergedAll(
      run(f.spec, ids, { tools: TOOLS, streamToolCalls: true }).filter((e) => e.type.startsWith("tool_call")),
    );
    expect(ev).toEqual([
      { type: "tool_call_name", name: "get_weather" },
      { type: "tool_call_arguments", text: '{"city": "Paris"}' },
    ]);
  });

  it("without tools (or with an empty list) the same IDs are text", () => {
    for (const options of [{}, { tools: [] }] as DecoderOptions[]) {
      const ev = mergedAll(run(f.spec, ids, options));
      expect(ev[1]).toEqual({ type: "text", text: CALL });
      expect(ev.some((e) => e.type === "action_start")).toBe(false);
    }
  });

  it("with tools, content that does not start with { is text; leading whitespace goes with what follows", () => {
    const ev = mergedAll(run(f.spec, [...f.enc("\nHello"), f.id.eot as number], { tools: TOOLS }));
    expect(ev[1]).toEqual({ type: "text", text: "\nHello" });
    const ev2 = mergedAll(run(f.spec, [...f.enc(` ${CALL}`), f.id.eot as number], { tools: TOOLS }));
    expect(ev2[1]).toEqual({ type: "action_start", kind: "tool_call" });
    expect(ev2[3]).toMatchObject({ type: "action_end", raw: ` ${CALL}`, call: { name: "get_weather" } });
  });

  it("a malformed plain call keeps its raw text and says why (nothing is lost)", () => {
    const ev = mergedAll(run(f.spec, [...f.enc("{Hello"), f.id.eot as number], { tools: TOOLS }));
    expect(ev[3]).toMatchObject({ type: "action_end", raw: "{Hello" });
    expect((ev[3] as { error?: string }).error).toMatch(/invalid JSON/);
  });
});

describe('"role" moves with header "none", container blocks and separators', () => {
  const f = syntheticFamily(roleGrammar("raw"), ROLE_KEYS, ["eos"]);
  const { id } = f;
  const call = (name: string): number[] => [
    id.callBegin as number,
    ...f.enc("function"),
    id.sep as number,
    ...f.enc(`${name}\n\`\`\`json\n{}\n\`\`\``),
    id.callEnd as number,
  ];

  it("calls inside the container: one action per child block; the separator splits the body", () => {
    const ids = [
      ...f.enc("Hello"),
      id.callsBegin as number,
      ...call("get_weather"),
      ...f.enc("\n"),
      ...call("f"),
      id.callsEnd as number,
      id.eos as number,
    ];
    const ev = mergedAll(run(f.spec, ids));
    const body = (n: string): string => `function${n}\n\`\`\`json\n{}\n\`\`\``;
    expect(ev).toEqual([
      { type: "message_start", role: "assistant", metadata: "" },
      { type: "text", text: "Hello" },
      ...calledAction("tool_call", body("get_weather"), {
        name: "tool_call",
        arguments: { code: body("get_weather") },
      }),
      ...calledAction("tool_call", body("f"), { name: "tool_call", arguments: { code: body("f") } }),
      { type: "message_end" },
      { type: "stop", reason: "eos", token: id.eos },
    ]);
  });

  it("a child block outside its container, a separator outside its block: misplaced; text in a container: an error", () => {
    const ev = mergedAll(run(f.spec, [id.callBegin as number, id.sep as number]));
    expect(ev.filter((e) => e.type === "error").map((e) => (e as { token?: number }).token)).toEqual([
      id.callBegin,
      id.sep,
    ]);
    const ev2 = mergedAll(run(f.spec, [id.callsBegin as number, ...f.enc("Hello"), ...f.enc("\n")]));
    expect(ev2.filter((e) => e.type === "error")).toEqual([
      {
        type: "error",
        code: "text-outside-block",
        message: 'text between the blocks of "tool_calls": "Hello"',
      },
    ]);
  });

  it("a role marker ends the turn and opens the next one with its role (EOS overridden)", () => {
    const g = syntheticFamily(roleGrammar("raw"), ROLE_KEYS, []);
    const ids = [
      ...g.enc("Hello"),
      g.id.eos as number,
      g.id.user as number,
      ...g.enc("world"),
      g.id.assistant as number,
    ];
    const ev = mergedAll(run(g.spec, ids));
    expect(ev).toEqual([
      ...textMessage("assistant", "Hello"),
      ...textMessage("user", "world"),
      { type: "message_start", role: "assistant", metadata: "" },
      { type: "stop", reason: "end_of_input" },
    ]);
  });

  it("the message end inside an open container closes the open call", () => {
    const ids = [id.callsBegin as number, id.callBegin as number, ...f.enc("Hello"), id.eos as number];
    const ev = mergedAll(run(f.spec, ids));
    expect(ev.map((e) => e.type)).toEqual([
      "message_start",
      "action_start",
      "action_text",
      "action_end",
      "message_end",
      "stop",
    ]);
  });

  it("a body syntax without a registered parser still decodes: the action ends with an error and its raw text", () => {
    const g = syntheticFamily(roleGrammar("fenced-json-call"), ROLE_KEYS, ["eos"]);
    const ids = [
      g.id.callsBegin as number,
      g.id.callBegin as number,
      ...g.enc("Hello"),
      g.id.callEnd as number,
    ];
    const end = run(g.spec, ids).find((e) => e.type === "action_end");
    expect(end).toBeDefined();
    expect(end).toHaveProperty("raw", "Hello");
    // Either the registered parser's verdict or the "no parser" error: never a call from nothing.
    expect(end).not.toHaveProperty("call");
  });
});

describe("compile-time checks of a grammar (caller misuse of the data, not model output)", () => {
  it("a marker naming an unknown block, a duplicated block: TypeError", () => {
    const bad: Grammar = {
      markers: { a: { move: "block-open", block: "nope" } },
      header: { syntax: "none" },
    };
    expect(() => syntheticFamily(bad, ["a"], [])).toThrow(TypeError);
    const dup: Grammar = {
      markers: {},
      header: { syntax: "none" },
      blocks: [
        { name: "x", emits: "reasoning" },
        { name: "x", emits: "reasoning" },
      ],
    };
    expect(() => syntheticFamily(dup, [], [])).toThrow(/defined twice/);
  });
});
