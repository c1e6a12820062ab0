// The request's tools (DecoderOptions.tools) as the JSON schemas body parsers type values by.
import type { ToolSchemas } from "./syntax/body.ts";

/** The request's tools as JSON schemas (parameters) by function name. */
export function toolSchemas(tools: readonly unknown[]): ToolSchemas {
  const out = new Map<string, unknown>();
  for (const t of tools) {
    if (typeof t !== "object" || t === null) continue;
    const o = t as { readonly function?: unknown; readonly name?: unknown; readonly parameters?: unknown };
    const f = (typeof o.function === "object" && o.function !== null ? o.function : o) as {
      readonly name?: unknown;
      readonly parameters?: unknown;
    };
    if (typeof f.name === "string" && !out.has(f.name)) out.set(f.name, f.parameters);
  }
  return out;
}
