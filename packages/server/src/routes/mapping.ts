// What both generation routes share: their signature and, before they wait for a slot, the
// mapping of the request with the server's limits and the engine's honoured sampling parameters,
// the refusal of a model this server does not serve, and the max_tokens a generation gets.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MapOptions } from "@chatwire/openai";
import type { RequestLog, ServerContext } from "../context.ts";
import type { Lease } from "../http/budget.ts";
import { sendError } from "../http/respond.ts";

/**
 * A generation route: the parsed body, the request and its response, the log record, the start
 * time (performance.now()), the request deadline and the lease of its body budget.
 */
export type GenerationRoute = (
  ctx: ServerContext,
  body: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  log: RequestLog,
  t0: number,
  deadline: AbortSignal,
  held: Lease,
) => Promise<void>;

/** The mapping options of both generation routes: the server's limits, model, engine and unknown-field rule. */
export function mapOptions(ctx: ServerContext): MapOptions & { readonly vocabSize: number } {
  return {
    defaultMaxTokens: ctx.limits.defaultMaxTokens,
    maxTokensLimit: ctx.limits.maxModelLen,
    vocabSize: ctx.spec.classes.length,
    unknownFields: ctx.unknownFields,
    ...(ctx.engine.sampling !== undefined
      ? { engine: { name: ctx.engine.name, honours: ctx.engine.sampling } }
      : {}),
  };
}

/** The 404 for a request naming another model. */
export function sendModelNotFound(res: ServerResponse, ctx: ServerContext, model: string): void {
  sendError(
    res,
    404,
    "model-not-found",
    `the model ${JSON.stringify(model.slice(0, 80))} does not exist; this server serves ${JSON.stringify(ctx.modelId)}`,
    "model",
  );
}

/**
 * The generation's max_tokens (`mapped`: the mapped request's, undefined for the server's
 * default): the request's own when it set max_tokens or max_completion_tokens; else the default
 * cut to what the prompt leaves of maxModelLen, as vLLM does, so a request without it is never
 * refused for the default's sake. When the prompt and it do not fit (or the prompt leaves no
 * room), the 400 context-length-exceeded is sent (`param` names the prompt's field) and the
 * result is undefined.
 */
export function fittingMaxTokens(
  res: ServerResponse,
  ctx: ServerContext,
  body: unknown,
  mapped: number | undefined,
  promptTokens: number,
  param: string,
): number | undefined {
  const b = typeof body === "object" && body !== null ? (body as Readonly<Record<string, unknown>>) : {};
  const given = (k: string) => Object.hasOwn(b, k) && b[k] !== null && b[k] !== undefined;
  const max = ctx.limits.maxModelLen;
  const asked = mapped ?? ctx.limits.defaultMaxTokens;
  const maxTokens =
    given("max_tokens") || given("max_completion_tokens") ? asked : Math.min(asked, max - promptTokens);
  if (maxTokens >= 1 && promptTokens + maxTokens <= max) return maxTokens;
  sendError(
    res,
    400,
    "context-length-exceeded",
    maxTokens < 1
      ? `the prompt (${promptTokens} tokens) leaves no room for output within ${max} tokens`
      : `the prompt (${promptTokens} tokens) plus max_tokens (${maxTokens}) exceeds ${max} tokens`,
    param,
  );
  return undefined;
}
