// A request that got no generation slot: 429 (queue full), 503 (draining / queue wait timed
// out), or nothing (the client left while queued; logged as 499).
import type { ServerResponse } from "node:http";
import type { RequestLog } from "../context.ts";
import { sendError } from "../http/respond.ts";

export function refuse(
  res: ServerResponse,
  why: "queue-full" | "draining" | "gone" | "timeout",
  log: RequestLog,
) {
  log.outcome = why;
  switch (why) {
    case "queue-full":
      return sendError(res, 429, "queue-full", "too many requests are waiting; retry later", null, {
        "retry-after": "1",
      });
    case "draining":
      return sendError(res, 503, "shutting-down", "the server is shutting down", null, {
        "retry-after": "5",
      });
    case "timeout":
      return sendError(
        res,
        503,
        "queue-timeout",
        "no generation slot became free within the request time limit",
        null,
        { "retry-after": "1" },
      );
    case "gone":
      log.status = 499;
      res.destroy();
  }
}
