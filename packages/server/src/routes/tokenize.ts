// POST /tokenize and /detokenize in vLLM's shapes:
//   {"prompt": "..."} or {"messages": [...], ...chat fields} -> {"count", "max_model_len", "tokens"}
//   {"tokens": [...]}                                        -> {"prompt": "..."}
// `prompt` is encoded as ordinary text (never a reserved ID); `messages` through encodeChat.
// Extra fields: "audit" (how many places looked like a reserved token). A `{prompt}` request's
// unknown fields follow the server's unknownFields rule; a `{messages}` one's are encodeChat's.
import type { ServerResponse } from "node:http";
import { quote40 } from "@chatwire/openai";
import { type ChatRequest, TokenizerError } from "@chatwire/tokenizer";
import type { RequestLog, ServerContext } from "../context.ts";
import { sendError, sendJson } from "../http/respond.ts";
import { tokenizerErrorParam } from "../http/tokenizer-error.ts";
import { reportIgnored } from "../ignored-fields.ts";

type Obj = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The fields of a `{prompt}` request (vLLM's; add_special_tokens is accepted and has no effect). */
const PROMPT_FIELDS: ReadonlySet<string> = new Set(["prompt", "model", "add_special_tokens"]);

export function tokenize(ctx: ServerContext, body: unknown, res: ServerResponse, log: RequestLog) {
  if (!isObj(body)) return sendError(res, 400, "invalid-request", "the request body must be a JSON object");
  const hasMessages = Object.hasOwn(body, "messages");
  if (hasMessages && Object.hasOwn(body, "prompt"))
    return sendError(res, 400, "invalid-request", "give prompt or messages, not both", "prompt");
  try {
    if (hasMessages) {
      const { model: _m, add_special_tokens: _a, ...chat } = body;
      if (!Array.isArray(chat.messages))
        return sendError(res, 400, "invalid-parameter", "messages: must be an array", "messages");
      // Only the outer shape is known here; encodeChat validates the rest at run time.
      const enc = ctx.tokenizer.encodeChat(chat as unknown as ChatRequest);
      return sendJson(res, 200, {
        count: enc.ids.length,
        max_model_len: ctx.limits.maxModelLen,
        tokens: enc.ids,
        audit: enc.audit.length,
      });
    }
    const unknown = Object.keys(body).filter((k) => !PROMPT_FIELDS.has(k));
    if (unknown.length > 0) {
      if (ctx.unknownFields === "reject")
        return sendError(
          res,
          400,
          "unknown-parameter",
          `unknown parameter ${quote40(unknown[0] as string)}`,
          unknown[0],
        );
      reportIgnored(unknown, res, log);
    }
    const prompt = Object.hasOwn(body, "prompt") ? body.prompt : undefined;
    if (typeof prompt !== "string")
      return sendError(
        res,
        400,
        "invalid-parameter",
        "prompt: must be a string (or give messages)",
        "prompt",
      );
    const enc = ctx.tokenizer.encodeText(prompt);
    return sendJson(res, 200, {
      count: enc.ids.length,
      max_model_len: ctx.limits.maxModelLen,
      tokens: enc.ids,
      audit: enc.audit.length,
    });
  } catch (e) {
    if (TokenizerError.isInstance(e)) return sendError(res, 400, e.type, e.message, tokenizerErrorParam(e));
    throw e;
  }
}

export function detokenize(ctx: ServerContext, body: unknown, res: ServerResponse) {
  const tokens = isObj(body) && Object.hasOwn(body, "tokens") ? body.tokens : undefined;
  const vocab = ctx.spec.classes.length;
  if (
    !Array.isArray(tokens) ||
    !tokens.every((t) => typeof t === "number" && Number.isSafeInteger(t) && t >= 0 && t < vocab)
  )
    return sendError(
      res,
      400,
      "invalid-parameter",
      `tokens: must be a list of token IDs in [0, ${vocab})`,
      "tokens",
    );
  sendJson(res, 200, { prompt: ctx.tokenizer.decode(tokens as number[], { specialTokens: "show" }) });
}
