// ChunkWriter toolCallStreaming "incremental" on the real decoder and the real Qwen3 tokenizer:
// argument fragments go out while the call is still being generated, and the policy for calls
// that fail after their header went out (an error instead of a finish_reason). Expected texts
// are written out by hand from the IDs' source text; the property's oracle is JSON.parse and
// string prefixes of the generated call text (not the writer's own output).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { qwenCall as call, Q, qwen3, qwenCallTurn, runWriter, qwenText as t } from "./writer-support.ts";

const INC = { toolCallStreaming: "incremental" } as const;

// Test oracle (sound, possibly incomplete): `p` is a prefix of valid JSON when some completion
// makes JSON.parse accept it. The completion is a short middle piece (finishing a literal,
// number, escape, string or key) and the closing brackets of a naive string-aware bracket
// count. A `true` answer is a proof (JSON.parse accepted p + something); a valid prefix that
// none of the candidates completes would fail the test loudly rather than pass it.
const MIDS = ["", "0", '"', '":0', ":0", '"":0', "rue", "ue", "e", "alse", "lse", "se", "ull", "ll", "l"];
const ESC = ["", "n", "0000", "000", "00", "0"];
function isJsonPrefix(p: string): boolean {
  const stack: string[] = [];
  let inStr = false;
  let esc = false;
  for (const ch of p) {
    if (inStr) {
      if (esc) esc = false;
      else if (ch === "\\") esc = true;
      else if (ch === '"') inStr = false;
    } else if (ch === '"') inStr = true;
    else if (ch === "{") stack.push("}");
    else if (ch === "[") stack.push("]");
    else if (ch === "}" || ch === "]") stack.pop();
  }
  const closers = stack.reverse().join("");
  for (const e of ESC)
    for (const m of MIDS)
      for (const extra of ["", '"', '":0']) {
        try {
          JSON.parse(p + e + m + extra + closers);
          return true;
        } catch {}
      }
  return false;
}

describe("ChunkWriter incremental tool-call streaming (Qwen3)", () => {
  it("header and argument fragments go out before the call's </tool_call> arrives", () => {
    const json =
      '{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius", "days": [1, 2, 3]}}';
    const ids = [...call(json), Q.imEnd];
    const r = runWriter(qwen3(), ids, INC);
    expect(r.breaches).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([
      ["get_weather", '{"city": "Paris", "unit": "celsius", "days": [1, 2, 3]}'],
    ]);
    expect(r.finish).toEqual(["tool_calls"]);
    // Chunks sent before the </tool_call> ID was pushed: the role chunk, the header and several
    // argument fragments (per-call mode sends none of them before that point).
    const endAt = ids.indexOf(Q.toolCallEnd);
    const before = r.chunks.slice(0, r.chunksAfter[endAt - 1]);
    const fragments = before.filter(
      (c) =>
        c.choices[0]?.delta.tool_calls?.[0]?.id === undefined && c.choices[0]?.delta.tool_calls !== undefined,
    );
    expect(before.some((c) => c.choices[0]?.delta.tool_calls?.[0]?.id !== undefined)).toBe(true);
    expect(fragments.length).toBeGreaterThan(3);
    const perCall = runWriter(qwen3(), ids);
    expect(perCall.chunks.slice(0, perCall.chunksAfter[endAt - 1]).length).toBe(1);
    expect(perCall.calls).toEqual(r.calls);
  });

  it("arguments before the name: held, then sent with the header once the name is known", () => {
    const r = runWriter(
      qwen3(),
      [...call('{"arguments": {"q": "a \\"quoted\\" ü"}, "name": "search"}'), Q.imEnd],
      INC,
    );
    expect(r.breaches).toEqual([]);
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["search", '{"q": "a \\"quoted\\" ü"}']]);
  });

  it("no arguments key, or a non-object value: held and sent per call ('{}' / the parsed object)", () => {
    const a = runWriter(qwen3(), [...call('{"name": "now"}'), Q.imEnd], INC);
    expect(a.calls.map((c) => [c.name, c.arguments])).toEqual([["now", "{}"]]);
    const b = runWriter(qwen3(), [...call('{"name": "now", "arguments": [1]}'), Q.imEnd], INC);
    expect(b.calls).toEqual([]);
    expect(b.content).toBe('\n{"name": "now", "arguments": [1]}\n');
    expect(b.errors).toEqual([]);
  });

  it("malformed before the header (no name yet): content, exactly as per-call", () => {
    const raw = '{"arguments": {"x": 1}';
    const r = runWriter(qwen3(), [...t("A"), ...call(raw), Q.imEnd], INC);
    expect(r.calls).toEqual([]);
    expect(r.content).toBe(`A\n${raw}\n`);
    expect(r.finish).toEqual(["stop"]);
    expect(r.errors).toEqual([]);
  });

  it("malformed after the header: nothing more is sent, no finish_reason, sink.error instead", () => {
    const raw = '{"name": "get_weather", "arguments": {"city": "Paris"}';
    const r = runWriter(qwen3(), [...call(raw), ...t("more text"), Q.imEnd], INC);
    expect(r.calls.map((c) => c.name)).toEqual(["get_weather"]);
    expect(r.finish).toEqual([]);
    expect(r.content).toBe("");
    expect(r.errors.map((e) => e.error.code)).toEqual(["malformed-tool-call"]);
    expect(r.writer.failedCall).toBeDefined();
    expect(r.writer.malformedCalls).toBe(1);
  });

  it("a call cut by max_tokens after its header: error, no finish_reason", () => {
    const ids = [...call('{"name": "get_weather", "arguments": {"city": "Paris"}}'), Q.imEnd];
    // Cut 3 IDs before the end: inside the arguments, after the header went out.
    const r = runWriter(qwen3(), ids, INC, { maxTokens: ids.length - 3 });
    expect(r.calls.length).toBe(1);
    expect(r.finish).toEqual([]);
    expect(r.errors.length).toBe(1);
  });

  it("duplicate arguments keys: the streamed value is not the parsed one -> error", () => {
    const r = runWriter(
      qwen3(),
      [...call('{"name": "f", "arguments": {"a": 1}, "arguments": {"a": 2}}'), Q.imEnd],
      INC,
    );
    expect(r.errors.length).toBe(1);
    expect(r.finish).toEqual([]);
  });

  it("parallel_tool_calls false: the first call streams whole, then the writer asks to stop", () => {
    const ids = qwenCallTurn('{"name": "a", "arguments": {"x": [1, 2]}}', '{"name": "b", "arguments": {}}');
    const r = runWriter(qwen3(), ids, { ...INC, parallelToolCalls: false });
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["a", '{"x": [1, 2]}']]);
    expect(r.finish).toEqual(["tool_calls"]);
  });

  it("content-only output is unchanged by the option", () => {
    const r = runWriter(qwen3(), [...t("Hello"), Q.imEnd], INC);
    expect(r.content).toBe("Hello");
    expect(r.finish).toEqual(["stop"]);
  });

  it("property: fragments are always a prefix of valid JSON; at the end exactly the parsed arguments; a malformed call never completes as a tool call", () => {
    const args = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    const garbage = fc.constantFrom("", "}", "{", '"', ",", "x", "]", ' "k": 1}', "\\", "tru");
    fc.assert(
      fc.property(
        args,
        fc.boolean(),
        fc.nat(),
        garbage,
        fc.boolean(),
        (value, spaced, cutAt, junk, corrupt) => {
          const argsText = JSON.stringify(value, null, spaced ? 1 : undefined);
          const full = `{"name": "fn", "arguments": ${argsText}}`;
          const body = corrupt ? full.slice(0, cutAt % (full.length + 1)) + junk : full;
          const ids = [...call(body), ...t("tail"), Q.imEnd];
          const r = runWriter(qwen3(), ids, INC);
          if (r.breaches.length > 0) return false;
          // What a client holds is a prefix of valid JSON at every moment: the writer only
          // appends, and prefixes of a valid-JSON prefix are valid prefixes, so checking the
          // final text of the call suffices.
          const acc = r.calls[0]?.arguments ?? "";
          if (acc !== "" && (!acc.startsWith("{") || !isJsonPrefix(acc))) return false;
          // The reference: JSON.parse of the body and Qwen3's call shape (a string name; the
          // arguments key, absent = {}, an object).
          let expected: string | undefined;
          try {
            const v: unknown = JSON.parse(body);
            if (
              typeof v === "object" &&
              v !== null &&
              !Array.isArray(v) &&
              "name" in v &&
              typeof v.name === "string"
            ) {
              const a: unknown = "arguments" in v ? v.arguments : {};
              if (typeof a === "object" && a !== null && !Array.isArray(a)) expected = JSON.stringify(a);
            }
          } catch {}
          if (expected !== undefined) {
            // Valid: one call, exactly the arguments, finish tool_calls, no error.
            return (
              r.errors.length === 0 &&
              r.calls.length === 1 &&
              JSON.stringify(JSON.parse(acc)) === expected &&
              r.finish.join() === "tool_calls"
            );
          }
          // Malformed: never a completed response with a tool call. Either no header at all
          // (raw text as content, finish stop) or an error instead of any finish_reason.
          if (r.calls.length === 0) return r.errors.length === 0 && r.finish.join() === "stop";
          return r.errors.length === 1 && r.finish.length === 0;
        },
      ),
      { seed: 7, numRuns: 400 },
    );
  });
});
