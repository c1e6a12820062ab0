// POST /v1/chat/completions: map the request (400 for what cannot be honoured), wait for a slot,
// encode it with chatwire (caller text never becomes a reserved ID; the audit count goes to the
// log), generate, and answer as SSE chunks or one chat.completion (docs/serve.md).
import type { ServerResponse } from "node:http";
import {
  type ChatCompletionChunk,
  ChunkWriter,
  CompletionBuilder,
  type MappedRequest,
  mapChatCompletionParams,
  RequestError,
  SSE_DONE,
  type StreamError,
  sseData,
  toolChoicePrefill,
} from "@chatwire/openai";
import { createDecoder } from "@chatwire/stream-decoder";
import { TokenizerError } from "@chatwire/tokenizer";
import type { RequestLog, ServerContext } from "../context.ts";
import { runGeneration } from "../generate.ts";
import { sendEngineFailure, sendError, sendJson } from "../http/respond.ts";
import { SseWriter } from "../http/sse.ts";
import { tokenizerErrorParam } from "../http/tokenizer-error.ts";
import { reportIgnored } from "../ignored-fields.ts";
import { waitForSlot } from "../slot.ts";
import { fittingMaxTokens, type GenerationRoute, mapOptions, sendModelNotFound } from "./mapping.ts";
import { refuse } from "./refuse.ts";

export const chatCompletions: GenerationRoute = async (ctx, body, req, res, log, t0, deadline, held) => {
  const mapped = mapChatCompletionParams(body, mapOptions(ctx));
  if (RequestError.isInstance(mapped)) return sendError(res, 400, mapped.type, mapped.message, mapped.param);
  if (mapped.ignored.length > 0) reportIgnored(mapped.ignored, res, log);
  if (mapped.model !== ctx.modelId) return sendModelNotFound(res, ctx, mapped.model);
  log.stream = mapped.stream;
  const readAt = performance.now();
  // The slot before the encode: a request refused (429) or timed out in the queue costs none.
  const got = await waitForSlot(ctx.limiter, req, deadline, held);
  if ("refused" in got) return refuse(res, got.refused, log);
  log.queue_ms = Math.round(performance.now() - readAt);
  try {
    await withSlot(ctx, mapped, body, res, log, t0, deadline, readAt);
  } finally {
    got.slot.release();
  }
};

/** The request from its encode on, holding a generation slot. */
async function withSlot(
  ctx: ServerContext,
  mapped: MappedRequest,
  body: unknown,
  res: ServerResponse,
  log: RequestLog,
  t0: number,
  deadline: AbortSignal,
  readAt: number,
): Promise<void> {
  const slotAt = performance.now();
  let promptIds: number[];
  try {
    const enc = ctx.tokenizer.encodeChat(mapped.chat);
    promptIds = enc.ids;
    log.audit = enc.audit.length;
  } catch (e) {
    if (TokenizerError.isInstance(e)) return sendError(res, 400, e.type, e.message, tokenizerErrorParam(e));
    throw e;
  }
  // tool_choice required / named: the assistant turn starts with the call's opening (prefill).
  const prefill = toolChoicePrefill(
    ctx.prefill,
    mapped.chat,
    mapped.toolChoice,
    Array.isArray(mapped.chat.tools) ? mapped.chat.tools.length : 0,
  );
  if (RequestError.isInstance(prefill))
    return sendError(res, 400, prefill.type, prefill.message, prefill.param);
  // This request's prompt decides whether the generation starts inside the reasoning block
  // (e.g. chat_template_kwargs.enable_thinking). A forced call cannot wait for the reasoning to
  // end (that needs constrained decoding), so a prefill after an open block closes it first:
  // the close goes into the prompt and the model answers without reasoning.
  let spec = ctx.specFor(promptIds);
  if (prefill.ids.length > 0 && spec.startInReasoning) {
    if (ctx.startBlockClose === undefined)
      return sendError(
        res,
        400,
        "unsupported-parameter",
        "tool_choice: required / named are not supported when the prompt leaves the reasoning block open and the format has no marker to close it",
        "tool_choice",
      );
    promptIds = [...promptIds, ctx.startBlockClose];
    spec = ctx.specFor(promptIds);
  }
  if (prefill.ids.length > 0) {
    const hit = mapped.sampling.stop.find((s) => prefill.text.includes(s));
    if (hit !== undefined)
      return sendError(
        res,
        400,
        "unsupported-parameter",
        `stop string ${JSON.stringify(hit.slice(0, 40))} occurs in the tool_choice prefill, so the call could never be generated`,
        "stop",
      );
    promptIds = [...promptIds, ...prefill.ids];
  }
  log.prompt_tokens = promptIds.length;
  const maxTokens = fittingMaxTokens(res, ctx, body, mapped.sampling.maxTokens, promptIds.length, "messages");
  if (maxTokens === undefined) return;
  const encodedAt = performance.now();
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  res.on("close", onClose);
  try {
    const sse = mapped.stream ? new SseWriter(res) : undefined;
    const builder = sse === undefined ? new CompletionBuilder() : undefined;
    let firstOutput = false;
    let roleSent = false;
    let batchAt = 0;
    const sink = {
      chunk(c: ChatCompletionChunk): void {
        if (roleSent && !firstOutput && c.choices.length > 0) {
          firstOutput = true;
          const now = performance.now();
          log.ttft_ms = round1(now - t0);
          // What chatwire added before this first output: reading the body, encoding, plus
          // decoding + chunking + writing since the engine batch that produced it arrived.
          log.chatwire_ttft_ms = round1(readAt - t0 + (encodedAt - slotAt) + (now - batchAt));
        }
        roleSent = true;
        if (sse !== undefined) sse.write(sseData(c));
        else builder?.chunk(c);
      },
      // Incremental tool-call streaming only (so streaming only): a call whose header went out
      // failed; the response ends with this error event instead of a finish_reason.
      error(e: StreamError): void {
        sse?.write(sseData(e));
      },
    };
    const writer = new ChunkWriter(sink, {
      format: ctx.tokenizer.format,
      ...(ctx.grammar === undefined ? {} : { grammar: ctx.grammar }),
      model: ctx.modelId,
      reasoningField: ctx.reasoningField,
      toolCalls: mapped.toolCalls,
      parallelToolCalls: mapped.parallelToolCalls,
      includeUsage: mapped.includeUsage,
      toolCallStreaming: sse !== undefined ? ctx.toolCallStreaming : "per-call",
      jsonContent: mapped.sampling.responseFormat !== undefined,
    });
    const decoder = createDecoder(spec, writer, {
      streamToolCalls: true,
      // The request's tools: a family whose calls are plain model text (Llama 3.x) detects them
      // only with these, and one that writes values as text (Qwen3-Coder) types them by schema.
      ...(Array.isArray(mapped.chat.tools) && mapped.chat.tools.length > 0
        ? { tools: mapped.chat.tools }
        : {}),
      // The prefill IDs are pushed first (they are prompt, not completion, tokens).
      maxTokens: maxTokens + prefill.ids.length,
      ...(mapped.sampling.stop.length > 0 ? { stopStrings: mapped.sampling.stop } : {}),
    });
    writer.start();
    // The decoder starts inside the prefilled opening: its events (e.g. the named call's
    // header) go to the client once, the engine never generates these IDs.
    for (const id of prefill.ids) decoder.push(id);
    let engineFirst = 0;
    const run = await runGeneration({
      engine: ctx.engine,
      promptIds,
      sampling: { ...mapped.sampling, maxTokens },
      decoder,
      signal: gone.signal,
      deadline,
      shouldStop: () => writer.wantsStop,
      ...(sse !== undefined ? { ready: () => sse.ready() } : {}),
      onBatch: () => {
        batchAt = performance.now();
      },
      onFirstId: () => {
        engineFirst = performance.now();
        log.engine_first_ms = round1(engineFirst - t0);
        // The 200 waits for the engine's first ID: a failure before it is a 5xx status.
        sse?.open();
      },
    });
    log.outcome = run.outcome;
    log.completion_tokens = run.completionTokens;
    log.decoder_errors = writer.decoderErrors.count;
    log.malformed_tool_calls = writer.malformedCalls;
    if (run.outcome === "aborted") {
      log.status = 499;
      return;
    }
    log.stop = run.outcome === "timeout" ? "timeout" : (writer.stopReason ?? "end_of_input");
    if (run.outcome === "engine-error") {
      if (run.error !== undefined) log.error = run.error.slice(0, 400);
      // Before the first ID the stream is not open yet: the failure is a 502/504 JSON error.
      log.status = sendEngineFailure(res, sse?.isOpen === true ? sse : undefined, run.errorType, run.error);
      return;
    }
    const finish = writer.finish(promptIds.length, run.completionTokens);
    if (writer.failedCall !== undefined) {
      log.outcome = "malformed-tool-call";
      log.error = writer.failedCall.error.message;
    } else log.finish_reason = finish;
    if (sse !== undefined) {
      sse.write(SSE_DONE);
      sse.end();
      log.status = 200;
    } else if (builder !== undefined) {
      const n = run.completionTokens;
      sendJson(
        res,
        200,
        builder.result({
          prompt_tokens: promptIds.length,
          completion_tokens: n,
          total_tokens: promptIds.length + n,
        }),
      );
      log.status = 200;
    }
  } finally {
    res.off("close", onClose);
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
