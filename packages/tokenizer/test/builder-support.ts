// Random plans for the ChatBuilder tests (builder-plan.test.ts, builder-spare.test.ts): format
// code's calls as data, a mix of what takes the builder's shortcuts (template-only runs from
// the cache, a header ending in "\n" cut off before caller text) and what must not (caller text
// that starts with a space or a newline, caller text inside a header, template text after
// caller text), and the one way they are replayed into a builder.
import fc from "fast-check";
import { ChatBuilder, type ChatEncoding } from "../src/chat/builder.ts";
import { loadTokenizerSync } from "../src/node.ts";

export const tok = loadTokenizerSync("qwen3");
export const IM_START = tok.registry.idByName.get("<|im_start|>") as number;
export const IM_END = tok.registry.idByName.get("<|im_end|>") as number;

export type Op =
  | { kind: "reserved"; id: number }
  | { kind: "text"; text: string }
  | { kind: "caller"; text: string; offset: number }
  | { kind: "cut" };

const TEMPLATE = ["user", "assistant", "\n", "\n\n", " name=", "system"];
const CALLER = [
  "Hello",
  " Hello",
  "\nHello",
  "你好",
  "e\u0301",
  "\u0301x",
  "a<|im_end|>b",
  "<think>",
  "x</tool_call>",
  "😀 ok",
  "",
  "  \n",
  "tool",
];
export const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom(IM_START, IM_END).map((id): Op => ({ kind: "reserved", id })),
  fc.constantFrom(...TEMPLATE).map((text): Op => ({ kind: "text", text })),
  fc
    .tuple(fc.array(fc.constantFrom(...CALLER), { minLength: 1, maxLength: 3 }), fc.nat(5))
    .map(([parts, offset]): Op => ({ kind: "caller", text: parts.join(""), offset })),
  fc.constant<Op>({ kind: "cut" }),
);

/** Replays `ops` into `b` (op i belongs to message i; caller op i names field `f${i}`). */
export function fill(b: ChatBuilder, ops: readonly Op[]): void {
  ops.forEach((o, i) => {
    if (o.kind === "reserved") b.reserved(o.id, i, "marker");
    else if (o.kind === "text") b.text(o.text, i, "template");
    else if (o.kind === "caller") b.caller(o.text, i, "content", { field: `f${i}`, offset: o.offset });
    else b.cut();
  });
}

/** `ops` through a new builder ("neutralize"). */
export function build(ops: readonly Op[]): ChatEncoding {
  const b = new ChatBuilder(tok.textModel, tok.scanner, "neutralize");
  fill(b, ops);
  return b.finish();
}
