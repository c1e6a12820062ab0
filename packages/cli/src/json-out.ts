// One JSON text per answer, whatever the nesting depth. Native JSON.stringify recurses and throws
// RangeError past ~10k levels (e.g. a tool call's arguments nested that deep in model output);
// then the same value is written by an explicit-stack serializer with JSON.stringify's rules for
// plain data (toJSON, undefined/function/symbol members skipped in objects and null in arrays,
// non-finite numbers as null, a cycle is a TypeError). Measured reason for trying native first:
// it is several times faster on the common, shallow answers (large `ids` arrays).

type Frame =
  | { readonly kind: "array"; readonly value: readonly unknown[]; i: number }
  | { readonly kind: "object"; readonly value: object; readonly keys: string[]; i: number; wrote: boolean };

export function stringifyLine(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
  }
  return stringifyIterative(value);
}

/** A value's toJSON(key) result when it has one (as JSON.stringify does), else the value. */
function prepare(key: string, value: unknown): unknown {
  if (typeof value === "object" && value !== null && "toJSON" in value && typeof value.toJSON === "function")
    return (value.toJSON as (k: string) => unknown).call(value, key);
  return value;
}

/** JSON for a scalar, undefined when the value is skipped (undefined, function, symbol). */
function scalar(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    default:
      return value === null ? "null" : undefined;
  }
}

export function stringifyIterative(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const onPath = new Set<object>();

  /** Writes a scalar or opens a container; false when the value is skipped. */
  const open = (value: unknown): boolean => {
    if (typeof value !== "object" || value === null) {
      const s = scalar(value);
      if (s === undefined) return false;
      out.push(s);
      return true;
    }
    if (onPath.has(value)) throw new TypeError("Converting circular structure to JSON");
    onPath.add(value);
    if (Array.isArray(value)) {
      out.push("[");
      stack.push({ kind: "array", value, i: 0 });
    } else {
      out.push("{");
      stack.push({ kind: "object", value, keys: Object.keys(value), i: 0, wrote: false });
    }
    return true;
  };

  if (!open(prepare("", root))) return "null";
  for (;;) {
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    if (top.kind === "array") {
      if (top.i === top.value.length) {
        out.push("]");
        onPath.delete(top.value);
        stack.pop();
        continue;
      }
      const i = top.i++;
      if (i > 0) out.push(",");
      const v = prepare(String(i), top.value[i]);
      const kind = typeof v;
      if (kind === "undefined" || kind === "function" || kind === "symbol") out.push("null");
      else open(v);
    } else {
      if (top.i === top.keys.length) {
        out.push("}");
        onPath.delete(top.value);
        stack.pop();
        continue;
      }
      const key = top.keys[top.i++] as string;
      const v = prepare(key, (top.value as Record<string, unknown>)[key]);
      const kind = typeof v;
      if (kind === "undefined" || kind === "function" || kind === "symbol") continue;
      out.push(`${top.wrote ? "," : ""}${JSON.stringify(key)}:`);
      top.wrote = true;
      open(v);
    }
  }
  return out.join("");
}
