// Typing of an xml-call parameter value (text between <parameter=K> and </parameter>) by the
// tool's JSON schema. A re-implementation, labelled as such, of the `_get_arguments_config` and
// `_convert_param_value` of vLLM's tool parser for this XML call format (vllm @ 0b13f933b50e,
// vllm/tool_parsers/; the file is named in the family's docs, which this engine file may not name):
//
//   request without tools     -> every value is a string (vLLM would still turn "null" into null)
//   value.lower() == "null"    -> null, whatever the type
//   tool or parameter unknown  -> string
//   type = str(schema.type).strip().lower() ("string" when the property has no "type"):
//     string str text varchar char enum              -> string
//     int* uint* long* short* unsigned*              -> Python int(value), else string (also
//                                                       past the double range: JSON.parse gives
//                                                       Infinity there)
//     num* float*                                    -> Python float(value): integral -> integer,
//                                                       else float; nan -> string; ±inf -> the
//                                                       call is an error (vLLM: OverflowError)
//     boolean bool binary                            -> value.lower() == "true" (anything else false)
//     object array arr dict* list*                   -> json.loads, else ast.literal_eval, else string
//     anything else (a list of types, "null", ...)   -> ast.literal_eval, else string
//
// So the template's renderings come back: True/False for booleans, ['07:00', '08:00'] (Python
// str() of a list) for arrays, {"k": v} (tojson) for objects.
//
// Where this differs from vLLM (Python values JSON cannot carry, or cost): json.loads is
// JSON.parse (NaN / Infinity and numbers that overflow a double are not taken: the value then
// goes on to the literal step); ast.literal_eval is parsePythonLiteral (../python-literal.ts:
// no top-level tuple without brackets, no sets / bytes / complex, integers beyond 2^53
// refused), and a value it refuses stays a string where vLLM's json.dumps would fail the whole
// call; a value nested deeper than MAX_NESTING_DEPTH makes the call an error; the schema of a
// tool is its `parameters` object as sent (its `properties` when that is an object, else the
// object itself, as vLLM does).
import { nestsDeeperThan } from "../action-parse.ts";
import { MAX_NESTING_DEPTH } from "../limits.ts";
import { type JsonValue, parsePythonLiteral } from "../python-literal.ts";
import { jsonNumber, jsonString, jsonText } from "./json-text.ts";
import { pyFloat, pyIntText, pyStrip } from "./python-number.ts";

/** A typed value: its JSON text (json.dumps spelling) and the value JSON.parse gives for it. */
export type Typed = { readonly json: string; readonly value: JsonValue } | { readonly error: string };

/** Property schemas of one tool, by parameter name (own keys only). */
export type Properties = Readonly<Record<string, unknown>>;

const STRING_TYPES = new Set(["string", "str", "text", "varchar", "char", "enum"]);
const INT_PREFIXES = ["int", "uint", "long", "short", "unsigned"];
const BOOL_TYPES = new Set(["boolean", "bool", "binary"]);
const JSON_TYPES = new Set(["object", "array", "arr"]);

function isPlainObject(v: unknown): v is Readonly<Record<string, unknown>> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** vLLM `_get_arguments_config` for the tool's parameters schema: the properties to type by. */
export function propertiesOf(parameters: unknown): Properties {
  if (!isPlainObject(parameters)) return {};
  if (Object.hasOwn(parameters, "properties")) {
    const p = parameters.properties;
    return isPlainObject(p) ? p : {};
  }
  return parameters;
}

export function asString(raw: string): Typed {
  return { json: jsonString(raw), value: raw };
}

/**
 * False when a number is not finite; turns -0 into 0 in place (the value is fresh from a parser;
 * Python reads "-0" as the int 0; its "-0.0" stays -0.0, a spelling JSON.parse does not keep).
 * The depth is already bounded by the caller.
 */
function finiteNoNegativeZero(v: JsonValue): boolean {
  if (Array.isArray(v)) {
    for (let k = 0; k < v.length; k++) {
      const x = v[k] as JsonValue;
      if (typeof x === "number") {
        if (!Number.isFinite(x)) return false;
        if (x === 0) v[k] = 0;
      } else if (!finiteNoNegativeZero(x)) return false;
    }
  } else if (v !== null && typeof v === "object") {
    for (const key of Object.keys(v)) {
      const x = v[key] as JsonValue;
      if (typeof x === "number") {
        if (!Number.isFinite(x)) return false;
        if (x === 0) v[key] = 0;
      } else if (!finiteNoNegativeZero(x)) return false;
    }
  }
  return true;
}

/** The typed form of a parsed value (undefined when a number is not finite). */
function parsed(v: JsonValue): Typed | undefined {
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return undefined;
    return { json: jsonNumber(v), value: v === 0 ? 0 : v };
  }
  if (!finiteNoNegativeZero(v)) return undefined;
  return { json: jsonText(v), value: v };
}

const TOO_DEEP: Typed = { error: `a parameter value is nested deeper than ${MAX_NESTING_DEPTH} levels` };

/** json.loads, or undefined when it fails (or gives a value JSON text cannot carry). */
export function jsonLoads(raw: string): Typed | undefined {
  let v: JsonValue;
  try {
    v = JSON.parse(raw) as JsonValue;
  } catch {
    return undefined;
  }
  // The text is valid JSON here, which nestsDeeperThan relies on; it runs before any recursion.
  if (nestsDeeperThan(raw, MAX_NESTING_DEPTH)) return TOO_DEEP;
  return parsed(v);
}

/** ast.literal_eval (leading spaces/tabs stripped, as it does), or undefined when it fails. */
export function literalEval(raw: string): Typed | undefined {
  let a = 0;
  while (a < raw.length && (raw.charCodeAt(a) === 32 || raw.charCodeAt(a) === 9)) a++;
  try {
    return parsed(parsePythonLiteral(a === 0 ? raw : raw.slice(a)));
  } catch {
    // Only PythonLiteralError comes here (the parser is depth-bounded). Too deep included:
    // CPython refuses more than 200 nested brackets with a SyntaxError, which vLLM turns into
    // the string.
    return undefined;
  }
}

/** The value of parameter `name` written as `raw`; `props` undefined: the request had no tools. */
export function typeValue(raw: string, name: string, props: Properties | undefined): Typed {
  if (props === undefined) return asString(raw);
  if (raw.toLowerCase() === "null") return { json: "null", value: null };
  if (!Object.hasOwn(props, name)) return asString(raw);
  const schema = props[name];
  let type = "string";
  if (isPlainObject(schema) && Object.hasOwn(schema, "type")) {
    const t = schema.type;
    // Python str() of a non-string (a list of types, a number, ...) starts with none of the
    // prefixes below: only the literal step applies, as in vLLM.
    type = typeof t === "string" ? pyStrip(t).toLowerCase() : "[other]";
  }
  if (STRING_TYPES.has(type)) return asString(raw);
  if (INT_PREFIXES.some((p) => type.startsWith(p))) {
    const digits = pyIntText(raw);
    if (digits === undefined) return asString(raw);
    // The exact digits are the JSON text; past the double range (about 1e308) JSON.parse of
    // them is Infinity, which no JSON consumer can hold: such an integer stays a string.
    const n = Number(digits);
    return Number.isFinite(n) ? { json: digits, value: n } : asString(raw);
  }
  if (type.startsWith("num") || type.startsWith("float")) {
    const f = pyFloat(raw);
    if (f === undefined || Number.isNaN(f)) return asString(raw);
    if (!Number.isFinite(f))
      return { error: `parameter ${jsonString(name.slice(0, 40))}: an infinite number` };
    // Number.isInteger(f) is vLLM's `f - int(f) == 0`; int(f) is exact: its digits via BigInt.
    return { json: jsonNumber(f), value: f === 0 ? 0 : f };
  }
  if (BOOL_TYPES.has(type)) {
    const b = raw.toLowerCase() === "true";
    return { json: b ? "true" : "false", value: b };
  }
  if (JSON_TYPES.has(type) || type.startsWith("dict") || type.startsWith("list")) {
    const j = jsonLoads(raw);
    if (j !== undefined) return j;
  }
  return literalEval(raw) ?? asString(raw);
}
