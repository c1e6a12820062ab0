// What a CLI command is: its options, and a prepare step that loads everything once
// (bad options / unloadable tokenizer -> UsageError, exit 2) and returns the per-line
// handler, or null when it answered without input. A handler returns the output object for one JSON input line, or throws;
// thrown errors become that line's {"error": {...}} and processing goes on.
import type { Readable, Writable } from "node:stream";
import type { OptionSpecs, ParsedOptions } from "./args.ts";

/**
 * The streams a run reads and writes: the process's for the bin; a caller (the tests) may pass
 * its own. The environment, the working directory, serve's signals and its request log stay the
 * process's.
 */
export interface CliIo {
  readonly stdin: Readable;
  /** isTTY: the demo colours and paces its output on a terminal. */
  readonly stdout: Writable & { readonly isTTY?: boolean };
  readonly stderr: Writable;
}

export type LineHandler = (input: unknown) => unknown;

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly options: OptionSpecs;
  /** true: reads JSONL from stdin; false: runs once (e.g. demo) and prepare does all the work. */
  readonly jsonl: boolean;
  /** null: prepare did all the work and no input is read (decode --explain). Writes go to io. */
  prepare(opts: ParsedOptions, io: CliIo): Promise<LineHandler | null>;
}

/** A per-line error with a contract type (kebab-case) and structured fields. */
export class LineError extends Error {
  readonly type: string;
  readonly fields: Readonly<Record<string, unknown>>;
  constructor(type: string, message: string, fields: Readonly<Record<string, unknown>> = {}) {
    super(message);
    this.type = type;
    this.fields = fields;
  }
  toJSON(): Record<string, unknown> {
    return { type: this.type, message: this.message, ...this.fields };
  }
}
