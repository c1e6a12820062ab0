// Entry of the chatwire CLI (see ../../../docs/cli-contract.md). Commands live one per
// file in ./commands and are loaded on demand, so `chatwire decode` never pays for the
// encoder's setup and vice versa. Command names and options come from the caller: they are
// looked up in Maps, never as plain-object keys (`chatwire constructor` is an unknown command).
import { getInt, HELP, type OptionSpecs, parseOptions, UsageError } from "./args.ts";
import type { CliIo, Command } from "./command.ts";
import { commandHelp } from "./help.ts";
import { DEFAULT_MAX_LINE_BYTES, runJsonl } from "./jsonl.ts";
import { quoteInput } from "./quote.ts";

export type { CliIo } from "./command.ts";

const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map([
  ["encode-text", async () => (await import("./commands/encode-text.ts")).command],
  ["encode-chat", async () => (await import("./commands/encode-chat.ts")).command],
  ["decode", async () => (await import("./commands/decode.ts")).command],
  ["demo", async () => (await import("./commands/demo.ts")).command],
  ["serve", async () => (await import("./commands/serve.ts")).command],
]);

/** Options of every JSONL command, besides its own. */
const JSONL_OPTIONS: OptionSpecs = {
  "max-line-bytes": {
    kind: "int",
    min: 1,
    description:
      'longest input line in bytes (its "\\n" or "\\r\\n" not counted); a longer line is answered with a line-too-long error and skipped',
    default: String(DEFAULT_MAX_LINE_BYTES),
  },
};

function usage(): string {
  return `usage: chatwire <${[...COMMANDS.keys()].join("|")}> [options]   (JSON Lines on stdin, one JSON line out per line; chatwire <command> --help; see docs/cli-contract.md)`;
}

/** The process's streams, each touched only when used (a command that reads no input never opens stdin). */
const PROCESS_IO: CliIo = {
  get stdin() {
    return process.stdin;
  },
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
};

/** Runs `chatwire <argv>` over io (default: the process's streams); resolves with the exit code. */
export async function main(argv: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
  // A reader that goes away (EPIPE) is not an error of ours, whatever is being written (help,
  // demo, answers): never an unhandled 'error' event with a stack trace. runJsonl also listens,
  // to stop reading.
  io.stdout.on("error", () => {});
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    if (name === undefined) io.stderr.write(`${usage()}\n`);
    else io.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const load = COMMANDS.get(name);
  if (load === undefined) {
    io.stderr.write(`chatwire: usage: unknown command ${quoteInput(name)}; ${usage()}\n`);
    return 2;
  }
  try {
    const command = await load();
    const specs: OptionSpecs = command.jsonl ? { ...command.options, ...JSONL_OPTIONS } : command.options;
    const opts = parseOptions(rest, specs);
    if (opts.get(HELP) === true) {
      io.stdout.write(commandHelp(command, specs));
      return 0;
    }
    const maxLineBytes = getInt(opts, "max-line-bytes") ?? DEFAULT_MAX_LINE_BYTES;
    const handler = await command.prepare(opts, io);
    if (command.jsonl && handler !== null) {
      // Never an unhandled 'error' on stdout (EPIPE when the reader goes away): runJsonl stops.
      const outcome = await runJsonl(handler, io.stdin, io.stdout, { maxLineBytes });
      if (outcome === "reader-gone") io.stdin.destroy();
    }
    return 0;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const type = err instanceof UsageError ? err.type : "internal-error";
    io.stderr.write(`chatwire ${name}: ${type}: ${msg.split("\n")[0]}\n`);
    return 2;
  }
}
