// Option parsing for the machine-facing CLI. Strict: unknown options, missing values and
// malformed numbers are usage errors (exit 2), never silently ignored.

export type OptionKind = "string" | "int" | "flag" | "string[]" | "int[]";

export interface OptionSpec {
  readonly kind: OptionKind;
  readonly choices?: readonly string[];
  readonly description: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export type OptionValue = string | number | boolean | string[] | number[];
export type ParsedOptions = ReadonlyMap<string, OptionValue>;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

function parseIntStrict(name: string, raw: string): number {
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${name} takes an integer, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${name}: ${raw} is out of range`);
  return n;
}

export function parseOptions(argv: readonly string[], specs: OptionSpecs): ParsedOptions {
  const out = new Map<string, OptionValue>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const spec = specs[name];
    if (spec === undefined) throw new UsageError(`unknown option --${name}`);
    if (spec.kind === "flag") {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      out.set(name, true);
      continue;
    }
    let raw: string;
    if (eq !== -1) raw = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`--${name} needs a value`);
      raw = next;
      i++;
    }
    if (spec.choices !== undefined && !spec.choices.includes(raw)) {
      throw new UsageError(`--${name} must be one of ${spec.choices.join(", ")}; got ${JSON.stringify(raw)}`);
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
        const prev = (out.get(name) as string[] | undefined) ?? [];
        out.set(name, [...prev, raw]);
        break;
      }
      case "int[]": {
        const prev = (out.get(name) as number[] | undefined) ?? [];
        out.set(name, [...prev, parseIntStrict(name, raw)]);
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
