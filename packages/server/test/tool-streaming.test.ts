// Incremental tool-call streaming end to end with the official `openai` client (7.55) against
// chatwire's server over the replay engine, per family: the client's ChatCompletionStream sees
// argument deltas before the call ends (Qwen3, InternLM2; ChatGLM3 stays per-call: one delta),
// reassembles exactly the call, and a call that breaks after its header makes the client throw
// (an SSE error event) instead of completing with half a call.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { InternLM2Key } from "../../tokenizer/src/families/internlm2/definition.ts";
import type { Qwen3Key } from "../../tokenizer/src/families/qwen3/definition.ts";
import { builtinReplayScript, createReplayEngine } from "../src/index.ts";
import { EXPECT, FAMILIES, type Running, start, tokenizer } from "./support.ts";

const Q = tokenIds<Qwen3Key>(() => tokenizer("qwen3"));
const I = tokenIds<InternLM2Key>(() => tokenizer("internlm2"));

const USER = [{ role: "user" as const, content: "Weather in Paris?" }];
const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];

/** A call that is malformed after its arguments began: the closing "}" of the call is missing. */
function brokenScript(fam: "qwen3" | "internlm2"): number[] {
  const tok = tokenizer(fam);
  const t = (s: string) => tok.encodeText(s).ids;
  return fam === "qwen3"
    ? [Q.toolCall, ...t('\n{"name": "get_weather", "arguments": {"city": "Paris"\n'), Q.toolCallEnd, Q.imEnd]
    : [
        I.actionStart,
        I.plugin,
        ...t('\n{"name": "get_weather", "parameters": {"city": "Paris" x'),
        I.actionEnd,
        I.imEnd,
      ];
}

for (const fam of FAMILIES) {
  describe.skipIf(!fam.available)(`incremental tool-call streaming, ${fam.name}, openai client`, () => {
    let srv: Running;
    let perCall: Running;
    let broken: Running | undefined;
    beforeAll(async () => {
      const tok = tokenizer(fam.name);
      const script = builtinReplayScript(tok);
      srv = await start(tok, createReplayEngine({ script: () => script }));
      perCall = await start(tok, createReplayEngine({ script: () => script }), {
        toolCallStreaming: "per-call",
      });
      if (fam.name !== "chatglm3") {
        const b = brokenScript(fam.name);
        broken = await start(tok, createReplayEngine({ script: () => b }));
      }
    });
    afterAll(async () => {
      await srv.close();
      await perCall.close();
      await broken?.close();
    });

    const argumentDeltas = async (url: string) => {
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
      const runner = client.chat.completions.stream({ model: "test-model", messages: USER, tools: TOOLS });
      const deltas = new Map<number, string[]>();
      runner.on("tool_calls.function.arguments.delta", (e) => {
        const list = deltas.get(e.index) ?? [];
        if (e.arguments_delta !== "") list.push(e.arguments_delta); // the header's arguments ""
        deltas.set(e.index, list);
      });
      const final = await runner.finalChatCompletion();
      return { deltas, final };
    };

    it("stream(): argument deltas arrive token by token and reassemble exactly", async () => {
      const { deltas, final } = await argumentDeltas(srv.url);
      const calls = final.choices[0]?.message.tool_calls ?? [];
      expect(
        calls.map((c) =>
          c.type === "function" ? { name: c.function.name, args: JSON.parse(c.function.arguments) } : c,
        ),
      ).toEqual(EXPECT[fam.name].calls);
      expect(final.choices[0]?.finish_reason).toBe("tool_calls");
      for (const [i, list] of deltas) {
        const call = calls[i];
        expect(list.join("")).toBe(call?.type === "function" ? call.function.arguments : "");
        // JSON families stream several fragments per call; ChatGLM3 (Python call syntax,
        // converted at the end) sends exactly one.
        if (fam.name === "chatglm3") expect(list.length).toBe(1);
        else expect(list.length).toBeGreaterThan(2);
      }
    });

    it("--tool-call-streaming per-call: the same final message", async () => {
      const a = await argumentDeltas(srv.url);
      const b = await argumentDeltas(perCall.url);
      const strip = (r: typeof a) =>
        (r.final.choices[0]?.message.tool_calls ?? []).map((c) => ({ ...c, id: "" }));
      expect(strip(b)).toEqual(strip(a));
    });

    it.skipIf(fam.name === "chatglm3")(
      "a call malformed after its header: the client throws, it never completes with the half call",
      async () => {
        const url = broken?.url ?? "";
        const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
        const runner = client.chat.completions.stream({ model: "test-model", messages: USER, tools: TOOLS });
        await expect(runner.finalChatCompletion()).rejects.toThrow(/malformed after its arguments began/);
        const log = broken?.logs.at(-1);
        expect(log?.outcome).toBe("malformed-tool-call");
        expect(log?.malformed_tool_calls).toBe(1);
        // Non-streaming is always per-call: the text comes back as content.
        const r = await client.chat.completions.create({ model: "test-model", messages: USER, tools: TOOLS });
        expect(r.choices[0]?.message.tool_calls ?? []).toEqual([]);
        expect(r.choices[0]?.message.content).toContain('"city": "Paris"');
        expect(r.choices[0]?.finish_reason).toBe("stop");
      },
    );
  });
}
