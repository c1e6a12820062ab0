// POST /tokenize and /detokenize in vLLM's shapes:
//   {"prompt": "..."} or {"messages": [...], ...chat fields} -> {"count", "max_model_len", "tokens"}
//   {"tokens": [...]}                                        -> {"prompt": "..."}
// `prompt` is encoded as ordinary text (never a reserved ID); `messages` through encodeChat.
// Extra fields: "audit" (how many places looked like a reserved token).
import type { ServerResponse } from "node:http";
import { type ChatRequest, TokenizerError } from "@chatwire/tokenizer";
import type { ServerContext } from "../context.ts";
import { sendError, sendJson } from "../http/respond.ts";
import { tokenizerErrorParam } from "../http/tokenizer-error.ts";

type Obj = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function tokenize(ctx: ServerContext, body: unknown, res: ServerResponse) {
  if (!isObj(body)) return sendError(res, 400, "invalid-request", "the request body must be a JSON object");
  try {
    if (Object.hasOwn(body, "messages")) {
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
