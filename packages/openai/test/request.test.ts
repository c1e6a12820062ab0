// mapChatCompletionParams / mapCompletionParams: what is mapped, and the typed 400s for what
// cannot be honoured (never silently ignored).
import { describe, expect, it } from "vitest";
import { mapChatCompletionParams, mapCompletionParams, RequestError } from "../src/index.ts";

const base = { model: "m", messages: [{ role: "user", content: "hi" }] };
const errorOf = (body: unknown) => {
  const r = mapChatCompletionParams(body);
  return RequestError.isInstance(r) ? { type: r.type, param: r.param, status: r.status } : undefined;
};

describe("mapChatCompletionParams", () => {
  it("maps sampling, stop (string or list), stream options, tool choice", () => {
    const r = mapChatCompletionParams({
      ...base,
      max_tokens: 50,
      max_completion_tokens: 40,
      stop: "END",
      seed: 7,
      temperature: 0.5,
      top_p: 0.9,
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: "function", function: { name: "f" } }],
      tool_choice: "auto",
      parallel_tool_calls: false,
      n: 1,
      logprobs: false,
      response_format: { type: "text" },
      user: "u-1",
    });
    expect(RequestError.isInstance(r)).toBe(false);
    if (RequestError.isInstance(r)) return;
    expect(r.sampling).toEqual({ maxTokens: 40, stop: ["END"], seed: 7, temperature: 0.5, topP: 0.9 });
    expect([r.stream, r.includeUsage, r.toolCalls, r.parallelToolCalls]).toEqual([true, true, true, false]);
    expect(r.chat).toEqual({
      messages: base.messages,
      tools: [{ type: "function", function: { name: "f" } }],
    });
    const list = mapChatCompletionParams({ ...base, stop: ["a", "b"] });
    expect(RequestError.isInstance(list) ? undefined : list.sampling.stop).toEqual(["a", "b"]);
  });

  it("tool_choice none leaves the tools out of the prompt and turns tool calls off", () => {
    const r = mapChatCompletionParams({
      ...base,
      tools: [{ type: "function", function: { name: "f" } }],
      tool_choice: "none",
    });
    if (RequestError.isInstance(r)) throw r;
    expect(r.chat.tools).toBeUndefined();
    expect(r.toolCalls).toBe(false);
  });

  it("vLLM's template extras pass through to the chat request", () => {
    const r = mapChatCompletionParams({
      ...base,
      continue_final_message: true,
      add_generation_prompt: false,
      chat_template_kwargs: { enable_thinking: false },
    });
    if (RequestError.isInstance(r)) throw r;
    expect(r.chat).toEqual({
      messages: base.messages,
      add_generation_prompt: false,
      continue_final_message: true,
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it("tool_choice required / named map to toolChoice; named turns parallel calls off", () => {
    const tools = [{ type: "function", function: { name: "f" } }];
    const a = mapChatCompletionParams({ ...base, tools, tool_choice: "required" });
    if (RequestError.isInstance(a)) throw a;
    expect([a.toolChoice, a.parallelToolCalls, a.toolCalls]).toEqual([{ type: "required" }, true, true]);
    const b = mapChatCompletionParams({
      ...base,
      tools,
      tool_choice: { type: "function", function: { name: "f" } },
    });
    if (RequestError.isInstance(b)) throw b;
    expect([b.toolChoice, b.parallelToolCalls]).toEqual([{ type: "function", name: "f" }, false]);
  });

  it.each([
    [{ n: 2 }, "unsupported-parameter", "n"],
    [{ logprobs: true }, "unsupported-parameter", "logprobs"],
    [{ top_logprobs: 3 }, "unsupported-parameter", "top_logprobs"],
    [{ response_format: { type: "xml" } }, "invalid-parameter", "response_format"],
    [{ tool_choice: "required" }, "invalid-parameter", "tool_choice"],
    [{ tool_choice: { type: "function", function: { name: "f" } } }, "invalid-parameter", "tool_choice"],
    [
      {
        tool_choice: { type: "function", function: { name: "g" } },
        tools: [{ type: "function", function: { name: "f" } }],
      },
      "invalid-parameter",
      "tool_choice",
    ],
    [
      { tool_choice: { type: "function" }, tools: [{ type: "function", function: { name: "f" } }] },
      "invalid-parameter",
      "tool_choice",
    ],
    [{ frequency_penalty: 3 }, "invalid-parameter", "frequency_penalty"],
    [{ temperature: 3 }, "invalid-parameter", "temperature"],
    [{ top_p: -1 }, "invalid-parameter", "top_p"],
    [{ max_tokens: 0 }, "invalid-parameter", "max_tokens"],
    [{ max_tokens: 1.5 }, "invalid-parameter", "max_tokens"],
    [{ stop: [1] }, "invalid-parameter", "stop"],
    [{ stop: Array(17).fill("x") }, "invalid-parameter", "stop"],
    [{ stream: "yes" }, "invalid-parameter", "stream"],
    [{ stream_options: { include_usage: true, other: 1 } }, "unknown-parameter", "stream_options.other"],
    [{ frobnicate: 1 }, "unknown-parameter", "frobnicate"],
    [{ model: "" }, "invalid-parameter", "model"],
    [{ messages: [] }, "invalid-parameter", "messages"],
  ])("%j -> %s (%s), HTTP 400", (extra, type, param) => {
    expect(errorOf({ ...base, ...extra })).toEqual({ type, param, status: 400 });
  });

  it("a non-object body and a prototype key are errors, not crashes", () => {
    expect(errorOf([1])?.type).toBe("invalid-request");
    expect(errorOf(JSON.parse('{"model":"m","messages":[{}],"__proto__":{"n":2}}'))?.type).toBe(
      "unknown-parameter",
    );
  });

  it("toBody() is the OpenAI error shape", () => {
    const r = mapChatCompletionParams({ ...base, n: 3 });
    expect(RequestError.isInstance(r) && r.toBody().error).toMatchObject({
      type: "invalid_request_error",
      param: "n",
      code: "unsupported-parameter",
    });
  });
});

describe("mapCompletionParams", () => {
  it("text and token-ID prompts; IDs are range-checked", () => {
    const a = mapCompletionParams({ model: "m", prompt: "Once", max_tokens: 5 }, { vocabSize: 100 });
    expect(RequestError.isInstance(a) ? a.type : a.prompt).toEqual({ text: "Once" });
    const b = mapCompletionParams({ model: "m", prompt: [1, 2, 99] }, { vocabSize: 100 });
    expect(RequestError.isInstance(b) ? b.type : b.prompt).toEqual({ ids: [1, 2, 99] });
    const c = mapCompletionParams({ model: "m", prompt: [100] }, { vocabSize: 100 });
    expect(RequestError.isInstance(c) && c.param).toBe("prompt");
    const d = mapCompletionParams({ model: "m", prompt: "x", echo: true }, { vocabSize: 100 });
    expect(RequestError.isInstance(d) && d.type).toBe("unsupported-parameter");
  });

  it("unknown fields: refused by default, dropped and listed under unknownFields ignore (as for chat)", () => {
    const body = { model: "m", prompt: "x", foo: 1, bar: { x: 1 } };
    const refused = mapCompletionParams(body, { vocabSize: 100 });
    expect(RequestError.isInstance(refused) && [refused.type, refused.param]).toEqual([
      "unknown-parameter",
      "foo",
    ]);
    const lenient = mapCompletionParams(body, { vocabSize: 100, unknownFields: "ignore" });
    expect(RequestError.isInstance(lenient) ? lenient.type : lenient.ignored).toEqual(["foo", "bar"]);
    const plain = mapCompletionParams({ model: "m", prompt: "x" }, { vocabSize: 100 });
    expect(RequestError.isInstance(plain) ? plain.type : plain.ignored).toEqual([]);
  });

  it("stream_options is checked as for chat: an object of include_usage (a boolean) and include_obfuscation", () => {
    const map = (so: unknown) =>
      mapCompletionParams({ model: "m", prompt: "x", stream: true, stream_options: so }, { vocabSize: 100 });
    const ok = map({ include_usage: true });
    expect(RequestError.isInstance(ok) ? ok.type : ok.includeUsage).toBe(true);
    for (const [so, param] of [
      [{ foo: 1 }, "stream_options.foo"],
      [{ include_usage: "yes" }, "stream_options.include_usage"],
      ["yes", "stream_options"],
    ] as const) {
      const r = map(so);
      expect(RequestError.isInstance(r) && r.param, JSON.stringify(so)).toBe(param);
      const chat = mapChatCompletionParams({ ...base, stream: true, stream_options: so });
      expect(RequestError.isInstance(chat) && chat.param, JSON.stringify(so)).toBe(param);
    }
  });
});
