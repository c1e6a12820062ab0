// Loading over HTTP(S) with `fetch` (browsers, workers, edge runtimes, Node 18+): the files are
// fetched beside a base URL (the model's directory), then built by fromFiles' steps. Fetched at
// once: tokenizer_config.json, tokenizer.json and the optional files fromFiles reads
// (generation_config.json and config.json for EOS IDs, chat_template.jinja for detection: newer
// Hugging Face repositories keep the template only there); tokenizer.model only when there is no
// tokenizer.json. A 404/410 means the file is absent: fatal for the required ones, nothing for
// the optional ones (for which a 403, or an HTML page, means absent too); any other HTTP error is
// fetch-failed.
import type { ChatTokenizer } from "../chat-tokenizer.ts";
import { quote, TokenizerError } from "../errors.ts";
import { type GgufLoad, type GgufLoadOptions, loadGgufMetadata } from "../models/gguf/load.ts";
import { readGgufMetadata } from "../models/gguf/reader.ts";
import { TEMPLATE_FILE } from "../template/from-files.ts";
import {
  type AnyLoadOptions,
  type AnyTokenizer,
  buildAnyTokenizer,
  buildTokenizer,
  CONFIG_FILE,
  checkFormatOption,
  EOS_FILES,
  type LoadOptions,
} from "./load.ts";
import { JSON_MODEL_FILE, SPM_MODEL_FILE } from "./model-files.ts";

export interface FromUrlOptions extends LoadOptions {
  /** The fetch to use (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /** Passed to every request (e.g. an AbortSignal, headers, credentials). */
  readonly init?: RequestInit;
}

/** The directory URL of `baseUrl`: a trailing "/" is added so names resolve beside it, not above it. */
function directoryOf(baseUrl: string | URL): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
    // An opaque URL (data:, mailto:, urn:) has no directory: file names cannot resolve beside it.
    new URL("tokenizer.json", url);
  } catch {
    throw new TokenizerError(
      "invalid-argument",
      `${quote(String(baseUrl))} is not an absolute URL of a directory or file (http:, https:, file:)`,
      { file: String(baseUrl) },
    );
  }
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  url.search = "";
  url.hash = "";
  return url;
}

/** The file's bytes, or undefined on 404/410 (missing files are reported by the build, naming the URL). */
async function get(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit | undefined,
  optional: boolean,
): Promise<Uint8Array | undefined> {
  const res = await answerOf(doFetch, url, init);
  if (res.status === 404 || res.status === 410) return undefined;
  // Object stores (S3 without list permission) answer 403 for a missing object.
  if (optional && res.status === 403) return undefined;
  const bytes = await okBody(res, url);
  // Dev servers and single-page hosts answer a missing path with their index page (200, HTML).
  // No optional file is HTML, so such an answer means the file is absent.
  if (optional && isHtmlPage(res, bytes)) return undefined;
  return bytes;
}

/** The answer to `url`; a network failure is a fetch-failed error. */
async function answerOf(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit | undefined,
): Promise<Response> {
  try {
    return await doFetch(url, init);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new TokenizerError("fetch-failed", `${url} cannot be fetched: ${why}`, { file: url });
  }
}

/** The body of a successful answer; another status, or a body that cannot be read, is a fetch-failed error. */
async function okBody(res: Response, url: string): Promise<Uint8Array> {
  if (!res.ok)
    throw new TokenizerError(
      "fetch-failed",
      `${url} answered HTTP ${res.status} ${res.statusText}`.trimEnd(),
      {
        file: url,
        status: res.status,
      },
    );
  try {
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new TokenizerError("fetch-failed", `${url}: reading the body failed: ${why}`, { file: url });
  }
}

/** Whether a response is an HTML page: its content type, or a body that opens like one. */
function isHtmlPage(res: Response, bytes: Uint8Array): boolean {
  if ((res.headers.get("content-type") ?? "").toLowerCase().includes("text/html")) return true;
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 64))
    .replace(/^\uFEFF?\s*/, "")
    .toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html");
}

/** Files fetched beside the required ones; absent (404/410/403, an HTML page) is fine. */
const OPTIONAL_FILES: readonly string[] = [...EOS_FILES, TEMPLATE_FILE];

/**
 * Fetches tokenizer_config.json, the model file and the optional files beside `baseUrl` (a directory, e.g.
 * "https://huggingface.co/ORG/MODEL/resolve/main/") and builds the tokenizer. HTTP and
 * network failures are TokenizerError("fetch-failed") naming the URL; a missing file (404) is
 * "file-not-found"; the rest as fromFiles.
 */
export async function fromUrl(baseUrl: string | URL, options: FromUrlOptions = {}): Promise<ChatTokenizer> {
  checkFormatOption(options.format);
  const { files, label } = await fetchFiles(baseUrl, options);
  return buildTokenizer(files, options, label);
}

/** The tokenizer files beside `baseUrl` (see fromUrl), and the URL of each by name. */
async function fetchFiles(
  baseUrl: string | URL,
  options: Pick<FromUrlOptions, "fetch" | "init">,
): Promise<{ files: Record<string, Uint8Array>; label: (name: string) => string }> {
  const dir = directoryOf(baseUrl);
  const doFetch = options.fetch ?? globalThis.fetch;
  if (typeof doFetch !== "function")
    throw new TokenizerError("invalid-argument", "no fetch: pass options.fetch in this runtime");
  const label = (name: string): string => new URL(name, dir).href;
  const files: Record<string, Uint8Array> = {};
  const add = async (name: string): Promise<void> => {
    const bytes = await get(doFetch, label(name), options.init, OPTIONAL_FILES.includes(name));
    if (bytes !== undefined) files[name] = bytes;
  };
  await Promise.all([CONFIG_FILE, JSON_MODEL_FILE, ...OPTIONAL_FILES].map(add));
  if (files[JSON_MODEL_FILE] === undefined && files[CONFIG_FILE] !== undefined) await add(SPM_MODEL_FILE);
  return { files, label };
}

/** fromAnyUrl's options: the one choice rule's (a family name, "template", "auto") plus fetch's. */
export type AnyUrlOptions = AnyLoadOptions & Omit<GgufUrlOptions, "format" | keyof LoadOptions>;

/**
 * The one loader over HTTP(S): a GGUF file (a URL whose path ends in ".gguf", as fromGgufUrl)
 * or a model directory (the files fromUrl fetches), with the one choice rule of ./load.ts
 * buildAnyTokenizer: the native family detected from the files, else the model's chat template.
 */
export async function fromAnyUrl(url: string | URL, options: AnyUrlOptions = {}): Promise<AnyTokenizer> {
  const { fetch: doFetch, init, firstRange, file, ...any } = options;
  const io = {
    ...(doFetch === undefined ? {} : { fetch: doFetch }),
    ...(init === undefined ? {} : { init }),
  };
  if (isGgufUrl(url))
    return (
      await loadGgufUrl(url, {
        ...any,
        ...io,
        ...(firstRange === undefined ? {} : { firstRange }),
        ...(file === undefined ? {} : { file }),
      } as GgufUrlOptions)
    ).tokenizer;
  if (any.format !== undefined && any.format !== "template") checkFormatOption(any.format);
  const { files, label } = await fetchFiles(url, io);
  return buildAnyTokenizer(files, any, label);
}

function isGgufUrl(url: string | URL): boolean {
  try {
    return new URL(url).pathname.toLowerCase().endsWith(".gguf");
  } catch {
    return false;
  }
}

/** The first ranged read of a GGUF URL; the metadata of most models fits. */
const GGUF_FIRST_RANGE = 16 << 20;

/**
 * A GGUF file over HTTP(S): its metadata head is fetched with Range requests (growing x4 until
 * the metadata parses; a server that ignores Range sends the whole file, which is used as is),
 * then built as loadGguf does (a native family when its definition fits, else the file's
 * template). HTTP failures are fetch-failed naming the URL; 404/410 file-not-found.
 */
export async function loadGgufUrl(url: string | URL, options: GgufUrlOptions = {}): Promise<GgufLoad> {
  const href = String(url);
  const doFetch = options.fetch ?? globalThis.fetch;
  if (typeof doFetch !== "function")
    throw new TokenizerError("invalid-argument", "no fetch: pass options.fetch in this runtime");
  const { fetch: _f, init, firstRange, ...rest } = options;
  const file = options.file ?? href;
  let want = firstRange ?? GGUF_FIRST_RANGE;
  if (!Number.isSafeInteger(want) || want < 1)
    throw new TokenizerError("invalid-argument", "firstRange must be a positive integer");
  for (;;) {
    const headers = new Headers(init?.headers);
    headers.set("range", `bytes=0-${want - 1}`);
    const res = await answerOf(doFetch, href, { ...init, headers });
    if (res.status === 404 || res.status === 410)
      throw new TokenizerError("file-not-found", `${href} does not exist`, { file: href });
    const bytes = await okBody(res, href);
    // 206: the range (a shorter one means the file ended); 200: the server sent the whole file.
    const whole = res.status !== 206 || bytes.length < want;
    try {
      return loadGgufMetadata(readGgufMetadata(bytes, file), { ...rest, file });
    } catch (e) {
      const more = TokenizerError.isInstance(e) && e.type === "bad-gguf-file" && e.fields.truncated === true;
      if (!more || whole) throw e;
      want *= 4;
    }
  }
}

export interface GgufUrlOptions extends FromUrlOptions, GgufLoadOptions {
  /** Bytes asked for by the first Range request (default 16 MiB); each further one asks 4x more. */
  readonly firstRange?: number;
}

/** loadGgufUrl(url, options).tokenizer. */
export async function fromGgufUrl(url: string | URL, options: GgufUrlOptions = {}): Promise<AnyTokenizer> {
  return (await loadGgufUrl(url, options)).tokenizer;
}
