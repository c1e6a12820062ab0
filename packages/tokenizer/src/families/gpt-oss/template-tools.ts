// The gpt-oss chat_template's tool text: a re-implementation (labelled as such) of the macros
// `render_tool_namespace` and `render_typescript_type` of gpt-oss-120b.jinja (the template in
// ../shared/templates, SOURCES.md there), with the whitespace jinja2 leaves under transformers'
// trim_blocks + lstrip_blocks. Differs from harmony's own tool text (./harmony-tools.ts); the
// differences are listed in docs/formats.md "gpt-oss". Checked against Python jinja2 renderings
// (test-vectors/golden/gpt-oss.template.json).
//
// Jinja semantics kept: truthiness (empty string/list/object, 0, false, null are false), `in` on
// the `required` list, and the scoping bug of its `oneOf` branch (`set has_object_variants` inside
// the for loop never leaks, so the "any" fallback never fires). Where the template raises (a
// tool without a description, a non-string default of an enum or oneOf parameter), this writes
// the nearest text instead: an empty description, the default as JSON.
// Input is checked JSON (depth-limited by normalize.ts), so the recursion is bounded.
import { pyJsonDumps } from "../../py/json.ts";
import { isObject } from "../../request/schema.ts";

function get(o: unknown, key: string): unknown {
  return isObject(o) && Object.hasOwn(o, key) ? o[key] : undefined;
}

/** Python/jinja truthiness of a JSON value. */
function truthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return true;
}

/** `name in (required or [])`. */
function inRequired(name: string, required: unknown): boolean {
  if (Array.isArray(required)) return required.includes(name);
  if (typeof required === "string") return required.includes(name);
  return isObject(required) && Object.hasOwn(required, name);
}

/** Python str() of a JSON scalar, as `join` writes it. */
function pyStr(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === true) return "True";
  if (v === false) return "False";
  if (v === null) return "None";
  return pyJsonDumps(v);
}

/** `"…" + value` where the template concatenates (a string as is; anything else as JSON). */
function concat(v: unknown): string {
  return typeof v === "string" ? v : pyJsonDumps(v);
}

const ARRAY_OF: ReadonlyMap<unknown, string> = new Map([
  ["string", "string[]"],
  ["number", "number[]"],
  ["integer", "number[]"],
  ["boolean", "boolean[]"],
]);

/** render_typescript_type(param_spec, required_params). */
export function templateType(spec: unknown): string {
  const type = get(spec, "type");
  const nullable = truthy(get(spec, "nullable"));
  if (type === "array") {
    const items = get(spec, "items");
    let out: string;
    if (truthy(items)) {
      const simple = ARRAY_OF.get(get(items, "type"));
      if (simple !== undefined) out = simple;
      else {
        const inner = templateType(items);
        out = inner === "object | object" || inner.length > 50 ? "any[]" : `${inner}[]`;
      }
    } else out = "any[]";
    return nullable ? `${out} | null` : out;
  }
  if (Array.isArray(type) && type.length > 0) {
    return type.length > 1 ? type.map(pyStr).join(" | ") : pyStr(type[0]);
  }
  const oneOf = get(spec, "oneOf");
  if (truthy(oneOf) && Array.isArray(oneOf)) {
    let out = "";
    oneOf.forEach((variant, i) => {
      out += templateType(variant);
      const desc = get(variant, "description");
      if (truthy(desc)) out += `// ${concat(desc)}`;
      const d = get(variant, "default");
      // `{{ … }}` without `-`: the 20 spaces of its line stay in the output.
      if (d !== undefined) out += `${" ".repeat(20)}// default: ${pyJsonDumps(d)}`;
      // `{{- " | " }}` then a newline before `{% endif -%}`: both stay.
      if (i < oneOf.length - 1) out += " | \n";
    });
    return out;
  }
  if (type === "string") {
    const e = get(spec, "enum");
    if (truthy(e) && Array.isArray(e)) return `"${e.map(pyStr).join('" | "')}"`;
    return nullable ? "string | null" : "string";
  }
  if (type === "number" || type === "integer") return "number";
  if (type === "boolean") return "boolean";
  if (type === "object") {
    const props = get(spec, "properties");
    if (!truthy(props) || !isObject(props)) return "object";
    const required = get(spec, "required");
    const keys = Object.keys(props);
    let out = "{\n";
    keys.forEach((k, i) => {
      // `{{- ": " }}` then a newline and 16 spaces before `{{ render_typescript_type(…) }}`: kept.
      out += `${k}${inRequired(k, required) ? "" : "?"}: \n${" ".repeat(16)}${templateType(props[k])}`;
      if (i < keys.length - 1) out += ", ";
    });
    return `${out}}`;
  }
  return "any";
}

export interface TemplateTool {
  readonly description: string | undefined;
  readonly name: string;
  readonly parameters: unknown;
}

/** render_tool_namespace("functions", tools). */
export function templateToolNamespace(namespace: string, tools: readonly TemplateTool[]): string {
  let out = `## ${namespace}\n\nnamespace ${namespace} {\n\n`;
  for (const t of tools) {
    out += `// ${t.description ?? ""}\ntype ${t.name} = `;
    const params = t.parameters;
    const props = get(params, "properties");
    if (truthy(params) && truthy(props) && isObject(props)) {
      out += "(_: {\n";
      const required = get(params, "required");
      for (const k of Object.keys(props)) {
        const p = props[k];
        const desc = get(p, "description");
        if (truthy(desc)) out += `// ${concat(desc)}\n`;
        out += `${k}${inRequired(k, required) ? "" : "?"}: ${templateType(p)}`;
        const d = get(p, "default");
        if (d !== undefined) {
          if (truthy(get(p, "enum"))) out += `, // default: ${concat(d)}`;
          else if (truthy(get(p, "oneOf"))) out += `// default: ${concat(d)}`;
          else out += `, // default: ${pyJsonDumps(d)}`;
        }
        out += ",\n";
      }
      out += "}) => any;\n\n";
    } else out += "() => any;\n\n";
  }
  return `${out}} // namespace ${namespace}`;
}
