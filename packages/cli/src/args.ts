// Option parsing for the machine-facing CLI. Strict: unknown options, missing values and
// malformed numbers are usage errors (exit 2), never silently ignored. Option names come from the
// caller, so they are looked up in a Map built from the command's own specs: `--constructor` or
// `--__proto__` are unknown options, not Object.prototype members. Caller input in messages is
// quoted to at most 40 characters (quote.ts).

import { quoteInput } from "./quote.ts";

export type OptionKind = "string" | "int" | "flag" | "string[]" | "int[]";

export interface OptionSpec {
  readonly kind: OptionKind;
  readonly choices?: readonly string[];
  readonly description: string;
  /** Shown in --help; the value used when the option is absent. */
  readonly default?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export type OptionValue = string | number | boolean | string[] | number[];
export type ParsedOptions = ReadonlyMap<string, OptionValue>;

/** Kebab-case kinds of usage error (the stderr line reads `chatwire <command>: <type>: <message>`). */
export type UsageErrorType =
  | "usage"
  | "unknown-option"
  | "invalid-option-value"
  | "tokenizer-load-failed"
  | "format-mismatch"
  | "stop-token-out-of-vocabulary";

export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly type: UsageErrorType;
  constructor(message: string, type: UsageErrorType = "usage") {
    super(message);
    this.type = type;
  }
}

/** The options every command takes besides its own: `--help` / `-h`. */
export const HELP = "help";

/** The command's specs as a Map of own entries only (no prototype chain). */
export function specMap(specs: OptionSpecs): ReadonlyMap<string, OptionSpec> {
  return new Map(Object.entries(specs));
}

function parseIntStrict(name: string, raw: string): number {
  if (!/^-?\d+$/.test(raw))
    throw new UsageError(`--${name} takes an integer, got ${quoteInput(raw)}`, "invalid-option-value");
  const n = Number(raw);
  if (!Number.isSafeInteger(n))
    throw new UsageError(`--${name}: ${quoteInput(raw)} is out of range`, "invalid-option-value");
  return n;
}

/**
 * Parses `argv` against `specs`. `--help` or `-h` in an option position sets "help" (the caller
 * prints the command's help and exits 0); as the value of an option it is that value.
 */
export function parseOptions(argv: readonly string[], specs: OptionSpecs): ParsedOptions {
  const known = specMap(specs);
  const out = new Map<string, OptionValue>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--help" || arg === "-h") {
      out.set(HELP, true);
      continue;
    }
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument ${quoteInput(arg)}`);
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const spec = known.get(name);
    if (spec === undefined)
      throw new UsageError(`unknown option --${quoteInput(name).slice(1, -1)}`, "unknown-option");
    if (spec.kind === "flag") {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`, "invalid-option-value");
      out.set(name, true);
      continue;
    }
    let raw: string;
    if (eq !== -1) raw = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`--${name} needs a value`, "invalid-option-value");
      raw = next;
      i++;
    }
    if (spec.choices !== undefined && !spec.choices.includes(raw)) {
      throw new UsageError(
        `--${name} must be one of ${spec.choices.join(", ")}; got ${quoteInput(raw)}`,
        "invalid-option-value",
      );
    }
    switch (spec.kind) {
      case "string":
        if (out.has(name)) throw new UsageError(`--${name} given twice`);
        out.set(name, raw);
        break;
      case "int":
        if (out.has(name)) throw new UsageError(`--${name} given twice`);
        out.set(name, parseIntStrict(name, raw));
        break;
      case "string[]": {
        const prev = out.get(name);
        out.set(name, [...(Array.isArray(prev) ? prev.map(String) : []), raw]);
        break;
      }
      case "int[]": {
        const prev = out.get(name);
        out.set(name, [...(Array.isArray(prev) ? prev.map(Number) : []), parseIntStrict(name, raw)]);
        break;
      }
    }
  }
  return out;
}

export function getString(opts: ParsedOptions, name: string): string | undefined {
  const v = opts.get(name);
  return typeof v === "string" ? v : undefined;
}

export function getInt(opts: ParsedOptions, name: string): number | undefined {
  const v = opts.get(name);
  return typeof v === "number" ? v : undefined;
}

export function getFlag(opts: ParsedOptions, name: string): boolean {
  return opts.get(name) === true;
}

export function getStrings(opts: ParsedOptions, name: string): string[] {
  const v = opts.get(name);
  return Array.isArray(v) ? v.map(String) : [];
}

export function getInts(opts: ParsedOptions, name: string): number[] {
  const v = opts.get(name);
  return Array.isArray(v) ? v.map(Number) : [];
}
