// The syntax tree of @huggingface/jinja's parser (its dist exports `tokenize` and `parse`, not the
// node classes' types), described structurally: only the fields the interpreter reads.
import { parse, tokenize } from "@huggingface/jinja";
import { normalizeNewlines, rewriteTokens } from "./syntax-rewrite.ts";

export interface Node {
  readonly type: string;
}
export interface Tok {
  readonly value: string;
  readonly type: string;
}
export interface CallStatementNode extends Node {
  readonly call: CallNode;
  readonly callerArgs: readonly Node[] | null;
  readonly body: readonly Node[];
}
export interface SpreadNode extends Node {
  readonly argument: Node;
}
export interface ProgramNode extends Node {
  readonly body: readonly Node[];
}
export interface IfNode extends Node {
  readonly test: Node;
  readonly body: readonly Node[];
  readonly alternate: readonly Node[];
}
export interface ForNode extends Node {
  readonly loopvar: Node;
  readonly iterable: Node;
  readonly body: readonly Node[];
  readonly defaultBlock: readonly Node[];
}
export interface SetNode extends Node {
  readonly assignee: Node;
  readonly value: Node | null;
  readonly body: readonly Node[];
}
export interface MacroNode extends Node {
  readonly name: IdentNode;
  readonly args: readonly Node[];
  readonly body: readonly Node[];
}
export interface IdentNode extends Node {
  readonly value: string;
}
export interface LiteralNode<T> extends Node {
  readonly value: T;
}
export interface MemberNode extends Node {
  readonly object: Node;
  readonly property: Node;
  readonly computed: boolean;
}
export interface CallNode extends Node {
  readonly callee: Node;
  readonly args: readonly Node[];
}
export interface BinaryNode extends Node {
  readonly operator: Tok;
  readonly left: Node;
  readonly right: Node;
}
export interface UnaryNode extends Node {
  readonly operator: Tok;
  readonly argument: Node;
}
export interface FilterNode extends Node {
  readonly operand: Node;
  readonly filter: Node;
}
export interface FilterStatementNode extends Node {
  readonly filter: Node;
  readonly body: readonly Node[];
}
export interface SelectNode extends Node {
  readonly lhs: Node;
  readonly test: Node;
}
export interface TestNode extends Node {
  readonly operand: Node;
  readonly negate: boolean;
  readonly test: IdentNode;
}
export interface SliceNode extends Node {
  readonly start: Node | undefined;
  readonly stop: Node | undefined;
  readonly step: Node | undefined;
}
export interface KwargNode extends Node {
  readonly key: IdentNode;
  readonly value: Node;
}
export interface TernaryNode extends Node {
  readonly condition: Node;
  readonly trueExpr: Node;
  readonly falseExpr: Node;
}

/** Parses with transformers' environment options (trim_blocks, lstrip_blocks). */
export function parseTemplate(source: string): ProgramNode {
  const tokens = rewriteTokens(
    tokenize(normalizeNewlines(source), { trim_blocks: true, lstrip_blocks: true }),
  );
  return parse(tokens as Parameters<typeof parse>[0]) as unknown as ProgramNode;
}
