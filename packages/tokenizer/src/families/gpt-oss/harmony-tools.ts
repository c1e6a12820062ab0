// harmony's tools section: JSON Schema -> its TypeScript-like `namespace functions { ... }`.
// A re-implementation (labelled as such) of openai/harmony v0.0.8 src/encoding.rs
// `json_schema_to_typescript` and `template_tools_section`, rule for rule; checked against its
// expected output test_render_functions_with_parameters.txt (docs/formats.md "gpt-oss").
// Input is checked JSON (depth-limited by normalize.ts), so the recursion is bounded.
import { isObject, type JsonObject } from "../../request/schema.ts";

export interface HarmonyTool {
  readonly name: string;
  readonly description: string;
  readonly parameters?: JsonObject | undefined;
}

/** Rust str::lines(): split on "\n", drop one trailing empty line and a trailing "\r" per line. */
function lines(s: string): string[] {
  if (s === "") return [];
  const out = s.split("\n");
  if (out[out.length - 1] === "") out.pop();
  return out.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** serde_json's Display of a value (compact JSON). */
function jsonText(v: unknown): string {
  return JSON.stringify(v) ?? "null";
}

function get(o: unknown, key: string): unknown {
  return isObject(o) && Object.hasOwn(o, key) ? o[key] : undefined;
}

function isEnum(schema: unknown): boolean {
  const e = get(schema, "enum");
  return Array.isArray(e) && e.length > 0;
}

function nullable(schema: unknown, type: string): string {
  return get(schema, "nullable") === true && !type.includes("null") ? `${type} | null` : type;
}

/** The "default: ..." comment text, as harmony writes it in each place. */
function defaultText(schema: unknown, d: unknown, quoteStringEnum: boolean): string {
  if (typeof d === "string" && !isEnum(schema)) return `default: "${d}"`;
  if (typeof d === "string" && !quoteStringEnum) return `default: ${d}`;
  return `default: ${jsonText(d)}`;
}

export function schemaToTypescript(schema: unknown, indent: string): string {
  const oneOf = get(schema, "oneOf");
  if (Array.isArray(oneOf)) {
    let out = "";
    for (const variant of oneOf) {
      out += `\n${indent} | `;
      out += nullable(variant, schemaToTypescript(variant, `${indent}   `));
      const comments: string[] = [];
      const desc = get(variant, "description");
      if (typeof desc === "string") comments.push(desc);
      const d = get(variant, "default");
      if (d !== undefined) comments.push(defaultText(variant, d, true));
      if (comments.length > 0) out += ` // ${comments.join(" ")}`;
    }
    return out;
  }
  const type = get(schema, "type");
  if (Array.isArray(type)) {
    const names = type
      .filter((t): t is string => typeof t === "string")
      .map((t) => (t === "integer" ? "number" : t));
    if (names.length > 0) return names.join(" | ");
  }
  if (typeof type !== "string") return "any";
  switch (type) {
    case "object":
      return objectType(schema, indent);
    case "string": {
      const e = get(schema, "enum");
      if (Array.isArray(e)) {
        const vals = e.filter((v): v is string => typeof v === "string").map((v) => `"${v}"`);
        if (vals.length > 0) return vals.join(" | ");
      }
      return "string";
    }
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "array": {
      const items = get(schema, "items");
      return items === undefined ? "Array<any>" : `${schemaToTypescript(items, indent)}[]`;
    }
    default:
      return "any";
  }
}

function objectType(schema: unknown, indent: string): string {
  let out = "";
  const desc = get(schema, "description");
  if (typeof desc === "string") out += `${indent}// ${desc}\n`;
  out += "{\n";
  const props = get(schema, "properties");
  if (isObject(props)) {
    const reqList = get(schema, "required");
    const required = new Set(Array.isArray(reqList) ? reqList.filter((r) => typeof r === "string") : []);
    for (const key of Object.keys(props)) {
      const val = props[key];
      const opt = required.has(key) ? "" : "?";
      const title = get(val, "title");
      if (typeof title === "string") out += `${indent}// ${title}\n${indent}//\n`;
      const oneOf = get(val, "oneOf");
      const pdesc = get(val, "description");
      if (oneOf === undefined && typeof pdesc === "string") out += `${indent}// ${pdesc}\n`;
      const examples = get(val, "examples");
      if (Array.isArray(examples) && examples.length > 0) {
        out += `${indent}// Examples:\n`;
        for (const ex of examples) if (typeof ex === "string") out += `${indent}// - "${ex}"\n`;
      }
      if (Array.isArray(oneOf)) {
        const propertyDesc = typeof pdesc === "string" ? pdesc : undefined;
        const firstDesc = get(oneOf[0], "description");
        const skip =
          propertyDesc !== undefined && typeof firstDesc === "string" && firstDesc === propertyDesc;
        let above = false;
        if (!skip && propertyDesc !== undefined) {
          out += `${indent}// ${propertyDesc}\n`;
          above = true;
        }
        const d = get(val, "default");
        if (d !== undefined) out += `${indent}// ${defaultText(val, d, false)}\n`;
        out += `${indent}${key}${opt}:\n`;
        oneOf.forEach((variant, i) => {
          out += `${indent} | `;
          out += nullable(variant, schemaToTypescript(variant, `${indent}   `));
          const comments: string[] = [];
          const vdesc = get(variant, "description");
          if (!(i === 0 && above) && typeof vdesc === "string" && vdesc !== propertyDesc)
            comments.push(vdesc);
          const vd = get(variant, "default");
          if (vd !== undefined) comments.push(defaultText(variant, vd, false));
          if (comments.length > 0) out += ` // ${comments.join(" ")}`;
          out += "\n";
        });
        out += `${indent},\n`;
        continue;
      }
      out += `${indent}${key}${opt}: `;
      out += nullable(val, schemaToTypescript(val, `${indent}    `));
      out += ",";
      const d = get(val, "default");
      if (d !== undefined) out += ` // ${defaultText(val, d, false)}`;
      out += "\n";
    }
  }
  out += `${indent}}`;
  return out;
}

/** A tool namespace (harmony's ToolNamespaceConfig): `functions`, or a built-in such as `browser`. */
export interface HarmonyNamespace {
  readonly name: string;
  readonly description?: string | undefined;
  readonly tools: readonly HarmonyTool[];
}

/** harmony's "# Tools" section; namespaces in name order (harmony keeps them in a BTreeMap). */
export function toolsSection(namespaces: readonly HarmonyNamespace[]): string {
  const sections: string[] = ["# Tools"];
  const sorted = [...namespaces].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const ns of sorted) {
    const content: string[] = [`## ${ns.name}\n`];
    const hasTools = ns.tools.length > 0;
    // A namespace description: `//` comments above the namespace, plain text without tools.
    if (ns.description !== undefined)
      for (const l of lines(ns.description)) content.push(hasTools ? `// ${l}` : l);
    if (hasTools) {
      content.push(`namespace ${ns.name} {\n`);
      for (const t of ns.tools) {
        for (const l of lines(t.description)) content.push(`// ${l}`);
        if (t.parameters !== undefined)
          content.push(`type ${t.name} = (_: ${schemaToTypescript(t.parameters, "")}) => any;\n`);
        else content.push(`type ${t.name} = () => any;\n`);
      }
      content.push(`} // namespace ${ns.name}`);
    }
    sections.push(content.join("\n"));
  }
  return sections.join("\n\n");
}
