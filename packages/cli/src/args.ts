// Option parsing for the machine-facing CLI. Strict: unknown options, missing values, malformed or
// out-of-range numbers, a flag with a value and an option given twice are usage errors (exit 2),
// never silently ignored; `--help` / `-h` in any option position wins over all of them. Option
// names come from the caller, so they are looked up in a Map built from the command's own specs:
// `--constructor` or `--__proto__` are unknown options, not Object.prototype members. Caller input
// in messages is quoted to at most 40 characters (quote.ts).

import { quoteInput } from "./quote.ts";

export type OptionKind = "string" | "int" | "flag" | "string[]" | "int[]";

export interface OptionSpec {
  readonly kind: OptionKind;
  readonly choices?: readonly string[];
  readonly description: string;
  /** Shown in --help; the value used when the option is absent. */
  readonly default?: string;
  /** int / int[]: the smallest and largest value accepted (else `invalid-option-value`). */
  readonly min?: number;
  readonly max?: number;
}

/** Node's timers fire at once past this (a 32-bit signed ms count): the largest time option. */
const MAX_TIMER_MS = 2_147_483_647;

/** Range presets of int options. A time in ms: at least 1, within what Node's timers can wait. */
export const TIME_MS = { kind: "int", min: 1, max: MAX_TIMER_MS } as const;
/** A pause in ms: 0 (none) or more, within what Node's timers can wait. */
export const DELAY_MS = { kind: "int", min: 0, max: MAX_TIMER_MS } as const;
/** A count or size: at least 1. */
export const POSITIVE = { kind: "int", min: 1 } as const;

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
  | "stop-token-out-of-vocabulary"
  // serve only: the engine cannot start (an unreachable upstream, a model that does not load), or
  // the server cannot listen on --host:--port.
  | "engine-unavailable"
  | "listen-failed";

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

function parseIntStrict(name: string, raw: string, spec: OptionSpec): number {
  if (!/^-?\d+$/.test(raw))
    throw new UsageError(`--${name} takes an integer, got ${quoteInput(raw)}`, "invalid-option-value");
  const n = Number(raw);
  if (!Number.isSafeInteger(n))
    throw new UsageError(`--${name}: ${quoteInput(raw)} is out of range`, "invalid-option-value");
  const { min, max } = spec;
  if ((min !== undefined && n < min) || (max !== undefined && n > max))
    throw new UsageError(`--${name} must be ${rangeText(spec)}, got ${n}`, "invalid-option-value");
  return n;
}

/** The accepted integers of an int option in words ("between 1 and 10", "at least 0"), or "". */
export function rangeText(spec: OptionSpec): string {
  const { min, max } = spec;
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  if (min !== undefined) return `at least ${min}`;
  return max !== undefined ? `at most ${max}` : "";
}

function isHelp(arg: string): boolean {
  return arg === "--help" || arg === "-h";
}

/**
 * Parses `argv` against `specs`. `--help` or `-h` in an option position sets "help" (the caller
 * prints the command's help and exits 0), even after an error earlier on the line: the first
 * error is thrown only when no help was asked for. As the value of an option it is that value.
 * An unknown option is taken to have no value, so `--bogus -h` is help.
 */
export function parseOptions(argv: readonly string[], specs: OptionSpecs): ParsedOptions {
  const known = specMap(specs);
  const out = new Map<string, OptionValue>();
  let firstError: UsageError | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (isHelp(arg)) {
      out.set(HELP, true);
      continue;
    }
    try {
      parseOne(argv, i, known, out);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      firstError ??= err;
    }
    // Past the option's value, whether or not it was good (`--format -h` is a bad format).
    if (takesNextArg(arg, known)) i++;
  }
  if (firstError !== undefined && out.get(HELP) !== true) throw firstError;
  return out;
}

/** Whether the option `arg` takes the next argument as its value (`--name value`). */
function takesNextArg(arg: string, known: ReadonlyMap<string, OptionSpec>): boolean {
  if (!arg.startsWith("--") || arg.includes("=")) return false;
  const spec = known.get(arg.slice(2));
  return spec !== undefined && spec.kind !== "flag";
}

/** Parses the option at argv[i] (and its value, argv[i + 1] when takesNextArg) into `out`. */
function parseOne(
  argv: readonly string[],
  i: number,
  known: ReadonlyMap<string, OptionSpec>,
  out: Map<string, OptionValue>,
): void {
  const arg = argv[i] ?? "";
  if (!arg.startsWith("--")) throw new UsageError(`unexpected argument ${quoteInput(arg)}`);
  const eq = arg.indexOf("=");
  const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
  // `--help=yes`: help is a flag like the others, and a flag takes no value.
  if (name === HELP) throw new UsageError(`--${HELP} takes no value`, "invalid-option-value");
  const spec = known.get(name);
  if (spec === undefined)
    throw new UsageError(`unknown option --${quoteInput(name).slice(1, -1)}`, "unknown-option");
  if (spec.kind === "flag") {
    if (eq !== -1) throw new UsageError(`--${name} takes no value`, "invalid-option-value");
    if (out.has(name)) throw new UsageError(`--${name} given twice`);
    out.set(name, true);
    return;
  }
  let raw: string;
  if (eq !== -1) raw = arg.slice(eq + 1);
  else {
    const next = argv[i + 1];
    if (next === undefined) throw new UsageError(`--${name} needs a value`, "invalid-option-value");
    raw = next;
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
      out.set(name, parseIntStrict(name, raw, spec));
      break;
    case "string[]": {
      const prev = out.get(name);
      out.set(name, [...(Array.isArray(prev) ? prev.map(String) : []), raw]);
      break;
    }
    case "int[]": {
      const prev = out.get(name);
      out.set(name, [...(Array.isArray(prev) ? prev.map(Number) : []), parseIntStrict(name, raw, spec)]);
      break;
    }
  }
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
