// Per-command help (`chatwire <command> --help`): the command's summary and every option with
// its kind, choices or range, and default. Printed on stdout, exit 0, nothing else is loaded.
import { type OptionSpec, type OptionSpecs, rangeText } from "./args.ts";
import type { Command } from "./command.ts";

function valueHint(spec: OptionSpec): string {
  if (spec.choices !== undefined) return ` ${spec.choices.join("|")}`;
  switch (spec.kind) {
    case "flag":
      return "";
    case "int":
      return " N";
    case "int[]":
      return " N (repeatable)";
    case "string[]":
      return " S (repeatable)";
    default:
      return " S";
  }
}

export function commandHelp(command: Command, options: OptionSpecs): string {
  const lines = [
    `usage: chatwire ${command.name} [options]${command.jsonl ? "   (JSON Lines on stdin, one JSON line out per line)" : ""}`,
    command.summary,
    "",
    "options:",
  ];
  for (const [name, spec] of Object.entries(options)) {
    const range = rangeText(spec);
    const dflt = spec.default === undefined ? "" : ` (default ${spec.default})`;
    lines.push(
      `  --${name}${valueHint(spec)}`,
      `      ${spec.description}${range === "" ? "" : `; N ${range}`}${dflt}`,
    );
  }
  lines.push("  --help, -h", "      this help", "", "contract: docs/cli-contract.md");
  return `${lines.join("\n")}\n`;
}
