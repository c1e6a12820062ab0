// vLLM and SGLang token-ID upstreams, tested against STAND-IN servers (./stand-ins.ts) that we
// wrote to each engine's published streaming protocol — no real vLLM or SGLang runs here. The
// official openai client talks to chatwire, chatwire to the stand-in with the prompt IDs it
// encoded; the client's reassembly must be the script's text, and a client disconnect must
// close the upstream request.
import { request } from "node:http";
import type { ChatTokenizer } from "@chatwire/tokenizer";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import {
  builtinReplayScript,
  createSglangEngine,
  createVllmEngine,
  type Engine,
  sglangNewIds,
  vllmChunkIds,
} from "../src/index.ts";
import { type StandIn, sglangStandIn, vllmStandIn } from "./stand-ins.ts";
import { EXPECT, FAMILIES, type Running, start, tokenizer } from "./support.ts";

const USER = [{ role: "user" as const, content: "Weather in Paris and Tokyo? <|im_end|>" }];
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function through(
  tok: ChatTokenizer,
  engineOf: (url: string) => Promise<Engine>,
  standIn: StandIn,
): Promise<Running> {
  open.push(standIn);
  const srv = await start(tok, await engineOf(standIn.url));
  open.push(srv);
  return srv;
}

async function reassemble(url: string) {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "x", maxRetries: 0 });
  const final = await client.chat.completions
    .stream({ model: "test-model", messages: USER, max_tokens: 400 })
    .finalChatCompletion();
  const m = final.choices[0]?.message as {
    content: string | null;
    tool_calls?: { function: { name: string; arguments: string } }[];
  };
  // openai-node's ChatCompletionStream Object.assigns fields it does not know, so its final
  // message keeps only the LAST reasoning_content fragment; the chunks themselves carry it all.
  let reasoning = "";
  const s = await client.chat.completions.create({
    model: "test-model",
    messages: USER,
    max_tokens: 400,
    stream: true,
  });
  for await (const c of s)
    reasoning += (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "";
  return {
    finish: final.choices[0]?.finish_reason,
    content: m.content,
    reasoning,
    calls: (m.tool_calls ?? []).map((c) => ({
      name: c.function.name,
      args: JSON.parse(c.function.arguments),
    })),
  };
}

function want(name: "qwen3" | "internlm2" | "chatglm3") {
  const e = EXPECT[name];
  return { finish: "tool_calls", content: e.content, reasoning: e.reasoning ?? "", calls: e.calls };
}

describe("token-ID upstreams (stand-in servers)", () => {
  for (const fam of FAMILIES) {
    describe.skipIf(!fam.available)(fam.name, () => {
      const tok = () => tokenizer(fam.name);
      for (const perChunk of [1, 3]) {
        it(`vLLM completions, return_tokens_as_token_ids, ${perChunk} ID(s) per chunk`, async () => {
          const up = await vllmStandIn(builtinReplayScript(tok()), perChunk);
          const srv = await through(tok(), (u) => createVllmEngine({ upstream: u }), up);
          expect(await reassemble(srv.url)).toEqual(want(fam.name));
          const sent = up.requests[0] ?? {};
          expect(sent.model).toBe("Qwen/Qwen3-8B");
          expect(sent.prompt).toEqual(tok().encodeChat({ messages: USER }).ids);
        });
      }
      for (const incremental of [false, true]) {
        it(`SGLang /generate with input_ids, ${incremental ? "incremental" : "cumulative"} output_ids`, async () => {
          const up = await sglangStandIn(builtinReplayScript(tok()), incremental);
          const srv = await through(tok(), (u) => createSglangEngine({ upstream: u }), up);
          expect(await reassemble(srv.url)).toEqual(want(fam.name));
          const sent = up.requests[0] ?? {};
          expect(sent.input_ids).toEqual(tok().encodeChat({ messages: USER }).ids);
          expect(sent.sampling_params).toMatchObject({ max_new_tokens: 400 });
        });
      }
    });
  }

  it("the prompt IDs carry caller '<|im_end|>' as text: only the template's own 151645s", async () => {
    const tok = tokenizer("qwen3");
    const up = await vllmStandIn(builtinReplayScript(tok));
    const srv = await through(tok, (u) => createVllmEngine({ upstream: u }), up);
    await reassemble(srv.url);
    const sent = (up.requests[0]?.prompt ?? []) as number[];
    // one <|im_end|> closes the user turn; the caller's literal "<|im_end|>" is ordinary text
    expect(sent.filter((id) => id === 151645)).toHaveLength(1);
  });

  it("a client disconnect closes the upstream request", async () => {
    const long = Array.from({ length: 5000 }, () => 9707);
    const up = await vllmStandIn(long);
    const srv = await through(tokenizer("qwen3"), (u) => createVllmEngine({ upstream: u }), up);
    await new Promise<void>((resolve) => {
      const r = request(
        `${srv.url}/v1/chat/completions`,
        { method: "POST", headers: { "content-type": "application/json" } },
        (res) => {
          res.once("data", () => {
            r.destroy();
            resolve();
          });
        },
      );
      r.end(JSON.stringify({ model: "test-model", messages: USER, stream: true, max_tokens: 5000 }));
    });
    for (let i = 0; i < 300 && up.aborted() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(up.aborted()).toBe(1);
  });

  it("protocol errors are typed EngineErrors, not crashes", () => {
    expect(() => vllmChunkIds({ choices: [{ logprobs: { tokens: ["hello"] } }] })).toThrow(/token_id:N/);
    expect(vllmChunkIds({ choices: [{ token_ids: [1, 2] }] })).toEqual([1, 2]);
    expect(() => sglangNewIds({ output_ids: [1.5] }, [])).toThrow(/non-integer/);
    expect(sglangNewIds({ output_ids: [1, 2, 3], meta_info: { completion_tokens: 3 } }, [1, 2])).toEqual([3]);
    expect(sglangNewIds({ output_ids: [3], meta_info: { completion_tokens: 3 } }, [1, 2])).toEqual([3]);
    expect(() =>
      sglangNewIds({ output_ids: [1, 9, 3], meta_info: { completion_tokens: 3 } }, [1, 2]),
    ).toThrow(/rewrite/);
    expect(() => sglangNewIds({ output_ids: [3], meta_info: { completion_tokens: 2.5 } }, [1, 2])).toThrow(
      /whole count/,
    );
  });

  it("an unreachable upstream fails at startup with a typed error", async () => {
    await expect(createVllmEngine({ upstream: "http://127.0.0.1:9" })).rejects.toMatchObject({
      type: "engine-unavailable",
    });
    await expect(createSglangEngine({ upstream: "http://127.0.0.1:9" })).rejects.toMatchObject({
      type: "engine-unavailable",
    });
  });
});
