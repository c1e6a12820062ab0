// What both generation routes do before they wait for a slot: map the request with the server's
// limits and the engine's honoured sampling parameters, and refuse a model this server does not serve.
import type { ServerResponse } from "node:http";
import type { MapOptions } from "@chatwire/openai";
import type { ServerContext } from "../context.ts";
import { sendError } from "../http/respond.ts";

export function mapOptions(ctx: ServerContext): MapOptions {
  return {
    defaultMaxTokens: ctx.limits.defaultMaxTokens,
    maxTokensLimit: ctx.limits.maxModelLen,
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
