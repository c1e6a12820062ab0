// `chatwire serve` options for the connection and upstream limits (docs/serve.md "Limits"):
// their specs for --help and their parsing into ServeLimits fields and the upstream idle time.
// Every value is checked before the tokenizer or engine loads (each range by parseOptions, from
// the spec; the pending-body floor here): a bad one is an exit-2 `invalid-option-value`, never a
// server that starts with a limit it cannot keep.
import { DEFAULT_LIMITS, type ServeLimits } from "@chatwire/server";
import { getInt, type OptionSpecs, type ParsedOptions, POSITIVE, TIME_MS, UsageError } from "./args.ts";

export const SERVE_LIMIT_OPTIONS: OptionSpecs = {
  "headers-timeout-ms": {
    ...TIME_MS,
    description: "a request's headers must arrive within this many ms, else 408",
    default: String(DEFAULT_LIMITS.headersTimeoutMs),
  },
  "request-read-timeout-ms": {
    ...TIME_MS,
    description: "a request's headers and body must arrive within this many ms, else 408",
    default: String(DEFAULT_LIMITS.requestReadTimeoutMs),
  },
  "max-connections": {
    ...POSITIVE,
    description: "open connections; beyond it new ones are closed at once",
    default: String(DEFAULT_LIMITS.maxConnections),
  },
  "max-pending-body-bytes": {
    ...POSITIVE,
    description: "body bytes held by requests without a generation slot; beyond it 503 (>= max-body-bytes)",
    default: "16 x max-body-bytes",
  },
  "upstream-idle-timeout-ms": {
    ...TIME_MS,
    description: "vllm / sglang: no upstream byte for this many ms is engine-timeout",
    default: "120000",
  },
};

export interface ServeLimitValues {
  readonly limits: Partial<
    Pick<ServeLimits, "headersTimeoutMs" | "requestReadTimeoutMs" | "maxConnections" | "maxPendingBodyBytes">
  >;
  readonly upstreamIdleTimeoutMs?: number;
}

/** The limit options given; `maxBodyBytes` is the request body limit in effect. */
export function serveLimitValues(opts: ParsedOptions, maxBodyBytes: number): ServeLimitValues {
  const headersTimeoutMs = getInt(opts, "headers-timeout-ms");
  const requestReadTimeoutMs = getInt(opts, "request-read-timeout-ms");
  const maxConnections = getInt(opts, "max-connections");
  const maxPendingBodyBytes = getInt(opts, "max-pending-body-bytes");
  if (maxPendingBodyBytes !== undefined && maxPendingBodyBytes < maxBodyBytes)
    throw new UsageError(
      `--max-pending-body-bytes (${maxPendingBodyBytes}) must be >= the body limit --max-body-bytes (${maxBodyBytes})`,
      "invalid-option-value",
    );
  const upstreamIdleTimeoutMs = getInt(opts, "upstream-idle-timeout-ms");
  return {
    limits: {
      ...(headersTimeoutMs !== undefined ? { headersTimeoutMs } : {}),
      ...(requestReadTimeoutMs !== undefined ? { requestReadTimeoutMs } : {}),
      ...(maxConnections !== undefined ? { maxConnections } : {}),
      ...(maxPendingBodyBytes !== undefined ? { maxPendingBodyBytes } : {}),
    },
    ...(upstreamIdleTimeoutMs !== undefined ? { upstreamIdleTimeoutMs } : {}),
  };
}
