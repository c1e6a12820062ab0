// ChunkWriter on the real decoder and the real Qwen3 tokenizer: the tool-call delta discipline,
// the hold-per-call malformed-call policy, finish_reason mapping, usage, tool_choice none and
// parallel_tool_calls=false. Expected texts are written out by hand from the IDs' source text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CompletionBuilder } from "../src/index.ts";
import { qwenCall as call, Q, qwen3, qwenCallTurn, runWriter, qwenText as t } from "./writer-support.ts";

describe("ChunkWriter (Qwen3)", () => {
  it("role chunk first; content deltas; one finish chunk; usage chunk with choices [] last", () => {
    const r = runWriter(qwen3(), [...t("Hello there!"), Q.imEnd], { includeUsage: true });
    expect(r.chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    expect(r.content).toBe("Hello there!");
    expect(r.finish).toEqual(["stop"]);
    expect(r.chunks.at(-1)?.choices).toEqual([]);
    expect(r.chunks.at(-1)?.usage).toEqual({ prompt_tokens: 0, completion_tokens: 4, total_tokens: 4 });
    for (const c of r.chunks.slice(0, -1)) expect(c.usage).toBeNull();
  });

  it("two parallel calls: header once per call (index, id, type, name, arguments ''), then fragments", () => {
    const ids = [
      ...t("Checking."),
      ...qwenCallTurn(
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
        '{"arguments": {"q": "a \\"quoted\\" ü"}, "name": "search"}',
      ),
    ];
    const r = runWriter(qwen3(), ids);
    expect(r.breaches).toEqual([]);
    expect(r.content).toBe("Checking.");
    expect(r.calls).toEqual([
      { id: `call_${"0".repeat(24)}_0`, name: "get_weather", arguments: '{"city": "Paris"}' },
      { id: `call_${"0".repeat(24)}_1`, name: "search", arguments: '{"q": "a \\"quoted\\" ü"}' },
    ]);
    expect(r.finish).toEqual(["tool_calls"]);
  });

  it("a call without an arguments key gets arguments '{}'", () => {
    const r = runWriter(qwen3(), [...call('{"name": "now"}'), Q.imEnd]);
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["now", "{}"]]);
  });

  it("malformed call: no tool_calls delta at all, its raw text becomes content, finish stop", () => {
    const raw = '{"name": "get_weather", "arguments": {"city": "Paris"}';
    const r = runWriter(qwen3(), [...t("A"), ...call(raw), Q.imEnd]);
    expect(r.calls).toEqual([]);
    expect(r.content).toBe(`A\n${raw}\n`);
    expect(r.finish).toEqual(["stop"]);
    expect(r.writer.malformedCalls).toBe(1);
  });

  it("a call cut by max_tokens: finish length, the partial text as content, no half call", () => {
    const ids = [...call('{"name": "get_weather", "arguments": {"city": "Paris"}}'), Q.imEnd];
    const r = runWriter(qwen3(), ids, {}, { maxTokens: 8 });
    expect(r.calls).toEqual([]);
    expect(r.finish).toEqual(["length"]);
    expect(r.content.length).toBeGreaterThan(0);
    expect(`\n${'{"name": "get_weather", "arguments": {"city": "Paris"}}'}\n`.startsWith(r.content)).toBe(
      true,
    );
  });

  it("reasoning goes to reasoning_content, or to reasoning when asked", () => {
    const ids = [Q.think, ...t("\nhmm\n"), Q.thinkEnd, ...t("\n\nok"), Q.imEnd];
    const a = runWriter(qwen3(), ids);
    expect([a.reasoning, a.content]).toEqual(["hmm", "ok"]);
    expect(a.chunks.some((c) => c.choices[0]?.delta.reasoning_content !== undefined)).toBe(true);
    const b = runWriter(qwen3(), ids, { reasoningField: "reasoning" });
    expect(b.chunks.some((c) => c.choices[0]?.delta.reasoning !== undefined)).toBe(true);
    expect(b.chunks.some((c) => c.choices[0]?.delta.reasoning_content !== undefined)).toBe(false);
  });

  it("tool_choice none (toolCalls: false): the call's raw text streams as content", () => {
    const json = '{"name": "f", "arguments": {}}';
    const r = runWriter(qwen3(), [...call(json), Q.imEnd], { toolCalls: false });
    expect(r.calls).toEqual([]);
    expect(r.content).toBe(`\n${json}\n`);
    expect(r.finish).toEqual(["stop"]);
  });

  it("parallel_tool_calls false: stops after the first call, finish tool_calls", () => {
    const ids = qwenCallTurn('{"name": "a", "arguments": {}}', '{"name": "b", "arguments": {}}');
    const r = runWriter(qwen3(), ids, { parallelToolCalls: false });
    expect(r.calls.map((c) => c.name)).toEqual(["a"]);
    expect(r.finish).toEqual(["tool_calls"]);
  });

  it("non-streaming: CompletionBuilder over the same chunks gives message + finish", () => {
    const ids = [...t("Hi."), ...call('{"name": "a", "arguments": {"x": 1}}'), Q.imEnd];
    const r = runWriter(qwen3(), ids);
    const b = new CompletionBuilder();
    for (const c of r.chunks) b.chunk(c);
    const done = b.result({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
    expect(done.choices[0].message).toEqual({
      role: "assistant",
      content: "Hi.",
      refusal: null,
      tool_calls: [
        { id: `call_${"0".repeat(24)}_0`, type: "function", function: { name: "a", arguments: '{"x": 1}' } },
      ],
    });
    expect(done.choices[0].finish_reason).toBe("tool_calls");
  });

  it("property: whatever the call body, a client never holds a call whose arguments are not a JSON object", () => {
    const piece = fc.constantFrom(
      '{"name": "f", "arguments": ',
      '{"a": 1}',
      "}",
      "{",
      '"',
      ",",
      " ",
      "[1, 2]",
      "null",
      "ü",
      '"name": "g"',
      "\\",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const body = parts.join("");
        const r = runWriter(qwen3(), [...call(body), Q.imEnd]);
        if (r.breaches.length > 0) return false;
        for (const c of r.calls) {
          const v: unknown = JSON.parse(c.arguments);
          if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
        }
        // Either exactly one call, or none and the body is in the content.
        return r.calls.length === 1
          ? r.finish[0] === "tool_calls"
          : r.content === `\n${body}\n` && r.finish[0] === "stop";
      }),
      { seed: 12, numRuns: 300 },
    );
  });
});
