// Test helpers: a chatwire server on 127.0.0.1 (any free port) over a given engine, its log
// lines collected, and the tokenizers of every family (InternLM2/ChatGLM3 only with fixtures).

import { request } from "node:http";
import type { AnyTokenizer } from "@chatwire/tokenizer";
import OpenAI from "openai";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import {
  type ChatwireServer,
  createChatwireServer,
  type Engine,
  type RequestLog,
  type ServeLimits,
} from "../src/index.ts";

export { tokenizer } from "../../stream-decoder/test/models.ts";

export const FAMILIES = [
  { name: "qwen3", available: true },
  { name: "internlm2", available: haveFixtures() },
  { name: "chatglm3", available: haveFixtures() },
] as const;

export interface Running {
  readonly url: string;
  readonly server: ChatwireServer;
  readonly logs: RequestLog[];
  close(): Promise<void>;
}

export async function start(
  tok: AnyTokenizer,
  engine: Engine,
  extra: {
    limits?: Partial<ServeLimits>;
    apiKey?: string;
    reasoningField?: "reasoning";
    toolCallStreaming?: "incremental" | "per-call";
    unknownFields?: "reject" | "ignore";
  } = {},
): Promise<Running> {
  const logs: RequestLog[] = [];
  const server = createChatwireServer({
    tokenizer: tok,
    engine,
    modelId: "test-model",
    log: (l) => logs.push(l),
    drainTimeoutMs: 5_000,
    ...extra,
  });
  const url = await server.listen(0);
  return { url, server, logs, close: () => server.close() };
}

// What each family's built-in script says (engines/replay-script.ts: the scenario as each
// family's template renders it), written out by hand.
/** The scenario's answer and calls, the same in every family. */
const SCENARIO = {
  content: "Let me check the weather in Paris and Tokyo — one moment.",
  calls: [
    { name: "get_weather", args: { city: "Paris", unit: "celsius" } },
    { name: "get_weather", args: { city: "Tokyo", unit: "celsius" } },
  ],
} as const;

export const EXPECT = {
  qwen3: {
    ...SCENARIO,
    reasoning: "The user asks about the weather in two cities; I will call the tool twice.",
  },
  // Neither template writes reasoning.
  internlm2: { ...SCENARIO, reasoning: undefined },
  chatglm3: { ...SCENARIO, reasoning: undefined },
} as const;

/** The question and the one tool the tool-calling suites send. */
export const WEATHER_QUESTION = [
  { role: "user" as const, content: "What is the weather in Paris and Tokyo?" },
];
export const WEATHER_TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "Current weather",
      parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string" } } },
    },
  },
];

/** get_weather as the openai client's runTools runs it: each call's arguments go to `seen`, the tool answers `answer`. */
export function runnableWeather(
  seen: unknown[],
  answer: unknown,
  parameters: Record<string, unknown> = WEATHER_TOOLS[0]?.function.parameters ?? {},
) {
  return {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "Current weather",
      parameters,
      function: (args: unknown) => {
        seen.push(args);
        return answer;
      },
      parse: (s: string): unknown => JSON.parse(s),
    },
  };
}

/**
 * An OpenAI client whose n-th request (from 0) goes to the server at `urlFor(n)` (the same path),
 * so a tool loop can move between servers; `rounds()` is how many requests it has made.
 */
export function routedClient(urlFor: (round: number) => string): { client: OpenAI; rounds(): number } {
  let round = 0;
  const client = new OpenAI({
    baseURL: `${urlFor(0)}/v1`,
    apiKey: "unused",
    maxRetries: 0,
    fetch: (input: string | URL | Request, init?: RequestInit) => {
      const u = new URL(String(input instanceof Request ? input.url : input));
      return fetch(`${urlFor(round++)}${u.pathname}${u.search}`, init);
    },
  });
  return { client, rounds: () => round };
}

export interface PostResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** POSTs `body` (sent as is, JSON content type) to `url` + `path` with node:http; resolves once the whole answer is read. */
export function post(
  url: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<PostResponse> {
  return new Promise((resolve, reject) => {
    const r = request(
      `${url}${path}`,
      { method: "POST", headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let b = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          b += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b }));
      },
    );
    r.on("error", reject);
    r.end(body);
  });
}

/** POSTs the chat request `body` to the server's /v1/chat/completions with fetch. */
export function fetchChat(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The weather question with WEATHER_TOOLS as a streamed completion with usage, as the tool-calling suites read it. */
export function streamWeather(client: OpenAI) {
  return client.chat.completions.create({
    model: "test-model",
    messages: WEATHER_QUESTION,
    tools: WEATHER_TOOLS,
    stream: true,
    stream_options: { include_usage: true },
  });
}
