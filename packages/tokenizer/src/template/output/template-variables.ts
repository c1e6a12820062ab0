// Template variables that no chat request defines, for the probe's renderings only. Some
// templates read variables their vendor's server passes beside the request (FireFunction v2:
// `functions`, the tools as JSON text, and `datetime`); through transformers alone they fail
// (`'str' + Undefined`). When the probe's plain rendering fails, it renders every probe
// request with those names given as "" (recorded as evidence): the rendering the recognizers
// diff is then the template's own text around the parts that vary. A user's prompt is never
// given these values: it renders with what the caller passes (chat_template_kwargs).
//
// A name is such a variable when the template reads it (an identifier in a value position)
// and nothing defines it: not a statement's binding (set / for / macro / call block), not a
// global or constant of the interpreter, not a variable the request mapping gives
// (messages, tools, add_generation_prompt, the config's special tokens).
import type { Node } from "../../jinja/ast.ts";
import { compileTemplate, GLOBAL_NAMES } from "../../jinja/render.ts";

type AnyNode = Node & { readonly [k: string]: unknown };

const isNode = (v: unknown): v is AnyNode =>
  typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string";

/** Names the interpreter or the request mapping always defines, and the frames' implicit names. */
const DEFINED: ReadonlySet<string> = new Set([
  ...GLOBAL_NAMES,
  "true",
  "True",
  "false",
  "False",
  "none",
  "None",
  "loop",
  "caller",
  "varargs",
  "kwargs",
  "messages",
  "tools",
  "add_generation_prompt",
]);

/** Child nodes of `n` that are value positions (a filter's or test's name, a member name and a keyword are not). */
function readChildren(n: AnyNode): unknown[] {
  switch (n.type) {
    case "MemberExpression":
      return n.computed === true ? [n.object, n.property] : [n.object];
    case "KeywordArgumentExpression":
      return [n.value];
    case "TestExpression":
      return [n.operand];
    case "FilterExpression":
      return [n.operand, filterArgs(n.filter)];
    case "FilterStatement":
      return [filterArgs(n.filter), n.body];
    default:
      return fields(n);
  }
}

/** A node's fields; an operator is a token ({type, value}), not a name read. */
const fields = (n: AnyNode): unknown[] =>
  Object.keys(n)
    .filter((k) => k !== "type" && k !== "operator")
    .map((k) => n[k]);

/** A filter written as a call (`x | join(", ")`) reads its arguments, not its name. */
const filterArgs = (f: unknown): unknown => (isNode(f) && f.type === "CallExpression" ? f.args : null);

/** The identifiers a statement binds (for targets, set targets, macro names and parameters, call-block parameters). */
function bindings(n: AnyNode): unknown[] {
  switch (n.type) {
    case "For":
      return [n.loopvar];
    case "Set":
      return [n.assignee];
    case "Macro":
      return [n.name, n.args];
    case "CallStatement":
      return [n.callerArgs];
    default:
      return [];
  }
}

function identifiers(root: unknown, children: (n: AnyNode) => unknown[], out: Set<string>): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    if (!isNode(v)) continue;
    if (v.type === "Identifier" && typeof v.value === "string") out.add(v.value);
    for (const c of children(v)) if (typeof c === "object" && c !== null) stack.push(c);
  }
}

/**
 * The variables `source` reads that neither the template nor a request defines, sorted; []
 * when it reads none or does not parse. `specialTokens`: the config's token variables.
 */
export function undefinedVariables(source: string, specialTokens: Iterable<string>): string[] {
  let program: Node;
  try {
    program = compileTemplate(source);
  } catch {
    return [];
  }
  const read = new Set<string>();
  identifiers(program, readChildren, read);
  const bound = new Set<string>();
  const nodes: AnyNode[] = [];
  identifiers(
    program,
    (n) => {
      nodes.push(n);
      return fields(n);
    },
    new Set(),
  );
  for (const n of nodes) {
    // Keyword parameters of a macro (`x=1`) bind their key, not their default's names.
    for (const b of bindings(n))
      identifiers(b, (m) => (m.type === "KeywordArgumentExpression" ? [m.key] : readChildren(m)), bound);
  }
  const special = new Set(specialTokens);
  return [...read].filter((s) => !bound.has(s) && !DEFINED.has(s) && !special.has(s)).sort();
}
