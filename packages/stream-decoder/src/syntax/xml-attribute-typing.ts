// Typing of a parameter value whose tag says how it is written (`string="true"`: text,
// `string="false"`: JSON), reconciled with the request's tool schema as vLLM's parser for that
// format does (its tests at vllm @ 00816550e740, tests/tool_parsers/; the file is named in
// docs/decoder.md, which this engine file may not name): the schema, when it names the
// property's types, wins over the attribute.
//
//   no tools, or the schema names no type  -> the attribute: "true" text; "false" JSON, else text
//   string="false", JSON of an allowed type -> that value ("integer" also allows "number"'s and back)
//   an allowed "string"                     -> the text
//   else                                    -> the schema's types tried in ./xml-invoke-typing.ts's
//                                              order (integer, number, boolean, object / array),
//                                              then JSON ("false"), then the text
import { asString, jsonLoads, type Properties, type Typed } from "./xml-call-typing.ts";
import { byType, namedTypes, PRIORITY } from "./xml-invoke-typing.ts";

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function allows(types: ReadonlySet<string>, v: unknown): boolean {
  const t = jsonType(v);
  if (types.has(t)) return true;
  if (t === "integer") return types.has("number") || types.has("int") || types.has("float");
  if (t === "number") return types.has("float");
  if (t === "boolean") return types.has("bool");
  return false;
}

/** `written`: the attribute's value ("true" / "false"); `props` undefined: no tools. */
export function typeAttributedValue(
  raw: string,
  written: "true" | "false",
  name: string,
  props: Properties | undefined,
): Typed {
  const json = written === "false" ? jsonLoads(raw) : undefined;
  if (json !== undefined && "error" in json) return json;
  const types = props === undefined ? new Set<string>() : namedTypes(props, name);
  if (types.size === 0) return json ?? asString(raw);
  if (json !== undefined && allows(types, json.value)) return json;
  if (types.has("string") || types.has("str") || types.has("text")) return asString(raw);
  for (const t of PRIORITY) {
    if (!types.has(t)) continue;
    const typed = byType(raw, t);
    if (typed !== undefined) return typed;
  }
  return json ?? asString(raw);
}
