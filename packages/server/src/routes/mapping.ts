// What both generation routes share: their signature and, before they wait for a slot, the
// mapping of the request with the server's limits and the engine's honoured sampling parameters,
// and the refusal of a model this server does not serve.
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
