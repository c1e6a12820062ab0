// tool_choice (untrusted JSON) -> what the server honours (docs/openai.md "tool_choice"):
//   absent / null / "auto" -> auto;  "none" -> none (tools left out of the prompt)
//   "required"             -> required (needs non-empty tools)
//   {type: "function", function: {name}} -> named (the name must be one of tools[].function.name)
// required / named are honoured by prefill (./prefill.ts), never by constrained decoding.
import { quote40, RequestError } from "./errors.ts";
import { isObj, own } from "./request.ts";

export type ToolChoice =
  | { readonly type: "auto" }
  | { readonly type: "none" }
  | { readonly type: "required" }
  | { readonly type: "function"; readonly name: string };

const bad = (message: string) =>
  new RequestError("invalid-parameter", `tool_choice: ${message}`, "tool_choice");

/** The function names of `tools` (only well-shaped entries; encodeChat checks the rest). */
function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  const names: string[] = [];
  for (const t of tools) {
    const f = isObj(t) ? own(t, "function") : undefined;
    const n = isObj(f) ? own(f, "name") : undefined;
    if (typeof n === "string") names.push(n);
  }
  return names;
}

export function mapToolChoice(choice: unknown, tools: unknown): ToolChoice | RequestError {
  if (choice === undefined || choice === null || choice === "auto") return { type: "auto" };
  if (choice === "none") return { type: "none" };
  const names = toolNames(tools);
  if (choice === "required") {
    if (names.length === 0) return bad('"required" needs a non-empty tools list');
    return { type: "required" };
  }
  if (!isObj(choice)) return bad('must be "none", "auto", "required" or a named function');
  const f = own(choice, "function");
  const name = isObj(f) ? own(f, "name") : undefined;
  if (own(choice, "type") !== "function" || typeof name !== "string")
    return bad('a named choice is {"type": "function", "function": {"name": NAME}}');
  if (!names.includes(name)) return bad(`${quote40(name)} is not one of the request's tools`);
  return { type: "function", name };
}
