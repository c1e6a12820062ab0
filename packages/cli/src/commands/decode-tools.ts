// The optional "tools" field of a decode input line: the request's tools (OpenAI shape,
// {"type": "function", "function": {"name": ..., "parameters": {...}}}), handed to the decoder
// as its `tools` option (tool-call detection in plain model text, typing of text-written
// parameters). Checked here so a malformed list is an input error naming the item, not a
// decoder exception. One pass over the list; values are not copied.
import { LineError } from "../command.ts";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** undefined when the line has no "tools"; else the checked list. */
export function toolsOfLine(value: unknown): readonly unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value))
    throw new LineError("invalid-input", '"tools" must be an array of tool objects', { field: "tools" });
  value.forEach((tool: unknown, i) => {
    const field = `tools[${i}]`;
    if (!isObject(tool)) throw new LineError("invalid-input", `"${field}" must be an object`, { field });
    if (tool.type !== undefined && tool.type !== "function")
      throw new LineError("invalid-input", `"${field}.type" must be "function"`, { field: `${field}.type` });
    const fn = tool.function;
    if (!isObject(fn) || typeof fn.name !== "string" || fn.name.length === 0)
      throw new LineError("invalid-input", `"${field}.function.name" must be a non-empty string`, {
        field: `${field}.function.name`,
      });
    if (fn.parameters !== undefined && fn.parameters !== null && !isObject(fn.parameters))
      throw new LineError("invalid-input", `"${field}.function.parameters" must be an object`, {
        field: `${field}.function.parameters`,
      });
  });
  return value;
}
