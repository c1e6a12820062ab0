// tool_choice "required" / named end to end with the official `openai` client, per family: the
// prompt the engine receives ends with the format's tool-call opening (prefill), the replay
// engine plays what a model would write next, and the client reassembles one call of the
// chosen function. The continuations are written by hand per format.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { ChatGLM3Key } from "../../tokenizer/src/families/chatglm3/definition.ts";
import type { InternLM2Key } from "../../tokenizer/src/families/internlm2/definition.ts";
import type { Qwen3Key } from "../../tokenizer/src/families/qwen3/definition.ts";
import { createReplayEngine } from "../src/index.ts";
import { FAMILIES, type Running, routedClient, runnableWeather, start, tokenizer } from "./support.ts";

const Q = tokenIds<Qwen3Key>(() => tokenizer("qwen3"));
const I = tokenIds<InternLM2Key>(() => tokenizer("internlm2"));
const G = tokenIds<ChatGLM3Key>(() => tokenizer("chatglm3"));

const USER = [{ role: "user" as const, content: "Weather in Paris?" }];
const fn = (name: string) => ({
  type: "function" as const,
  function: { name, parameters: { type: "object", properties: { city: { type: "string" } } } },
});
const TOOLS = [fn("get_weather"), fn("get_time")];

type Fam = "qwen3" | "internlm2" | "chatglm3";
/** What the model writes after the named prefill (get_weather). */
function afterNamed(fam: Fam): number[] {
  const t = (s: string) => tokenizer(fam).encodeText(s).ids;
  if (fam === "qwen3") return [...t(' {"city": "Paris"}}\n'), Q.toolCallEnd, Q.imEnd];
  if (fam === "internlm2") return [...t(' {"city": "Paris"}}'), I.actionEnd, I.imEnd];
  return [...t(" ```python\ntool_call(city='Paris')\n```"), G.observation];
}
/** What the model writes after the "required" prefill (it picks get_time). */
function afterRequired(fam: Fam): number[] {
  const t = (s: string) => tokenizer(fam).encodeText(s).ids;
  if (fam === "qwen3")
    return [...t('{"name": "get_time", "arguments": {"city": "Paris"}}\n'), Q.toolCallEnd, Q.imEnd];
  return [...t('\n{"name": "get_time", "parameters": {"city": "Paris"}}'), I.actionEnd, I.imEnd];
}

for (const fam of FAMILIES) {
  describe.skipIf(!fam.available)(`tool_choice by prefill, ${fam.name}, openai client`, () => {
    let srv: Running;
    let lastPrompt: readonly number[] = [];
    let mode: "named" | "required" = "named";
    let client: OpenAI;
    beforeAll(async () => {
      const tok = tokenizer(fam.name);
      srv = await start(
        tok,
        createReplayEngine({
          script: (prompt) => {
            lastPrompt = prompt;
            return mode === "named" ? afterNamed(fam.name) : afterRequired(fam.name);
          },
        }),
      );
      client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "unused", maxRetries: 0 });
    });
    afterAll(async () => srv.close());

    const named = { type: "function" as const, function: { name: "get_weather" } };

    it("named: stream() reassembles one call of that function; the prompt ends with the opening", async () => {
      mode = "named";
      const final = await client.chat.completions
        .stream({ model: "test-model", messages: USER, tools: TOOLS, tool_choice: named })
        .finalChatCompletion();
      const calls = final.choices[0]?.message.tool_calls ?? [];
      expect(
        calls.map((c) => (c.type === "function" ? [c.function.name, JSON.parse(c.function.arguments)] : c)),
      ).toEqual([["get_weather", { city: "Paris" }]]);
      expect(final.choices[0]?.finish_reason).toBe("tool_calls");
      const tok = tokenizer(fam.name);
      const plain = tok.encodeChat({ messages: USER, tools: TOOLS }).ids;
      expect(lastPrompt.slice(0, plain.length)).toEqual(plain);
      const opening = tok.decode(lastPrompt.slice(plain.length), { reserved: "name" } as never);
      expect(opening).toContain("get_weather");
      // Usage counts the prefill as prompt, not completion, tokens.
      const r = await client.chat.completions.create({
        model: "test-model",
        messages: USER,
        tools: TOOLS,
        tool_choice: named,
      });
      expect(r.usage?.prompt_tokens).toBe(lastPrompt.length);
      // Generation stops at the named call's end (one call): the trailing EOS may go unread.
      const n = afterNamed(fam.name).length;
      expect([n - 1, n]).toContain(r.usage?.completion_tokens);
      expect(r.choices[0]?.message.tool_calls?.length).toBe(1);
    });

    it("named: runTools() calls the function", async () => {
      mode = "named";
      const seen: unknown[] = [];
      const routed = routedClient(() => srv.url);
      const runner = routed.client.chat.completions.runTools({
        model: "test-model",
        messages: USER,
        stream: true,
        tool_choice: named,
        tools: [runnableWeather(seen, "21 C", TOOLS[0]?.function.parameters)],
      });
      // runTools stops after a forced named call has been answered (the client's rule).
      await runner.done();
      expect(seen).toEqual([{ city: "Paris" }]);
      expect(routed.rounds()).toBe(1);
    });

    if (fam.name === "chatglm3")
      it('"required" with several tools: a typed 400 (the call opens with the name)', async () => {
        const err = await client.chat.completions
          .create({ model: "test-model", messages: USER, tools: TOOLS, tool_choice: "required" })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(OpenAI.BadRequestError);
        expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("unsupported-parameter");
      });
    else
      it('"required": the model picks the function after the opening; create({stream}) iterated', async () => {
        mode = "required";
        const stream = await client.chat.completions.create({
          model: "test-model",
          messages: USER,
          tools: TOOLS,
          tool_choice: "required",
          stream: true,
        });
        let name = "";
        let args = "";
        for await (const c of stream)
          for (const tc of c.choices[0]?.delta.tool_calls ?? []) {
            name += tc.function?.name ?? "";
            args += tc.function?.arguments ?? "";
          }
        expect([name, JSON.parse(args)]).toEqual(["get_time", { city: "Paris" }]);
      });
  });
}
