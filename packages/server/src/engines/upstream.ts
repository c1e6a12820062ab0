// Shared by the token-ID upstream engines (vLLM, SGLang): options, URL and header helpers,
// the startup probe, the streamed POST, and the token-ID check.
import { EngineError } from "../engine.ts";
import { sseDataLines } from "./sse-reader.ts";

export interface UpstreamOptions {
  /** Base URL, e.g. http://10.0.0.5:8000 (without /v1). */
  readonly upstream: string;
  /** The upstream's model name; default: the first model of GET /v1/models. */
  readonly model?: string;
  /** Sent as `Authorization: Bearer` when given. */
  readonly apiKey?: string;
  /** Injected fetch (tests); default the global fetch. */
  readonly fetch?: typeof fetch;
}

type Obj = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function base(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1$/, "");
}

export async function discoverModel(o: UpstreamOptions): Promise<string> {
  if (o.model !== undefined) return o.model;
  const f = o.fetch ?? fetch;
  let r: Response;
  try {
    r = await f(`${base(o.upstream)}/v1/models`, { headers: headers(o) });
  } catch (e) {
    throw new EngineError(
      "engine-unavailable",
      `cannot reach ${o.upstream}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const j: unknown = await r.json().catch(() => undefined);
  const data = isObj(j) && Array.isArray(j.data) ? j.data : [];
  const first: unknown = data[0];
  if (!r.ok || !isObj(first) || typeof first.id !== "string")
    throw new EngineError("engine-unavailable", `${o.upstream}/v1/models lists no model (HTTP ${r.status})`);
  return first.id;
}

export function headers(o: UpstreamOptions): Record<string, string> {
  return {
    "content-type": "application/json",
    ...(o.apiKey !== undefined ? { authorization: `Bearer ${o.apiKey}` } : {}),
  };
}

export function checkId(v: unknown): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw new EngineError("engine-protocol", "upstream sent a non-integer token ID");
  return v;
}

/** Startup probe: GET {upstream}/health must answer 2xx (vLLM and SGLang both serve it). */
export async function probeHealth(o: UpstreamOptions): Promise<void> {
  const f = o.fetch ?? fetch;
  let r: Response;
  try {
    r = await f(`${base(o.upstream)}/health`, { headers: headers(o) });
  } catch (e) {
    throw new EngineError(
      "engine-unavailable",
      `cannot reach ${o.upstream}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  await r.body?.cancel();
  if (!r.ok) throw new EngineError("engine-unavailable", `${o.upstream}/health answered HTTP ${r.status}`);
}

/**
 * POST `body` as JSON to `{upstream}{path}` and yield the `data:` lines of its SSE answer. An
 * unreachable upstream is `engine-unavailable`, a non-2xx answer `engine-failed` (its first 200
 * characters); once `signal` is aborted, a failure ends the stream quietly instead.
 */
export async function* postSse(
  o: UpstreamOptions,
  who: string,
  path: string,
  body: unknown,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const f = o.fetch ?? fetch;
  let r: Response;
  try {
    r = await f(`${base(o.upstream)}${path}`, {
      method: "POST",
      headers: headers(o),
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal.aborted) return;
    throw new EngineError(
      "engine-unavailable",
      `${who} at ${o.upstream}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (!r.ok || r.body === null)
    throw new EngineError(
      "engine-failed",
      `${who} answered HTTP ${r.status}: ${(await r.text()).slice(0, 200)}`,
    );
  yield* sseDataLines(r.body);
}
