// Tool parameter schemas as the suites write them: an object whose properties each have a type.

/** A property's JSON Schema type: one name, or a list of them. */
export type SchemaType = string | readonly string[];

/** `{"type": "object", "properties": {KEY: {"type": TYPE}, ...}}`, in the order of `types`. */
export function objectOf(types: Readonly<Record<string, SchemaType>>): {
  readonly type: "object";
  readonly properties: { readonly [key: string]: { readonly type: SchemaType } };
} {
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(types).map(([key, type]) => [key, { type }])),
  };
}
