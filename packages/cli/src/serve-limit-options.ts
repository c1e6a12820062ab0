// `chatwire serve` options for the connection and upstream limits (docs/serve.md "Limits"):
// their specs for --help and their parsing into ServeLimits fields and the upstream idle time.
// Every value is checked here, before the tokenizer or engine loads: a bad one is an exit-2
// `invalid-option-value`, never a server that starts with a limit it cannot keep.
import { DEFAULT_LIMITS, type ServeLimits } from "@chatwire/server";
import { getInt, type OptionSpecs, type ParsedOptions, UsageError } from "./args.ts";

/** Node's timers fire at once past this (a 32-bit signed ms count): a longer limit would be none. */
const MAX_TIMER_MS = 2_147_483_647;

export const SERVE_LIMIT_OPTIONS: OptionSpecs = {
  "headers-timeout-ms": {
    kind: "int",
    description: "a request's headers must arrive within this many ms, else 408",
    default: String(DEFAULT_LIMITS.headersTimeoutMs),
  },
  "request-read-timeout-ms": {
    kind: "int",
    description: "a request's headers and body must arrive within this many ms, else 408",
    default: String(DEFAULT_LIMITS.requestReadTimeoutMs),
  },
  "max-connections": {
    kind: "int",
    description: "open connections; beyond it new ones are closed at once",
    default: String(DEFAULT_LIMITS.maxConnections),
  },
  "max-pending-body-bytes": {
    kind: "int",
    description: "body bytes held by requests without a generation slot; beyond it 503 (>= max-body-bytes)",
    default: "16 x max-body-bytes",
  },
  "upstream-idle-timeout-ms": {
    kind: "int",
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

function bounded(opts: ParsedOptions, name: string, max: number): number | undefined {
  const v = getInt(opts, name);
  if (v === undefined) return undefined;
  if (v < 1 || v > max)
    throw new UsageError(`--${name} must be between 1 and ${max}, got ${v}`, "invalid-option-value");
  return v;
}

/** The limit options given; `maxBodyBytes` is the request body limit in effect. */
export function serveLimitValues(opts: ParsedOptions, maxBodyBytes: number): ServeLimitValues {
  const headersTimeoutMs = bounded(opts, "headers-timeout-ms", MAX_TIMER_MS);
  const requestReadTimeoutMs = bounded(opts, "request-read-timeout-ms", MAX_TIMER_MS);
  const maxConnections = bounded(opts, "max-connections", Number.MAX_SAFE_INTEGER);
  const maxPendingBodyBytes = bounded(opts, "max-pending-body-bytes", Number.MAX_SAFE_INTEGER);
  if (maxPendingBodyBytes !== undefined && maxPendingBodyBytes < maxBodyBytes)
    throw new UsageError(
      `--max-pending-body-bytes (${maxPendingBodyBytes}) must be >= the body limit --max-body-bytes (${maxBodyBytes})`,
      "invalid-option-value",
    );
  const upstreamIdleTimeoutMs = bounded(opts, "upstream-idle-timeout-ms", MAX_TIMER_MS);
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
