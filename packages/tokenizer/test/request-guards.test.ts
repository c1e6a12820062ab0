// Guards on untrusted requests, one class per test:
// - caller strings as keys: names like "constructor" / "__proto__" / "toString" are text, and a
//   polluted Object.prototype adds no field, role, name token or action to a request;
// - an error echoes at most 40 characters of caller input in all, field names included (a
//   1 MB key gives a short error);
// - JSON nested deeper than MAX_JSON_DEPTH, cycles and non-JSON values are typed errors
//   (invalid-conversation), never a RangeError.
import { describe, expect, it } from "vitest";
import { type ChatRequest, type ChatTokenizer, MAX_JSON_DEPTH, TokenizerError } from "../src/index.ts";
import { sharedSuiteFormats, tokenizerFor } from "./chat-support.ts";

type Json = Record<string, unknown>;
const enc = (tok: ChatTokenizer, req: unknown) => tok.encodeChat(req as ChatRequest);

function typedError(f: () => unknown): TokenizerError {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(TokenizerError.isInstance(err), String(err)).toBe(true);
  return err as TokenizerError;
}

const PROTO_NAMES = [
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "isPrototypeOf",
];

describe.each(sharedSuiteFormats)("%s: caller strings are never object keys", (format) => {
  const tok = tokenizerFor(format);

  it("names that are Object.prototype members encode as text (integer IDs, none reserved)", () => {
    for (const name of PROTO_NAMES) {
      const reqs: Json[] =
        format === "internlm2"
          ? [{ messages: [{ role: "user", name, content: "hi" }] }]
          : format === "chatglm3"
            ? [
                {
                  messages: [
                    { role: "user", content: "hi" },
                    { role: "assistant", metadata: name, content: "x" },
                  ],
                },
              ]
            : [{ messages: [{ role: "user", content: "hi" }] }];
      reqs.push({
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: name, type: "function", function: { name, arguments: { [name]: name } } }],
          },
          { role: "tool", tool_call_id: name, name, content: name },
        ],
        tools: [{ type: "function", function: { name, description: name } }],
      });
      for (const req of reqs) {
        const clean = JSON.parse(JSON.stringify(req)) as Json; // "__proto__" as an own key, as JSON.parse makes it
        const { ids, spans } = enc(tok, clean);
        for (const id of ids) expect(Number.isInteger(id), `${name}: ${String(id)}`).toBe(true);
        for (const s of spans) {
          if (s.field !== "name" && s.field !== "metadata" && s.field !== "tool_calls") continue;
          // InternLM2: the header name of a tool result and of the tools message (no caller
          // message) IS the reserved <|plugin|>, placed by the format
          const m = s.message === null ? undefined : (clean.messages as Json[])[s.message];
          if (s.field === "name" && (m === undefined || m.role === "tool")) continue;
          for (const id of ids.slice(s.start, s.end)) expect(tok.registry.ids.has(id), name).toBe(false);
        }
      }
    }
  });

  it("a polluted Object.prototype changes nothing", () => {
    const req: Json = {
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "hi" },
        { role: "assistant", content: "a" },
        { role: "user", content: "again" },
      ],
    };
    const before = enc(tok, req).ids;
    const reserved = format === "qwen3" ? 151644 : format === "internlm2" ? 92543 : 64796;
    const pollution: Record<string, unknown> = {
      evil: reserved,
      name: "plugin",
      action: { kind: "plugin", text: "x" },
      tool_calls: [{ type: "function", function: { name: "f", arguments: {} } }],
      reasoning_content: "r",
      reasoning: "r",
      metadata: "interpreter",
      tools: [{ type: "function", function: { name: "f" } }],
      enable_thinking: false,
      continue_final_message: true,
      add_generation_prompt: false,
      chat_template_kwargs: { enable_thinking: false },
    };
    const keys = Object.keys(pollution);
    try {
      for (const k of keys)
        Object.defineProperty(Object.prototype, k, {
          value: pollution[k],
          configurable: true,
          writable: true,
        });
      const after = enc(tok, req).ids;
      expect(after).toEqual(before);
      if (format === "internlm2") {
        // a name that is only a prototype key is header text, not the reserved ID stored there
        const { ids } = enc(tok, { messages: [{ role: "user", name: "evil", content: "hi" }] });
        expect(ids.filter((id) => tok.registry.ids.has(id))).toEqual([1, 92543, 92542, 92543]);
      }
    } finally {
      for (const k of keys) delete (Object.prototype as Record<string, unknown>)[k];
    }
  });
});

describe.each(sharedSuiteFormats)("%s: errors echo at most 40 characters of caller input", (format) => {
  const tok = tokenizerFor(format);
  const big = "k".repeat(1 << 20);
  const cases: Array<[string, Json]> = [
    ["top-level key", { messages: [], [big]: 1 }],
    ["message key", { messages: [{ role: "user", content: "x", [big]: 1 }] }],
    ["role", { messages: [{ role: big, content: "x" }] }],
    ["content part key", { messages: [{ role: "user", content: [{ type: "text", text: "a", [big]: 1 }] }] }],
    ["content part type", { messages: [{ role: "user", content: [{ type: big }] }] }],
    [
      "tool call key",
      {
        messages: [
          {
            role: "assistant",
            tool_calls: [{ type: "function", function: { name: "f", arguments: {} }, [big]: 1 }],
          },
        ],
      },
    ],
    [
      "tool call function key",
      {
        messages: [{ role: "assistant", tool_calls: [{ function: { name: "f", arguments: {}, [big]: 1 } }] }],
      },
    ],
    ["tool key", { messages: [], tools: [{ type: "function", function: { name: "f" }, [big]: 1 }] }],
    ["tool function key", { messages: [], tools: [{ function: { name: "f", [big]: 1 } }] }],
    ["kwargs type", { messages: [], chat_template_kwargs: { enable_thinking: big } }],
  ];
  if (format === "internlm2")
    cases.push([
      "action key",
      { messages: [{ role: "assistant", content: "", action: { kind: "plugin", text: "", [big]: 1 } }] },
    ]);
  for (const [what, req] of cases) {
    it(what, () => {
      const e = typedError(() => enc(tok, req));
      expect(e.type).toBe("invalid-conversation");
      const line = JSON.stringify({ error: e.toJSON() });
      expect(line.length).toBeLessThan(400);
      // at most 40 characters of the caller's input in the whole error (message + fields)
      const echoed = [...line.matchAll(/k{5,}/g)].reduce((n, m) => n + m[0].length, 0);
      expect(echoed, line).toBeLessThanOrEqual(40);
    });
  }
});

function nested(depth: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { k: v };
  return v;
}

describe.each(sharedSuiteFormats)("%s: JSON depth, cycles and non-JSON values", (format) => {
  const tok = tokenizerFor(format);
  const call = (args: unknown): Json => ({
    messages: [
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ type: "function", function: { name: "f", arguments: args } }],
      },
    ],
    add_generation_prompt: false,
  });
  const deep = 200_000;

  it(`nesting deeper than ${MAX_JSON_DEPTH} is invalid-conversation, not a RangeError`, () => {
    const bad: Json[] = [
      call({ a: nested(deep) }),
      {
        messages: [{ role: "user", content: "q" }],
        tools: [{ type: "function", function: { name: "f", parameters: { p: nested(deep) } } }],
      },
      { messages: [{ role: "user", content: "q" }], chat_template_kwargs: { x: nested(deep) } },
      // JSON text arguments, parsed by InternLM2 / ChatGLM3 (Qwen3 inserts them as sent)
      ...(format === "qwen3" ? [] : [call(`{"a": ${"[".repeat(deep)}${"]".repeat(deep)}}`)]),
    ];
    for (const req of bad) {
      const e = typedError(() => enc(tok, req));
      expect(e.type).toBe("invalid-conversation");
    }
  });

  it(`nesting up to ${MAX_JSON_DEPTH} encodes`, () => {
    // the arguments object is level 1, `a` holds levels 2..MAX
    expect(enc(tok, call({ a: nested(MAX_JSON_DEPTH - 2) })).ids.length).toBeGreaterThan(0);
    expect(() => enc(tok, call({ a: nested(MAX_JSON_DEPTH - 1) }))).toThrow(TokenizerError);
  });

  it("cycles and non-JSON values", () => {
    const cyclic: Json = { a: 1 };
    cyclic.self = cyclic;
    for (const v of [cyclic, { f: () => 1 }, { b: 10n }, { n: Number.NaN }, { d: new Date(0) }]) {
      const e = typedError(() => enc(tok, call(v)));
      expect(e.type).toBe("invalid-conversation");
    }
  });
});
