// Native-schema validation (one test per rule) and the Python json.dumps serializer.
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import { type ChatRequest, type FormatName, TokenizerError } from "../src/index.ts";
import { pyFloatRepr, pyJsonDumps } from "../src/py/json.ts";
import { render, tokenizerFor } from "./chat-support.ts";

function invalid(format: FormatName, request: unknown, at: { message?: number; field?: string }): void {
  let err: unknown;
  try {
    tokenizerFor(format).encodeChat(request as ChatRequest);
  } catch (e) {
    err = e;
  }
  expect(TokenizerError.isInstance(err), String(err)).toBe(true);
  const e = err as TokenizerError;
  expect(e.type).toBe("invalid-conversation");
  expect({ message: e.fields.message, field: e.fields.field }).toEqual({
    message: at.message,
    field: at.field,
  });
}

const u = (content: string) => ({ role: "user" as const, content });

describe("qwen3 schema", () => {
  it("not an object / no messages", () => {
    invalid("qwen3", [], {});
    invalid("qwen3", { messages: "x" }, { field: "messages" });
  });
  it("unknown top-level field", () => invalid("qwen3", { messages: [], foo: 1 }, { field: "foo" }));
  it("add_generation_prompt type", () =>
    invalid("qwen3", { messages: [], add_generation_prompt: "yes" }, { field: "add_generation_prompt" }));
  it("unknown message field", () =>
    invalid("qwen3", { messages: [{ ...u("a"), foo: "x" }] }, { message: 0, field: "foo" }));
  it("unknown role", () =>
    invalid("qwen3", { messages: [{ role: "environment", content: "a" }] }, { message: 0, field: "role" }));
  it('an unknown role\'s error lists the roles a message may take (not the refused "function")', () => {
    let err: unknown;
    try {
      tokenizerFor("qwen3").encodeChat({
        messages: [{ role: "wizard", content: "a" }],
      } as unknown as ChatRequest);
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toMatch(/expected one of system, developer, user, assistant, tool\b/);
    expect((err as Error).message).not.toContain("function");
  });
  it("content type", () =>
    invalid("qwen3", { messages: [{ role: "user", content: 3 }] }, { message: 0, field: "content" }));
  it("tool_calls only on assistant", () =>
    invalid("qwen3", { messages: [{ ...u("a"), tool_calls: [] }] }, { message: 0, field: "tool_calls" }));
  it("reasoning_content only on assistant", () =>
    invalid(
      "qwen3",
      { messages: [{ ...u("a"), reasoning_content: "r" }] },
      { message: 0, field: "reasoning_content" },
    ));
  it("arguments object or string", () =>
    invalid(
      "qwen3",
      {
        messages: [
          {
            role: "assistant",
            content: "",
            tool_calls: [{ type: "function", function: { name: "f", arguments: [1] } }],
          },
        ],
      },
      { message: 0, field: "tool_calls[0].function.arguments" },
    ));
  it("tool call shape", () => {
    invalid(
      "qwen3",
      { messages: [{ role: "assistant", content: "", tool_calls: [{ type: "x", function: {} }] }] },
      { message: 0, field: "tool_calls[0].type" },
    );
    invalid(
      "qwen3",
      {
        messages: [
          { role: "assistant", content: "", tool_calls: [{ function: { name: 1, arguments: {} } }] },
        ],
      },
      {
        message: 0,
        field: "tool_calls[0].function.name",
      },
    );
    invalid(
      "qwen3",
      {
        messages: [
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: 1, function: { name: "f", arguments: {} } }],
          },
        ],
      },
      {
        message: 0,
        field: "tool_calls[0].id",
      },
    );
  });
  it("tools must be objects", () =>
    invalid("qwen3", { messages: [u("a")], tools: ["x"] }, { field: "tools[0]" }));
  it("enable_thinking=false closes the think block of the generation prompt", () => {
    const tok = tokenizerFor("qwen3");
    const ids = tok.encodeChat({ messages: [u("a")], enable_thinking: false }).ids;
    expect(render(tok, ids).endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
    expect(ids.filter((id) => id === 151667 || id === 151668)).toEqual([151667, 151668]);
  });
  it("audit names message, field and offset; reject names the first occurrence", () => {
    const tok = tokenizerFor("qwen3");
    const req: ChatRequest = {
      messages: [u("ok"), { role: "assistant", content: "\n\nhi <think>", reasoning_content: "x</think>" }],
    };
    expect(tok.encodeChat(req).audit).toEqual([
      { message: 1, field: "reasoning_content", token: "</think>", index: 1, id: 151668 },
      { message: 1, field: "content", token: "<think>", index: 5, id: 151667 },
    ]);
    try {
      tok.encodeChat(req, { specialText: "reject" });
      expect.unreachable();
    } catch (e) {
      expect((e as TokenizerError).type).toBe("special-token-in-text");
      expect((e as TokenizerError).fields).toMatchObject({
        token: "</think>",
        index: 1,
        message: 1,
        field: "reasoning_content",
      });
    }
  });
});

describe.skipIf(!haveFixtures())("internlm2 schema", () => {
  it("unknown field / role", () => {
    invalid("internlm2", { messages: [{ ...u("a"), metadata: "" }] }, { message: 0, field: "metadata" });
    invalid(
      "internlm2",
      { messages: [{ role: "observation", content: "a" }] },
      { message: 0, field: "role" },
    );
  });
  it("name with a newline, empty name, wrong type", () => {
    invalid("internlm2", { messages: [{ ...u("a"), name: "a\nb" }] }, { message: 0, field: "name" });
    invalid("internlm2", { messages: [{ ...u("a"), name: "" }] }, { message: 0, field: "name" });
    invalid("internlm2", { messages: [{ ...u("a"), name: 1 }] }, { message: 0, field: "name" });
  });
  it("action only on assistant, with kind and text", () => {
    invalid(
      "internlm2",
      { messages: [{ ...u("a"), action: { kind: "plugin", text: "" } }] },
      { message: 0, field: "action" },
    );
    invalid(
      "internlm2",
      { messages: [{ role: "assistant", content: "", action: { kind: "tool", text: "" } }] },
      { message: 0, field: "action.kind" },
    );
    invalid(
      "internlm2",
      { messages: [{ role: "assistant", content: "", action: { kind: "plugin" } }] },
      { message: 0, field: "action.text" },
    );
  });
  it("top-level tools must be an array", () =>
    invalid("internlm2", { messages: [], tools: "x" }, { field: "tools" }));
});

describe.skipIf(!haveFixtures())("chatglm3 schema", () => {
  it("system only first", () =>
    invalid(
      "chatglm3",
      { messages: [u("a"), { role: "system", content: "" }] },
      { message: 1, field: "role" },
    ));
  it("user twice in a row", () =>
    invalid("chatglm3", { messages: [u("a"), u("b")] }, { message: 1, field: "role" }));
  it("observation only after a tool/code call", () =>
    invalid(
      "chatglm3",
      { messages: [u("a"), { role: "assistant", content: "b" }, { role: "observation", content: "c" }] },
      { message: 2, field: "role" },
    ));
  it("metadata one line, string", () => {
    invalid(
      "chatglm3",
      { messages: [{ role: "assistant", content: "", metadata: "a\nb" }] },
      { message: 0, field: "metadata" },
    );
    invalid(
      "chatglm3",
      { messages: [{ role: "assistant", content: "", metadata: 1 }] },
      { message: 0, field: "metadata" },
    );
  });
  it("tools only on system, as an array", () => {
    invalid("chatglm3", { messages: [{ ...u("a"), tools: [] }] }, { message: 0, field: "tools" });
    invalid(
      "chatglm3",
      { messages: [{ role: "system", content: "", tools: {} }] },
      { message: 0, field: "tools" },
    );
  });
  it("unknown role", () =>
    invalid("chatglm3", { messages: [{ role: "tool", content: "a" }] }, { message: 0, field: "role" }));
});

describe("Python json.dumps", () => {
  it("layout, escapes, non-ASCII, floats", () => {
    expect(pyJsonDumps({ a: [1, { b: 'é\n\u0001"\\' }], c: [], d: {} })).toBe(
      '{"a": [1, {"b": "é\\n\\u0001\\"\\\\"}], "c": [], "d": {}}',
    );
    expect(pyJsonDumps([{ a: [], b: [1, 2] }], 4)).toBe(
      '[\n    {\n        "a": [],\n        "b": [\n            1,\n            2\n        ]\n    }\n]',
    );
    const floats: Array<[number, string]> = [
      [0.5, "0.5"],
      [1e-5, "1e-05"],
      [0.0001, "0.0001"],
      [1e16, "1e+16"],
      [1.5e300, "1.5e+300"],
      [123.456, "123.456"],
      [-2.5e-7, "-2.5e-07"],
      [1e20, "1e+20"],
    ];
    for (const [x, want] of floats) expect(pyFloatRepr(x)).toBe(want);
  });
});
