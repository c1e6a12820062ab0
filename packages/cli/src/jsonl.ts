// The JSONL loop of the contract: one JSON line out per input line, in order; a bad
// line yields {"error": {...}} and the loop goes on. Output is written in batches
// (one write per input chunk) so large inputs are not one syscall per line.
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { LineHandler } from "./command.ts";

function errorJson(err: unknown): Record<string, unknown> {
  if (typeof err === "object" && err !== null && "toJSON" in err && typeof err.toJSON === "function") {
    const j: unknown = err.toJSON();
    if (typeof j === "object" && j !== null && "type" in j) return j as Record<string, unknown>;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { type: "internal-error", message };
}

export function processLine(handler: LineHandler, line: string): string {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return JSON.stringify({ error: { type: "invalid-json", message: `input line is not JSON: ${why}` } });
  }
  try {
    return JSON.stringify(handler(input));
  } catch (err) {
    return JSON.stringify({ error: errorJson(err) });
  }
}

export async function runJsonl(handler: LineHandler, input: Readable, output: Writable): Promise<void> {
  const rl = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let pending: string[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk = `${pending.join("\n")}\n`;
    pending = [];
    if (!output.write(chunk)) await new Promise<void>((r) => output.once("drain", () => r()));
  };
  for await (const line of rl) {
    pending.push(processLine(handler, line));
    if (pending.length >= 256) await flush();
  }
  await flush();
}
