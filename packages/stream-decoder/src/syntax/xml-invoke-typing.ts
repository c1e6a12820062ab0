// Typing of an `<invoke>` list's parameter value (`<parameter name="K">V</parameter>`) by the
// tool's JSON schema. A re-implementation, labelled as such, of `_extract_types_from_schema` and
// `_convert_param_value_with_types` of vLLM's tool parser for this format (vllm @ 9412856add43,
// vllm/tool_parsers/; the file is named in docs/decoder.md, which this engine file may not name):
//
//   value stripped of whitespace (Python str.strip)
//   request without tools             -> the text (vLLM's streaming reading)
//   types of the property: "type" (a string or a list), the JSON types of "enum" values, and the
//     same of every "anyOf" / "oneOf" / "allOf" branch; none (or no such property): string
//   value.lower() in null / none / nil  -> null
//   tried in this order, the first that applies wins:
//     integer int      -> Python int(value), else next
//     number float     -> Python float(value): integral -> integer, else float; else next
//     boolean bool     -> true / 1 / yes / on -> true; false / 0 / no / off -> false; else next
//     object array     -> json.loads, else next
//     string str text  -> the text
//   none applied       -> json.loads, else the text
//
// Where this differs from vLLM: an infinite float (vLLM: int(inf) raises OverflowError, which it
// does not catch) goes on to the next type; json.loads is JSON.parse (NaN / Infinity refused).
import { jsonNumber } from "./json-text.ts";
import { pyFloat, pyIntText, pyStrip } from "./python-number.ts";
import { asString, jsonLoads, type Properties, type Typed } from "./xml-call-typing.ts";

export const PRIORITY = [
  "integer",
  "int",
  "number",
  "float",
  "boolean",
  "bool",
  "object",
  "array",
  "string",
  "str",
  "text",
];
const NULLS = new Set(["null", "none", "nil"]);
const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);
/** Nesting of anyOf / oneOf / allOf followed (deeper branches add no type). */
const MAX_SCHEMA_DEPTH = 16;

function isObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function enumType(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "string") return "string";
  return Array.isArray(v) ? "array" : "object";
}

function collectTypes(schema: unknown, into: Set<string>, depth: number): void {
  if (!isObject(schema) || depth > MAX_SCHEMA_DEPTH) return;
  const t = schema.type;
  if (typeof t === "string") into.add(t);
  else if (Array.isArray(t)) for (const x of t) if (typeof x === "string") into.add(x);
  const e = schema.enum;
  if (Array.isArray(e)) for (const v of e) into.add(enumType(v));
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    const branches = schema[k];
    if (Array.isArray(branches)) for (const b of branches) collectTypes(b, into, depth + 1);
  }
}

/** The types a property's schema names, lower-cased (empty: none). */
export function namedTypes(props: Properties, name: string): ReadonlySet<string> {
  const out = new Set<string>();
  if (Object.hasOwn(props, name)) collectTypes(props[name], out, 0);
  return new Set([...out].map((t) => t.toLowerCase()));
}

/** The types a property allows ("string" when the schema names none). */
export function schemaTypes(props: Properties, name: string): ReadonlySet<string> {
  const named = namedTypes(props, name);
  return named.size === 0 ? new Set(["string"]) : named;
}

export function byType(value: string, type: string): Typed | undefined {
  switch (type) {
    case "integer":
    case "int": {
      const digits = pyIntText(value);
      if (digits === undefined) return undefined;
      const n = Number(digits);
      return Number.isFinite(n) ? { json: digits, value: n } : undefined;
    }
    case "number":
    case "float": {
      const f = pyFloat(value);
      if (f === undefined || !Number.isFinite(f)) return undefined;
      return { json: jsonNumber(f), value: f === 0 ? 0 : f };
    }
    case "boolean":
    case "bool": {
      const v = pyStrip(value).toLowerCase();
      if (TRUE.has(v)) return { json: "true", value: true };
      if (FALSE.has(v)) return { json: "false", value: false };
      return undefined;
    }
    case "object":
    case "array":
      return jsonLoads(value);
    default:
      return asString(value);
  }
}

/** The value of parameter `name` written as `raw`; `props` undefined: the request had no tools. */
export function typeInvokeValue(raw: string, name: string, props: Properties | undefined): Typed {
  const value = pyStrip(raw);
  if (props === undefined) return asString(value);
  if (NULLS.has(value.toLowerCase())) return { json: "null", value: null };
  const types = schemaTypes(props, name);
  for (const t of PRIORITY) {
    if (!types.has(t)) continue;
    const typed = byType(value, t);
    if (typed !== undefined) return typed;
  }
  return jsonLoads(value) ?? asString(value);
}
