// Chat messages as the suites write them into encodeChat requests (the OpenAI shape).

/** A call an assistant message makes; `arguments` an object, or the JSON text of one. */
export interface CallOf {
  readonly name: string;
  readonly arguments: unknown;
  readonly id?: string;
}

/** An OpenAI tool call of a message. */
export interface ToolCallEntry {
  readonly id?: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: unknown };
}

/** `{id?, "type": "function", "function": {name, arguments}}`. */
export function toolCall(c: CallOf): ToolCallEntry {
  return {
    ...(c.id === undefined ? {} : { id: c.id }),
    type: "function",
    function: { name: c.name, arguments: c.arguments },
  };
}

/** An assistant message making `calls`, with `content` (null: none). */
export function assistantCalls(
  calls: readonly CallOf[],
  content: string | null = null,
): { readonly role: "assistant"; readonly content: string | null; readonly tool_calls: ToolCallEntry[] } {
  return { role: "assistant", content, tool_calls: calls.map(toolCall) };
}
