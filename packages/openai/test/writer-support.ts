// Runs token IDs through the real decoder into a ChunkWriter and reassembles the chunks the way
// an OpenAI client does (by tool-call index), recording any breach of the delta discipline.
import { compileDecoderSpecFor, createDecoder, type DecoderSpec } from "@chatwire/stream-decoder";
import type { ChatTokenizer } from "@chatwire/tokenizer";
import { loadTokenizerSync } from "@chatwire/tokenizer/node";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { Qwen3Key } from "../../tokenizer/src/families/qwen3/definition.ts";
import {
  type ChatCompletionChunk,
  ChunkWriter,
  type ChunkWriterOptions,
  type StreamError,
} from "../src/index.ts";

let qwen: ChatTokenizer | undefined;
export function qwen3(): ChatTokenizer {
  qwen ??= loadTokenizerSync("qwen3");
  return qwen;
}

/** Qwen3's reserved IDs by key. */
export const Q = tokenIds<Qwen3Key>(qwen3);
/** The IDs of plain text (Qwen3). */
export const qwenText = (s: string): number[] => qwen3().encodeText(s).ids;
/** A Qwen3 tool call: its JSON on its own line between <tool_call> and </tool_call>. */
export const qwenCall = (json: string): number[] => [Q.toolCall, ...qwenText(`\n${json}\n`), Q.toolCallEnd];
/** Parallel calls as Qwen3 writes them (a newline between two), then <|im_end|>. */
export const qwenCallTurn = (...jsons: readonly string[]): number[] => [
  ...jsons.flatMap((json, i) => (i === 0 ? qwenCall(json) : [...qwenText("\n"), ...qwenCall(json)])),
  Q.imEnd,
];

const specs = new Map<ChatTokenizer, DecoderSpec>();

export interface Reassembled {
  readonly chunks: ChatCompletionChunk[];
  readonly content: string;
  readonly reasoning: string;
  readonly calls: { id: string; name: string; arguments: string }[];
  readonly finish: string[];
  readonly breaches: string[];
  readonly writer: ChunkWriter;
  /** sink.error() calls (incremental mode: a call failed after its header went out). */
  readonly errors: StreamError[];
  /** After each pushed ID (prefill included): how many chunks had been sent. */
  readonly chunksAfter: number[];
}

export function runWriter(
  tok: ChatTokenizer,
  ids: readonly number[],
  options: Partial<ChunkWriterOptions> = {},
  decoderOptions: { maxTokens?: number; stopStrings?: string[]; tools?: readonly unknown[] } = {},
  prefill: readonly number[] = [],
): Reassembled {
  const chunks: ChatCompletionChunk[] = [];
  const errors: StreamError[] = [];
  const chunksAfter: number[] = [];
  const writer = new ChunkWriter(
    { chunk: (c) => chunks.push(c), error: (e) => errors.push(e) },
    { format: tok.format, model: "m", random: () => "0".repeat(24), created: 1, ...options },
  );
  let spec = specs.get(tok);
  if (spec === undefined) {
    spec = compileDecoderSpecFor(tok);
    specs.set(tok, spec);
  }
  const decoder = createDecoder(spec, writer, {
    streamToolCalls: true,
    ...decoderOptions,
    ...(decoderOptions.maxTokens !== undefined
      ? { maxTokens: decoderOptions.maxTokens + prefill.length }
      : {}),
  });
  writer.start();
  for (const id of prefill) decoder.push(id);
  for (const id of ids) {
    decoder.push(id);
    chunksAfter.push(chunks.length);
    if (decoder.stopped || writer.wantsStop) break;
  }
  decoder.end();
  writer.finish(0, ids.length);
  let content = "";
  let reasoning = "";
  const calls: Reassembled["calls"] = [];
  const finish: string[] = [];
  const breaches: string[] = [];
  for (const c of chunks)
    for (const ch of c.choices) {
      content += ch.delta.content ?? "";
      reasoning += ch.delta.reasoning_content ?? ch.delta.reasoning ?? "";
      for (const t of ch.delta.tool_calls ?? []) {
        if (t.function.arguments === "" && t.id === undefined) breaches.push("empty fragment");
        const cur = calls[t.index];
        if (t.id !== undefined) {
          if (cur !== undefined) breaches.push(`call ${t.index} header sent twice`);
          if (t.index !== calls.length) breaches.push(`call index ${t.index} not next`);
          if (t.function.arguments !== "") breaches.push("header carries arguments");
          if (!t.function.name) breaches.push("header without name");
          calls[t.index] = { id: t.id, name: t.function.name ?? "", arguments: "" };
        } else {
          if (cur === undefined) breaches.push(`fragment before header of call ${t.index}`);
          if (t.function.name !== undefined || t.type !== undefined) breaches.push("name/type re-sent");
          if (cur) cur.arguments += t.function.arguments;
        }
      }
      if (ch.finish_reason !== null) finish.push(ch.finish_reason);
    }
  return { chunks, content, reasoning, calls, finish, breaches, writer, errors, chunksAfter };
}
