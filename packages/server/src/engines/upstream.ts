// Shared by the token-ID upstream engines (vLLM, SGLang): options, URL and header helpers,
// the startup probe, the streamed POST, and the token-ID check. Every upstream answer is read
// with a size cap and an idle time limit: an error body is read up to MAX_ERROR_BODY_BYTES and
// quoted (200 characters) only in the error's message, which goes to the log, never to clients.
import type { SamplingParam } from "@chatwire/openai";
import { type Engine, EngineError, type GenerateRequest } from "../engine.ts";
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
  /**
   * The longest wait, ms, for the upstream's response headers or its next bytes while chatwire
   * is reading (time the client spends not reading does not count); then `engine-timeout`.
   * Default 120,000 (a loaded upstream queues requests before their first token).
   */
  readonly idleTimeoutMs?: number;
}

type Obj = { readonly [k: string]: unknown };
/** A JSON object (what an upstream answer, chunk and their parts must be). */
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Bytes of a non-2xx answer's body read at most (for its quote in the log). */
export const MAX_ERROR_BODY_BYTES = 4096;
const MAX_MODELS_BYTES = 1024 * 1024;
const DEFAULT_IDLE_MS = 120_000;

export function base(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** At most `n` characters of upstream text, for a log message. */
export function quote(text: string, n = 200): string {
  return JSON.stringify(text.length > n ? `${text.slice(0, n)}…` : text);
}

/** A timer that aborts `ctl` after `ms` while armed; armed only while chatwire waits on the upstream. */
function idleTimer(ms: number, ctl: AbortController) {
  let t: ReturnType<typeof setTimeout> | undefined;
  return {
    arm(): void {
      if (t === undefined) t = setTimeout(() => ctl.abort(), ms);
    },
    disarm(): void {
      if (t !== undefined) clearTimeout(t);
      t = undefined;
    },
  };
}

/**
 * Up to `maxBytes` of a body as text, then the rest is cancelled; a body that stalls for
 * `idleMs` ends the read with what has arrived. Never throws.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  idleMs: number,
): Promise<string> {
  if (body === null) return "";
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      let t: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<"stalled">((r) => {
        t = setTimeout(() => r("stalled"), idleMs);
      });
      const got = await Promise.race([reader.read(), stalled]).finally(() => clearTimeout(t));
      if (got === "stalled" || got.done) break;
      parts.push(got.value.subarray(0, maxBytes - size));
      size += got.value.length;
    }
  } catch {
    // A broken error body: what arrived is all there is to quote.
  } finally {
    reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(parts));
}

export async function discoverModel(o: UpstreamOptions): Promise<string> {
  if (o.model !== undefined) return o.model;
  const f = o.fetch ?? fetch;
  const idleMs = o.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  let r: Response;
  try {
    r = await f(`${base(o.upstream)}/v1/models`, {
      headers: headers(o),
      signal: AbortSignal.timeout(idleMs),
    });
  } catch (e) {
    throw new EngineError(
      "engine-unavailable",
      `cannot reach ${o.upstream}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  let j: unknown;
  try {
    j = JSON.parse(await readCapped(r.body, MAX_MODELS_BYTES, idleMs));
  } catch {
    j = undefined;
  }
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

/** One `data:` payload as JSON; anything else is a protocol error (its start quoted for the log). */
export function parseData(who: string, data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw new EngineError("engine-protocol", `${who} sent a data line that is not JSON: ${quote(data, 80)}`);
  }
}

/** An upstream's in-stream error event (`{"error": ...}`) is a failure, not a chunk. */
export function checkErrorEvent(who: string, chunk: unknown): void {
  if (isObj(chunk) && chunk.error !== undefined && chunk.error !== null)
    throw new EngineError(
      "engine-failed",
      `${who} sent an error event: ${quote(JSON.stringify(chunk.error))}`,
    );
}

/** Startup probe: GET {upstream}/health must answer 2xx (vLLM and SGLang both serve it). */
export async function probeHealth(o: UpstreamOptions): Promise<void> {
  const f = o.fetch ?? fetch;
  let r: Response;
  try {
    r = await f(`${base(o.upstream)}/health`, {
      headers: headers(o),
      signal: AbortSignal.timeout(o.idleTimeoutMs ?? DEFAULT_IDLE_MS),
    });
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
 * POST `body` as JSON to `{upstream}{path}` and yield the `data:` payloads of its SSE answer.
 * Unreachable -> `engine-unavailable`; non-2xx -> `engine-failed` (its first 200 characters in
 * the message); a 2xx that is not `text/event-stream`, or a stream that breaks the SSE framing
 * or ends without `[DONE]` -> `engine-protocol`; no bytes for `idleTimeoutMs` while chatwire
 * waits -> `engine-timeout`. Once `signal` is aborted, a failure ends the stream quietly instead.
 */
export async function* postSse(
  o: UpstreamOptions,
  who: string,
  path: string,
  body: unknown,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const f = o.fetch ?? fetch;
  const idleMs = o.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  const stalled = new AbortController();
  const idle = idleTimer(idleMs, stalled);
  try {
    idle.arm();
    const r = await f(`${base(o.upstream)}${path}`, {
      method: "POST",
      headers: headers(o),
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, stalled.signal]),
    });
    idle.disarm();
    if (!r.ok) {
      const text = await readCapped(r.body, MAX_ERROR_BODY_BYTES, Math.min(idleMs, 5_000));
      throw new EngineError("engine-failed", `${who} answered HTTP ${r.status}: ${quote(text)}`);
    }
    const type = r.headers.get("content-type") ?? "";
    if (!/^text\/event-stream\b/i.test(type) || r.body === null) {
      await r.body?.cancel().catch(() => {});
      throw new EngineError(
        "engine-protocol",
        `${who} answered HTTP ${r.status} with content-type ${quote(type, 80)}, not an event stream`,
      );
    }
    yield* sseDataLines(r.body, { onWait: (waiting) => (waiting ? idle.arm() : idle.disarm()) });
  } catch (e) {
    if (signal.aborted) return;
    if (stalled.signal.aborted)
      throw new EngineError("engine-timeout", `${who} sent nothing for ${idleMs} ms`);
    if (EngineError.isInstance(e)) throw e;
    throw new EngineError(
      "engine-unavailable",
      `${who} at ${o.upstream}: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    idle.disarm();
  }
}

/**
 * postSse read as ID batches: each data line parsed as JSON and turned into IDs by `idsOf`
 * (which throws on a malformed chunk); an empty batch is not yielded. Once `signal` is aborted a
 * failure ends the stream quietly, as in postSse.
 */
export async function* postIdBatches(
  o: UpstreamOptions,
  who: string,
  path: string,
  body: unknown,
  signal: AbortSignal,
  idsOf: (chunk: unknown) => readonly number[],
): AsyncGenerator<readonly number[]> {
  try {
    for await (const data of postSse(o, who, path, body, signal)) {
      const ids = idsOf(parseData(who, data));
      if (ids.length > 0) yield ids;
    }
  } catch (e) {
    if (signal.aborted) return;
    throw e;
  }
}

/** What one token-ID upstream engine adds to the shared streamed POST. */
export interface IdStreamProtocol {
  /** The engine's name (Engine.name). */
  readonly name: string;
  /** The upstream's name in error messages ("vLLM"). */
  readonly who: string;
  readonly path: string;
  readonly sampling: ReadonlySet<SamplingParam>;
  /** The request body of one generation. */
  body(req: GenerateRequest): unknown;
  /** The chunk reader of one generation (it may keep state across that generation's chunks). */
  reader(): (chunk: unknown) => readonly number[];
}

/** An engine that POSTs each generation to the upstream and yields the IDs its chunks carry. */
export function idStreamEngine(o: UpstreamOptions, p: IdStreamProtocol): Engine {
  return {
    name: p.name,
    sampling: p.sampling,
    async *generate(req: GenerateRequest) {
      yield* postIdBatches(o, p.who, p.path, p.body(req), req.signal, p.reader());
    },
    async close() {},
  };
}
