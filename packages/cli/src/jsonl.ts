// The JSONL loop of the contract (docs/cli-contract.md): one JSON line out per input line, in
// order; a bad line yields {"error": {...}} and the loop goes on.
// - Lines: line-splitter.ts ("\n" only, "\r\n" accepted, --max-line-bytes with a
//   `line-too-long` error line, memory bounded).
// - Latency: the answers of every complete line in a chunk just read are written together, right
//   after that chunk, before anything more is read: a client that writes one line and waits gets
//   its answer (nothing waits for a batch to fill). Backpressure: reading resumes after "drain".
// - A reader that goes away (EPIPE, e.g. `| head -1`): stop reading and return "reader-gone";
//   nothing is printed.
import type { Readable, Writable } from "node:stream";
import type { LineHandler } from "./command.ts";
import { stringifyLine } from "./json-out.ts";
import { createLineSplitter } from "./line-splitter.ts";

/** Default of --max-line-bytes: 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

function errorJson(err: unknown): Record<string, unknown> {
  if (typeof err === "object" && err !== null && "toJSON" in err && typeof err.toJSON === "function") {
    const j: unknown = err.toJSON();
    if (typeof j === "object" && j !== null && "type" in j) return j as Record<string, unknown>;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { type: "internal-error", message: message.slice(0, 200) };
}

export function processLine(handler: LineHandler, line: string): string {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    // V8's message quotes the input near the error: cut to keep the echo short.
    return JSON.stringify({
      error: { type: "invalid-json", message: `input line is not JSON: ${why.slice(0, 80)}` },
    });
  }
  let answer: unknown;
  try {
    answer = handler(input);
  } catch (err) {
    return stringifyLine({ error: errorJson(err) });
  }
  try {
    return stringifyLine(answer);
  } catch (err) {
    // Only a string beyond the engine's maximum length gets here (the serializer has no depth limit).
    const why = err instanceof Error ? err.message : String(err);
    return JSON.stringify({
      error: { type: "output-too-large", message: `the answer cannot be written: ${why}` },
    });
  }
}

export function tooLongLine(bytes: number, max: number): string {
  return JSON.stringify({
    error: {
      type: "line-too-long",
      message: `input line of ${bytes} bytes is longer than --max-line-bytes ${max}`,
      bytes,
      max_line_bytes: max,
    },
  });
}

export interface JsonlOptions {
  readonly maxLineBytes?: number;
}

export type JsonlOutcome = "done" | "reader-gone";

export async function runJsonl(
  handler: LineHandler,
  input: Readable,
  output: Writable,
  options: JsonlOptions = {},
): Promise<JsonlOutcome> {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let pending: string[] = [];
  const splitter = createLineSplitter(max, {
    line: (text) => pending.push(processLine(handler, text)),
    tooLong: (bytes) => pending.push(tooLongLine(bytes, max)),
  });
  let gone = false;
  const onError = (): void => {
    gone = true; // EPIPE and friends: the reader is gone; the loop below stops.
  };
  output.on("error", onError);
  const flush = async (): Promise<void> => {
    if (pending.length === 0 || gone) return;
    const chunk = `${pending.join("\n")}\n`;
    pending = [];
    if (output.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        output.off("drain", done);
        output.off("close", done);
        output.off("error", done);
        resolve();
      };
      output.on("drain", done);
      output.on("close", done);
      output.on("error", done);
    });
  };
  // The error listener stays: an EPIPE can arrive after the last write returned (it is reported
  // asynchronously), and an 'error' event without a listener would crash with a stack trace.
  for await (const chunk of input) {
    splitter.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : (chunk as Uint8Array));
    await flush();
    if (gone) break; // leaving the loop destroys the input stream
  }
  if (!gone) {
    splitter.end();
    await flush();
  }
  return gone ? "reader-gone" : "done";
}
