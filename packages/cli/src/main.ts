// Entry of the chatwire CLI (see ../../../docs/cli-contract.md). Commands live one per
// file in ./commands and are loaded on demand, so `chatwire decode` never pays for the
// encoder's setup and vice versa.
import { parseOptions } from "./args.ts";
import type { Command } from "./command.ts";
import { runJsonl } from "./jsonl.ts";

const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  "encode-text": async () => (await import("./commands/encode-text.ts")).command,
  "encode-chat": async () => (await import("./commands/encode-chat.ts")).command,
  decode: async () => (await import("./commands/decode.ts")).command,
  demo: async () => (await import("./commands/demo.ts")).command,
  serve: async () => (await import("./commands/serve.ts")).command,
};

function usage(): string {
  return `usage: chatwire <${Object.keys(COMMANDS).join("|")}> [options]   (JSON Lines on stdin, one JSON line out per line; see docs/cli-contract.md)`;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    process.stderr.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const load = COMMANDS[name];
  if (load === undefined) {
    process.stderr.write(`chatwire: unknown command ${JSON.stringify(name)}; ${usage()}\n`);
    return 2;
  }
  try {
    const command = await load();
    const opts = parseOptions(rest, command.options);
    const handler = await command.prepare(opts);
    if (command.jsonl) await runJsonl(handler, process.stdin, process.stdout);
    return 0;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`chatwire ${name}: ${msg.split("\n")[0]}\n`);
    return 2;
  }
}
