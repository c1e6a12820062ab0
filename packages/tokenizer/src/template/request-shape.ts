// What a chat template reads from a message, found once per compiled template by walking its
// syntax tree (docs/formats.md "The chat request", "What a template is given"):
// - contentList: the template loops over a message's content (`{% for part in message['content'] %}`),
//   so text parts reach it as a list. The detection is vLLM's `_detect_content_format`
//   (vllm/entrypoints/chat_utils.py), re-implemented on this parser's tree: names bound to
//   `messages` (directly or through `{% set %}`, with filters, tests and slices looked through),
//   the loop variables over them, then a loop over `<that variable>.content`.
// - contentNone: the template tests a message's content against none (`message['content'] is
//   none`, `content is not none`): it tells a null content from an empty one, and an assistant
//   message's tool calls may be written only on the null side (DeepSeek V3).
// - reasoningNames: which of `reasoning_content`, `reasoning`, `thinking` the template names
//   (as an attribute or a string): the message's reasoning is given under each of them.
// - argumentsMapping: the template reads a tool call's arguments as a mapping (`arguments|items`,
//   `arguments.items()`, `arguments is mapping`) or writes them as JSON with no `is string` test
//   (`arguments|tojson`: the JSON of the JSON string would be written otherwise), also through a name `{% set %}` to the
//   arguments or to `arguments or {}` / `arguments | default(...)`: JSON-string arguments (what
//   OpenAI clients send) are given to it parsed, as vLLM does for every template.
// The walk is iterative (an explicit stack): the tree's depth is the template's nesting.
import type { Node, ProgramNode } from "../jinja/ast.ts";

export const REASONING_NAMES = ["reasoning_content", "reasoning", "thinking"] as const;
export type ReasoningName = (typeof REASONING_NAMES)[number];

export interface RequestShape {
  readonly contentList: boolean;
  readonly contentNone: boolean;
  /** Never empty: reasoning_content when the template names none of the three. */
  readonly reasoningNames: readonly ReasoningName[];
  readonly argumentsMapping: boolean;
}

type AnyNode = Node & { readonly [k: string]: unknown };

const isNode = (v: unknown): v is AnyNode =>
  typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string";

/** Every node of the tree, parents first. */
function allNodes(root: Node): AnyNode[] {
  const out: AnyNode[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    if (!isNode(v)) continue;
    out.push(v);
    for (const k of Object.keys(v)) {
      if (k === "type") continue;
      const x = v[k];
      if (typeof x === "object" && x !== null) stack.push(x);
    }
  }
  return out;
}

const identName = (n: unknown): string | undefined =>
  isNode(n) && n.type === "Identifier" && typeof n.value === "string" ? n.value : undefined;

/** `name.key` or `name['key']`. */
function isAttrAccess(n: AnyNode, name: string, key: string): boolean {
  if (n.type !== "MemberExpression" || identName(n.object) !== name) return false;
  const p = n.property;
  if (!isNode(p)) return false;
  if (n.computed === true) return p.type === "StringLiteral" && p.value === key;
  return identName(p) === key;
}

/** vLLM's `_is_var_or_elems_access`: through filters, tests and slices, to `name` (or `name.key`). */
function isVarOrElemsAccess(n: unknown, name: string, key?: string): boolean {
  if (!isNode(n)) return false;
  if (n.type === "FilterExpression" || n.type === "TestExpression")
    return isVarOrElemsAccess(n.operand, name, key);
  if (n.type === "MemberExpression" && isNode(n.property) && n.property.type === "SliceExpression")
    return isVarOrElemsAccess(n.object, name, key);
  return key === undefined ? identName(n) === name : isAttrAccess(n, name, key);
}

/** The loop variables of `{% for x in <access to one of names> %}` (vLLM skips tuple targets too). */
function loopVars(nodes: readonly AnyNode[], names: readonly string[], key?: string): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    if (n.type !== "For") continue;
    const target = identName(n.loopvar);
    if (target === undefined) continue;
    if (names.some((v) => isVarOrElemsAccess(n.iterable, v, key))) out.push(target);
  }
  return out;
}

/** `messages` and every name `{% set %}` binds to an access of a name already found (vLLM's BFS). */
function messagesNames(nodes: readonly AnyNode[]): string[] {
  const names = ["messages"];
  const seen = new Set(names);
  for (let i = 0; i < names.length; i++) {
    const from = names[i] as string;
    for (const n of nodes) {
      if (n.type !== "Set" || !isVarOrElemsAccess(n.value, from)) continue;
      const to = identName(n.assignee);
      if (to !== undefined && !seen.has(to)) {
        seen.add(to);
        names.push(to);
      }
    }
  }
  return names;
}

/** A content access tested against none: `<x>.content is [not] none`, `content is [not] none`. */
function testsContentNone(n: AnyNode): boolean {
  if (n.type !== "TestExpression" || identName(n.test) !== "none") return false;
  const o = n.operand;
  if (!isNode(o)) return false;
  if (identName(o) === "content") return true;
  if (o.type !== "MemberExpression" || !isNode(o.property)) return false;
  const p = o.property;
  return o.computed === true
    ? p.type === "StringLiteral" && p.value === "content"
    : identName(p) === "content";
}

function namesReasoning(n: AnyNode, name: string): boolean {
  if (n.type === "StringLiteral") return n.value === name;
  if (n.type === "MemberExpression" && n.computed !== true) return identName(n.property) === name;
  return false;
}

/** `<x>.arguments` / `<x>['arguments']`. */
function isArgumentsMember(n: unknown): boolean {
  if (!isNode(n) || n.type !== "MemberExpression" || !isNode(n.property)) return false;
  const p = n.property;
  return n.computed === true
    ? p.type === "StringLiteral" && p.value === "arguments"
    : identName(p) === "arguments";
}

/** `<x>.arguments`, or it with a fallback: `<x>.arguments or {}`, `<x>.arguments | default({})`. */
function isArgumentsValue(n: unknown): boolean {
  if (isArgumentsMember(n)) return true;
  if (!isNode(n)) return false;
  if (n.type === "FilterExpression") return isArgumentsMember(n.operand);
  if (n.type === "BinaryExpression") {
    const op = n.operator as { value?: unknown } | undefined;
    return op?.value === "or" && isArgumentsMember(n.left);
  }
  return false;
}

function readsArgumentsAsMapping(nodes: readonly AnyNode[]): boolean {
  const aliases = new Set<string>();
  for (const n of nodes) {
    if (n.type !== "Set" || !isArgumentsValue(n.value)) continue;
    const to = identName(n.assignee);
    if (to !== undefined) aliases.add(to);
  }
  const args = (n: unknown): boolean => {
    if (isArgumentsMember(n)) return true;
    const name = identName(n);
    return name !== undefined && aliases.has(name);
  };
  const filtered = (n: AnyNode, name: string): boolean => {
    if (n.type !== "FilterExpression") return false;
    const f = n.filter;
    const fname =
      identName(f) ?? (isNode(f) && f.type === "CallExpression" ? identName(f.callee) : undefined);
    return fname === name && args(n.operand);
  };
  const tested = (n: AnyNode, name: string): boolean =>
    n.type === "TestExpression" && identName(n.test) === name && args(n.operand);
  // `arguments|tojson` wants the object unless the template writes a string itself (`is string`:
  // Qwen3, Mistral's templates, whose `tojson|safe` of an object is then HTML-escaped by `+`).
  if (nodes.some((n) => filtered(n, "tojson")) && !nodes.some((n) => tested(n, "string"))) return true;
  return nodes.some((n) => {
    if (filtered(n, "items")) return true;
    if (tested(n, "mapping")) return true;
    if (n.type === "CallExpression") {
      const c = n.callee;
      return (
        isNode(c) && c.type === "MemberExpression" && identName(c.property) === "items" && args(c.object)
      );
    }
    return false;
  });
}

function analyze(program: ProgramNode): RequestShape {
  const nodes = allNodes(program);
  const messageVars = loopVars(nodes, messagesNames(nodes));
  const contentList = loopVars(nodes, messageVars, "content").length > 0;
  const contentNone = nodes.some(testsContentNone);
  const named = REASONING_NAMES.filter((r) => nodes.some((n) => namesReasoning(n, r)));
  return {
    contentList,
    contentNone,
    reasoningNames: named.length > 0 ? named : ["reasoning_content"],
    argumentsMapping: readsArgumentsAsMapping(nodes),
  };
}

const SHAPES = new WeakMap<ProgramNode, RequestShape>();

/** The request shape of a compiled template (computed once per program). */
export function requestShape(program: ProgramNode): RequestShape {
  let s = SHAPES.get(program);
  if (s === undefined) {
    s = analyze(program);
    SHAPES.set(program, s);
  }
  return s;
}
