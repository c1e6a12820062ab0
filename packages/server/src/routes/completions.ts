// POST /v1/completions: a text prompt (encoded by chatwire as ordinary text: a marker string in
// it is text, counted in the audit) or a token-ID prompt (passed as is); output as
// text_completion objects, streamed or not. finish_reason: "length" for max_tokens, else "stop".
import type { ServerResponse } from "node:http";
import {
  type MappedCompletion,
  mapCompletionParams,
  RequestError,
  randomHex24,
  SSE_DONE,
  sseData,
} from "@chatwire/openai";
import { createDecoder } from "@chatwire/stream-decoder";
import type { RequestLog, ServerContext } from "../context.ts";
import { runGeneration } from "../generate.ts";
import { sendEngineFailure, sendError, sendJson } from "../http/respond.ts";
import { SseWriter } from "../http/sse.ts";
import { reportIgnored } from "../ignored-fields.ts";
import { waitForSlot } from "../slot.ts";
import { TextSink } from "../text-sink.ts";
import { fittingMaxTokens, type GenerationRoute, mapOptions, sendModelNotFound } from "./mapping.ts";
import { refuse } from "./refuse.ts";

export const completions: GenerationRoute = async (ctx, body, req, res, log, t0, deadline, held) => {
  const m = mapCompletionParams(body, mapOptions(ctx));
  if (RequestError.isInstance(m)) return sendError(res, 400, m.type, m.message, m.param);
  if (m.ignored.length > 0) reportIgnored(m.ignored, res, log);
  if (m.model !== ctx.modelId) return sendModelNotFound(res, ctx, m.model);
  log.stream = m.stream;
  // The slot before the encode: a request refused (429) or timed out in the queue costs none.
  const got = await waitForSlot(ctx.limiter, req, deadline, held);
  if ("refused" in got) return refuse(res, got.refused, log);
  try {
    await withSlot(ctx, m, body, res, log, t0, deadline);
  } finally {
    got.slot.release();
  }
};

/** The request from its encode on, holding a generation slot. */
async function withSlot(
  ctx: ServerContext,
  m: MappedCompletion,
  body: unknown,
  res: ServerResponse,
  log: RequestLog,
  t0: number,
  deadline: AbortSignal,
): Promise<void> {
  let promptIds: readonly number[];
  if ("text" in m.prompt) {
    const enc = ctx.tokenizer.encodeText(m.prompt.text);
    promptIds = enc.ids;
    log.audit = enc.audit.length;
  } else promptIds = m.prompt.ids;
  log.prompt_tokens = promptIds.length;
  const maxTokens = fittingMaxTokens(res, ctx, body, m.sampling.maxTokens, promptIds.length, "prompt");
  if (maxTokens === undefined) return;
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  res.on("close", onClose);
  try {
    const id = `cmpl-${randomHex24()}`;
    const created = Math.floor(Date.now() / 1000);
    const obj = (text: string, finish: string | null) => ({
      id,
      object: "text_completion",
      created,
      model: ctx.modelId,
      choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
    });
    const sse = m.stream ? new SseWriter(res) : undefined;
    const parts: string[] = [];
    const sink = new TextSink((text) => {
      if (log.ttft_ms === undefined) log.ttft_ms = Math.round((performance.now() - t0) * 10) / 10;
      if (sse !== undefined) sse.write(sseData(obj(text, null)));
      else parts.push(text);
    });
    // A token-ID prompt may leave the reasoning block open: its markers are then not misplaced.
    const decoder = createDecoder(ctx.specFor(promptIds), sink, {
      maxTokens,
      ...(m.sampling.stop.length > 0 ? { stopStrings: m.sampling.stop } : {}),
    });
    const run = await runGeneration({
      engine: ctx.engine,
      promptIds,
      sampling: { ...m.sampling, maxTokens },
      decoder,
      signal: gone.signal,
      deadline,
      ...(sse !== undefined ? { ready: () => sse.ready() } : {}),
      // The 200 waits for the engine's first ID: a failure before it is a 5xx status.
      onFirstId: () => sse?.open(),
    });
    log.outcome = run.outcome;
    log.completion_tokens = run.completionTokens;
    log.decoder_errors = sink.errors;
    if (run.outcome === "aborted") return;
    log.stop = run.outcome === "timeout" ? "timeout" : (sink.stop?.reason ?? "end_of_input");
    if (run.outcome === "engine-error") {
      if (run.error !== undefined) log.error = run.error.slice(0, 400);
      // Before the first ID the stream is not open yet: the failure is a 502/504 JSON error.
      log.status = sendEngineFailure(res, sse?.isOpen === true ? sse : undefined, run.errorType, run.error);
      return;
    }
    const finish = sink.stop?.reason === "max_tokens" ? "length" : "stop";
    log.finish_reason = finish;
    const usage = {
      prompt_tokens: promptIds.length,
      completion_tokens: run.completionTokens,
      total_tokens: promptIds.length + run.completionTokens,
    };
    if (sse !== undefined) {
      sse.write(sseData(obj("", finish)));
      if (m.includeUsage)
        sse.write(
          sseData({ id, object: "text_completion", created, model: ctx.modelId, choices: [], usage }),
        );
      sse.write(SSE_DONE);
      sse.end();
    } else sendJson(res, 200, { ...obj(parts.join(""), finish), usage });
  } finally {
    res.off("close", onClose);
  }
}
