// The call turns the call recognizers render: one call of `probe_tool` with a string argument,
// and two calls of two tools, so that what repeats per call and what separates calls show.
import type { JsonObject } from "../../../request/request.ts";
import type { ProbeTurn } from "../context.ts";

/** The arguments of the one-call turn's call. */
export const ONE_ARGS: JsonObject = { k: "v" };
export const ONE: ProbeTurn = { calls: [{ name: "probe_tool", arguments: ONE_ARGS }] };
export const TWO: ProbeTurn = {
  calls: [
    { name: "probe_tool", arguments: ONE_ARGS },
    { name: "other_tool", arguments: { n: 1 } },
  ],
};
