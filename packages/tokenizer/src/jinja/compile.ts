// Compiles a parsed template (./ast.ts) once into closures: every statement becomes a
// `Stmt(it, scope, out, top)`, every expression an `Expr(it, scope)`, each holding its children
// already compiled, so a render dispatches on no node type and reads no syntax-tree field (the
// tree walker this replaces spent most of a short request in megamorphic node-field reads and
// its type switch). The closures hold no render state: the Interpreter (`it`: bounds, audit,
// origins) and the scope are arguments, and one compiled program serves every render of its
// template (cached per ProgramNode, i.e. per loaded template source).
//
// The semantics are the tree walker's, statement by statement; the Python semantics stay in the
// helpers called here (./filters.ts applyFilter/applyTest, ./methods.ts callMethod/getAttr,
// ./values.ts str/truthy/equals/less, ./py-str.ts slices) and in the Interpreter's runtime
// operations (item, iterate, contains, arith, made, step). Compile time only folds what cannot
// change a result: template string literals are one PStr each, and adjacent string literals of
// one `+` / `~` chain are joined once (a literal is template text; joining two is what the chain
// would do, with the same characters charged).
import type {
  BinaryNode,
  CallNode,
  CallStatementNode,
  FilterNode,
  FilterStatementNode,
  ForNode,
  IdentNode,
  IfNode,
  KwargNode,
  LiteralNode,
  MacroNode,
  MemberNode,
  Node,
  ProgramNode,
  SelectNode,
  SetNode,
  SliceNode,
  SpreadNode,
  TernaryNode,
  TestNode,
  UnaryNode,
} from "./ast.ts";
import { applyFilter, applyTest, plainFilter, simpleTest } from "./filters.ts";
import type { Interpreter } from "./interpreter.ts";
import { ITEM_COST } from "./limits.ts";
import { LoopAttrs } from "./loop.ts";
import { isMarkup } from "./markup.ts";
import { attrReader, callMethod, getAttr } from "./methods.ts";
import { concat, PStr, PStrBuilder } from "./pstr.ts";
import { pySlice, slicePositions } from "./py-str.ts";
import { Scope } from "./scope.ts";
import { NOT_TEST_FILTER, TEST_FILTER, TUPLE_END } from "./syntax-rewrite.ts";
import {
  type CallArgs,
  Callable,
  equals,
  less,
  numOf,
  PDict,
  PList,
  PObject,
  PyFloat,
  PyUndefined,
  TemplateRuntimeError,
  truthy,
  typeName,
  type Value,
} from "./values.ts";

export const BREAK = 1;
export const CONTINUE = 2;
export type Flow = 0 | typeof BREAK | typeof CONTINUE;

export type Expr = (it: Interpreter, scope: Scope) => Value;
export type Stmt = (it: Interpreter, scope: Scope, out: PStrBuilder, top: boolean) => Flow;
export type Block = readonly Stmt[];
type Bind = (it: Interpreter, v: Value, scope: Scope) => void;
type Args = (it: Interpreter, scope: Scope) => CallArgs;
type Filter = (it: Interpreter, v: Value, scope: Scope) => Value;

/** A macro parameter: its name and compiled default. */
export interface Param {
  readonly name: string;
  readonly dflt: Expr | undefined;
}

/** Whether a macro body reads `varargs`, `kwargs`, `caller` (jinja2 decides its signature by that). */
export interface SpecialReads {
  readonly varargs: boolean;
  readonly kwargs: boolean;
  readonly caller: boolean;
}

const EMPTY_KWARGS: ReadonlyMap<string, Value> = new Map();
const NO_ARGS: CallArgs = { args: [], kwargs: EMPTY_KWARGS };

const CONSTANTS: ReadonlyMap<string, Value> = new Map<string, Value>([
  ["true", true],
  ["True", true],
  ["false", false],
  ["False", false],
  ["none", null],
  ["None", null],
]);

const PROGRAMS = new WeakMap<ProgramNode, Block>();

/**
 * The names the program being compiled binds somewhere (compileProgram sets it; compilation is
 * synchronous): a name no statement binds can only come from the render's top layers, so its
 * read skips the frames of loops and macros (./interpreter.ts `globals`).
 */
let bound: ReadonlySet<string> = new Set();

/** The compiled program, made on first use and kept for the life of the parsed tree. */
export function compileProgram(program: ProgramNode): Block {
  let b = PROGRAMS.get(program);
  if (b === undefined) {
    const outer = bound;
    bound = boundNames(program.body);
    try {
      b = compileBlock(program.body);
    } finally {
      bound = outer;
    }
    PROGRAMS.set(program, b);
  }
  return b;
}

/** Names every macro frame or loop may hold without a statement naming them. */
const IMPLICIT = ["loop", "caller", "varargs", "kwargs"];

/**
 * Every name a statement may bind (over-approximated: any identifier or keyword name inside a
 * for target, a set target, a macro's name and parameters, a call block's parameters), plus
 * the implicit frame names.
 */
function boundNames(body: readonly Node[]): Set<string> {
  const names = new Set<string>(IMPLICIT);
  const seen = new Set<object>();
  const collect = (x: unknown): void =>
    walkTree(
      x,
      (n) => {
        if (n.type === "Identifier" && typeof n.value === "string") names.add(n.value);
        return true;
      },
      seen,
    );
  walkTree(body, (x) => {
    const n = x as Node;
    if (n.type === "For") collect((n as ForNode).loopvar);
    else if (n.type === "Set") collect((n as SetNode).assignee);
    else if (n.type === "Macro") {
      collect((n as MacroNode).name);
      collect((n as MacroNode).args);
    } else if (n.type === "CallStatement") collect((n as CallStatementNode).callerArgs);
    return true;
  });
  return names;
}

/**
 * Calls `enter` once for every object reachable from `root` that is neither an array nor a Map
 * (those are walked through: a node's children, an object literal's entries); `enter` returning
 * false skips that object's children. `seen` may be shared by several walks.
 */
function walkTree(
  root: unknown,
  enter: (n: { readonly type?: unknown; readonly value?: unknown }) => boolean,
  seen: Set<object> = new Set(),
): void {
  const visit = (x: unknown): void => {
    if (typeof x !== "object" || x === null || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) {
      for (const y of x) visit(y);
      return;
    }
    if (x instanceof Map) {
      for (const [k, v] of x) {
        visit(k);
        visit(v);
      }
      return;
    }
    if (!enter(x)) return;
    for (const v of Object.values(x)) visit(v);
  };
  visit(root);
}

/** Runs a block; a break/continue ends it and is handed to the enclosing loop. */
export function runBlock(block: Block, it: Interpreter, scope: Scope, out: PStrBuilder, top: boolean): Flow {
  for (let i = 0; i < block.length; i++) {
    const f = (block[i] as Stmt)(it, scope, out, top);
    if (f !== 0) return f;
  }
  return 0;
}

/** Whether a macro body reads `varargs`, `kwargs`, `caller`; nested macros are their own. */
function bodyReads(body: readonly Node[]): SpecialReads {
  const found = { varargs: false, kwargs: false, caller: false };
  walkTree(body, (n) => {
    if (n.type === "Macro") return false;
    if (n.type === "Identifier" && typeof n.value === "string" && Object.hasOwn(found, n.value))
      found[n.value as keyof typeof found] = true;
    return true;
  });
  return found;
}

// ---- statements -------------------------------------------------------------------------

function compileBlock(body: readonly Node[]): Block {
  const out: Stmt[] = [];
  for (const n of body) if (n.type !== "Comment") out.push(compileStmt(n));
  return out;
}

const BREAK_STMT: Stmt = () => BREAK;
const CONTINUE_STMT: Stmt = () => CONTINUE;

function compileStmt(node: Node): Stmt {
  switch (node.type) {
    case "If": {
      const n = node as IfNode;
      const test = compileExpr(n.test);
      const body = compileBlock(n.body);
      const alternate = compileBlock(n.alternate);
      return (it, scope, out, top) =>
        runBlock(truthy(test(it, scope)) ? body : alternate, it, scope, out, top);
    }
    case "For":
      return compileFor(node as ForNode);
    case "Set": {
      const set = compileSet(node as SetNode);
      return (it, scope) => {
        set(it, scope);
        return 0;
      };
    }
    case "Macro": {
      const n = node as MacroNode;
      const name = n.name.value;
      const params = compileParams(n.args);
      const body = compileBlock(n.body);
      const uses = bodyReads(n.body);
      return (it, scope) => {
        scope.set(name, it.callable(name, params, body, uses, scope));
        return 0;
      };
    }
    case "Break":
      return BREAK_STMT;
    case "Continue":
      return CONTINUE_STMT;
    case "FilterStatement": {
      const n = node as FilterStatementNode;
      const body = compileBlock(n.body);
      const filter = compileFilter(n.filter);
      return (it, scope, out, top) => {
        const inner = new PStrBuilder();
        const f = runBlock(body, it, scope, inner, false);
        it.emit(out, it.str(filter(it, inner.finish(), scope)), top);
        return f;
      };
    }
    case "CallStatement": {
      const call = compileCallBlock(node as CallStatementNode);
      return (it, scope, out, top) => {
        it.emit(out, it.str(call(it, scope)), top);
        return 0;
      };
    }
    case "StringLiteral": {
      // Text between tags and {{ 'literal' }}: one template-origin string, emitted as is.
      const p = PStr.of((node as LiteralNode<string>).value);
      return (it, _scope, out, top) => {
        it.emit(out, p, top);
        return 0;
      };
    }
    default: {
      if (node.type === "BinaryExpression") {
        const op = (node as BinaryNode).operator.value;
        if (op === "+" || op === "~") return compileChainOutput(node as BinaryNode);
      }
      const e = compileExpr(node);
      return (it, scope, out, top) => {
        it.emit(out, it.str(e(it, scope)), top);
        return 0;
      };
    }
  }
}

function compileFor(n: ForNode): Stmt {
  let iterableNode = n.iterable;
  let condNode: Node | undefined;
  if (iterableNode.type === "SelectExpression") {
    condNode = (iterableNode as SelectNode).test;
    iterableNode = (iterableNode as SelectNode).lhs;
  }
  const iterable = compileExpr(iterableNode);
  const cond = condNode === undefined ? undefined : compileExpr(condNode);
  const bind = compileBind(n.loopvar);
  const body = compileBlock(n.body);
  const dflt = compileBlock(n.defaultBlock);
  return (it, scope, out, top) => {
    let items = it.iterate(iterable(it, scope));
    const inner = new Scope(scope);
    if (cond !== undefined) {
      const kept: Value[] = [];
      for (const x of items) {
        it.step();
        bind(it, x, inner);
        if (truthy(cond(it, inner))) kept.push(x);
      }
      items = kept;
    }
    if (items.length === 0) return runBlock(dflt, it, scope, out, top);
    // The loop object reads its attributes from the current index (./loop.ts): nothing is
    // written per iteration.
    const attrs = new LoopAttrs(items);
    inner.set("loop", new PObject("loop", attrs));
    const len = items.length;
    for (let i = 0; i < len; i++) {
      it.step();
      attrs.i = i;
      // jinja2: every iteration is a fresh scope (a {% set %} in the body does not survive into
      // the next iteration, which sees the outer value again).
      const iter = new Scope(inner);
      bind(it, items[i] as Value, iter);
      if (runBlock(body, it, iter, out, top) === BREAK) break;
    }
    return 0;
  };
}

/** An assignment target: a name, or a tuple of targets unpacking an iterable. */
function compileBind(target: Node): Bind {
  if (target.type === "Identifier") {
    const name = (target as IdentNode).value;
    return (_it, v, scope) => {
      scope.set(name, v);
    };
  }
  if (target.type === "TupleLiteral") {
    const names = (target as LiteralNode<readonly Node[]>).value;
    const binds = names.map(compileBind);
    return (it, v, scope) => {
      const parts = it.iterate(v);
      if (parts.length !== names.length)
        throw new TemplateRuntimeError(
          parts.length > names.length
            ? `too many values to unpack (expected ${names.length})`
            : `not enough values to unpack (expected ${names.length}, got ${parts.length})`,
        );
      for (let i = 0; i < binds.length; i++) (binds[i] as Bind)(it, parts[i] as Value, scope);
    };
  }
  const type = target.type;
  return () => {
    throw new TemplateRuntimeError(`cannot assign to ${type}`);
  };
}

function compileSet(n: SetNode): (it: Interpreter, scope: Scope) => void {
  const valueExpr = n.value === null ? undefined : compileExpr(n.value);
  const body = n.value === null ? compileBlock(n.body) : [];
  const assigned = (it: Interpreter, scope: Scope): Value => {
    if (valueExpr !== undefined) return valueExpr(it, scope);
    const inner = new PStrBuilder();
    runBlock(body, it, scope, inner, false);
    return inner.finish();
  };
  if (n.assignee.type === "MemberExpression") {
    const m = n.assignee as MemberNode;
    const obj = compileExpr(m.object);
    const computed = m.computed;
    const prop = computed ? "" : (m.property as IdentNode).value;
    return (it, scope) => {
      const value = assigned(it, scope);
      const o = obj(it, scope);
      if (!(o instanceof PObject) || o.kind !== "namespace" || computed)
        throw new TemplateRuntimeError("cannot assign attribute on non-namespace object");
      o.attrs.set(prop, value);
    };
  }
  const bind = compileBind(n.assignee);
  return (it, scope) => bind(it, assigned(it, scope), scope);
}

function compileParams(nodes: readonly Node[]): Param[] {
  return nodes.map((a) =>
    a.type === "KeywordArgumentExpression"
      ? { name: (a as KwargNode).key.value, dflt: compileExpr((a as KwargNode).value) }
      : { name: (a as IdentNode).value, dflt: undefined },
  );
}

/** `{% call(params) macro(args) %}body{% endcall %}`: the macro called with `caller` = the body. */
function compileCallBlock(n: CallStatementNode): Expr {
  const params = compileParams(n.callerArgs ?? []);
  const body = compileBlock(n.body);
  const uses = bodyReads(n.body);
  const callee = compileExpr(n.call.callee);
  const args = compileArgs(n.call.args);
  return (it, scope) => {
    const caller = it.callable("caller", params, body, uses, scope);
    const f = callee(it, scope);
    if (f instanceof PyUndefined) throw new TemplateRuntimeError(`'${f.name}' is undefined`);
    if (!(f instanceof Callable)) throw new TemplateRuntimeError(`'${typeName(f)}' object is not callable`);
    const a = args(it, scope);
    const kwargs = new Map(a.kwargs);
    kwargs.set("caller", caller);
    return f.call(a.keys === undefined ? { args: a.args, kwargs } : { args: a.args, kwargs, keys: a.keys });
  };
}

// ---- expressions ------------------------------------------------------------------------

function evalAll(xs: readonly Expr[], it: Interpreter, scope: Scope): Value[] {
  const out = new Array<Value>(xs.length);
  for (let i = 0; i < xs.length; i++) out[i] = (xs[i] as Expr)(it, scope);
  return out;
}

export function compileExpr(node: Node): Expr {
  switch (node.type) {
    case "StringLiteral": {
      // Template literals (text between tags too) are immutable template-origin strings.
      const p = PStr.of((node as LiteralNode<string>).value);
      return () => p;
    }
    case "IntegerLiteral": {
      const v = (node as LiteralNode<number>).value;
      return () => v;
    }
    case "FloatLiteral": {
      const v = (node as LiteralNode<number>).value;
      return () => new PyFloat(v);
    }
    case "Identifier": {
      const name = (node as IdentNode).value;
      // true/True/false/False/none/None are constants, never looked up.
      if (CONSTANTS.has(name)) {
        const c = CONSTANTS.get(name) as Value;
        return () => c;
      }
      if (!bound.has(name))
        return (it) => {
          const v = it.globals.lookup(name);
          return v === undefined ? new PyUndefined(name) : v;
        };
      return (_it, scope) => {
        const v = scope.lookup(name);
        return v === undefined ? new PyUndefined(name) : v;
      };
    }
    case "ArrayLiteral": {
      const xs = (node as LiteralNode<readonly Node[]>).value.map(compileExpr);
      return (it, scope) => new PList(evalAll(xs, it, scope));
    }
    case "TupleLiteral": {
      // `(1,)` / `()` arrive with TUPLE_END markers (./syntax-rewrite.ts), dropped here.
      const xs = (node as LiteralNode<readonly Node[]>).value
        .filter((x) => !(x.type === "Identifier" && (x as IdentNode).value === TUPLE_END))
        .map(compileExpr);
      return (it, scope) => new PList(evalAll(xs, it, scope), true);
    }
    case "ObjectLiteral": {
      const pairs = [...(node as LiteralNode<ReadonlyMap<Node, Node>>).value].map(
        ([k, v]) => [compileExpr(k), compileExpr(v)] as const,
      );
      return (it, scope) => {
        const d = new PDict();
        for (const [k, v] of pairs) {
          const key = k(it, scope);
          // String keys, and int keys (Seed-OSS's `{0: 0, 512: 128, ...}`); other types refused.
          if (!(key instanceof PStr) && !(typeof key === "number" && Number.isInteger(key)))
            throw new TemplateRuntimeError("dict keys must be strings or ints here");
          d.set(key, v(it, scope));
        }
        return d;
      };
    }
    case "MemberExpression":
      return compileMember(node as MemberNode);
    case "CallExpression":
      return compileCall(node as CallNode);
    case "BinaryExpression":
      return compileBinary(node as BinaryNode);
    case "UnaryExpression": {
      const n = node as UnaryNode;
      const arg = compileExpr(n.argument);
      const op = n.operator.value;
      if (op === "not") return (it, scope) => !truthy(arg(it, scope));
      return (it, scope) => {
        const v = arg(it, scope);
        const x = numOf(v);
        if (x === undefined)
          throw new TemplateRuntimeError(`bad operand type for unary ${op}: '${typeName(v)}'`);
        const r = op === "-" ? -x : x;
        return v instanceof PyFloat ? new PyFloat(r) : r;
      };
    }
    case "FilterExpression": {
      const n = node as FilterNode;
      const operand = compileExpr(n.operand);
      const filter = compileFilter(n.filter);
      return (it, scope) => filter(it, operand(it, scope), scope);
    }
    case "TestExpression": {
      const n = node as TestNode;
      const operand = compileExpr(n.operand);
      const name = n.test.value;
      const negate = n.negate;
      const simple = simpleTest(name);
      if (simple !== undefined)
        return negate
          ? (it, scope) => !simple(operand(it, scope))
          : (it, scope) => simple(operand(it, scope));
      return (it, scope) => {
        const r = applyTest(name, operand(it, scope), [], it);
        return negate ? !r : r;
      };
    }
    case "SelectExpression": {
      const n = node as SelectNode;
      const test = compileExpr(n.test);
      const lhs = compileExpr(n.lhs);
      return (it, scope) => (truthy(test(it, scope)) ? lhs(it, scope) : new PyUndefined("if"));
    }
    case "Ternary": {
      const n = node as TernaryNode;
      const cond = compileExpr(n.condition);
      const yes = compileExpr(n.trueExpr);
      const no = compileExpr(n.falseExpr);
      return (it, scope) => (truthy(cond(it, scope)) ? yes(it, scope) : no(it, scope));
    }
    default: {
      const type = node.type;
      return () => {
        throw new TemplateRuntimeError(`unsupported expression ${type}`);
      };
    }
  }
}

function compileArgs(nodes: readonly Node[]): Args {
  if (nodes.length === 0) return () => ({ args: [], kwargs: EMPTY_KWARGS });
  const positional = nodes.every(
    (a) =>
      a.type !== "KeywordArgumentExpression" &&
      a.type !== "SpreadExpression" &&
      a.type !== "KeywordSpreadExpression",
  );
  if (positional) {
    const xs = nodes.map(compileExpr);
    return (it, scope) => ({ args: evalAll(xs, it, scope), kwargs: EMPTY_KWARGS });
  }
  const parts = nodes.map((a) => {
    if (a.type === "KeywordArgumentExpression")
      return { kind: 0, key: (a as KwargNode).key.value, e: compileExpr((a as KwargNode).value) };
    // f(*xs): every item of the iterable is a positional argument.
    if (a.type === "SpreadExpression")
      return { kind: 1, key: "", e: compileExpr((a as SpreadNode).argument) };
    // f(**d): every entry of the dict is a keyword argument.
    if (a.type === "KeywordSpreadExpression")
      return { kind: 2, key: "", e: compileExpr((a as SpreadNode).argument) };
    return { kind: 3, key: "", e: compileExpr(a) };
  });
  return (it, scope) => {
    const args: Value[] = [];
    const kwargs = new Map<string, Value>();
    let keys: Map<string, PStr> | undefined;
    for (const p of parts) {
      if (p.kind === 0) {
        kwargs.set(p.key, p.e(it, scope));
        keys?.delete(p.key);
      } else if (p.kind === 1) {
        const xs = it.iterate(p.e(it, scope));
        it.charge(xs.length * ITEM_COST);
        for (const x of xs) args.push(x);
      } else if (p.kind === 2) {
        const d = p.e(it, scope);
        if (!(d instanceof PDict))
          throw new TemplateRuntimeError(`argument after ** must be a mapping, not ${typeName(d)}`);
        it.charge(d.map.size * ITEM_COST);
        keys ??= new Map();
        for (const [k, [key, v]] of d.map) {
          if (typeof k !== "string" || !(key instanceof PStr))
            throw new TemplateRuntimeError("keywords must be strings");
          kwargs.set(k, v);
          // The key's own characters (a caller dict's key is caller text).
          keys.set(k, key);
        }
      } else args.push(p.e(it, scope));
    }
    return keys === undefined ? { args, kwargs } : { args, kwargs, keys };
  };
}

/** `| name` or `| name(args)`: a filter, or a test with arguments rewritten as one (./syntax-rewrite.ts). */
function compileFilter(f: Node): Filter {
  let name: string;
  let args: Args | undefined;
  if (f.type === "Identifier") name = (f as IdentNode).value;
  else {
    const c = f as CallNode;
    if (c.callee?.type !== "Identifier")
      return () => {
        throw new TemplateRuntimeError("bad filter");
      };
    name = (c.callee as IdentNode).value;
    args = compileArgs(c.args);
  }
  if (args === undefined) {
    const plain = plainFilter(name);
    if (plain !== undefined) return (it, v) => plain(v, it);
  }
  const argsOf = args ?? (() => NO_ARGS);
  if (name.startsWith(NOT_TEST_FILTER)) {
    const test = name.slice(NOT_TEST_FILTER.length);
    return (it, v, scope) => !applyTest(test, v, argsOf(it, scope).args, it);
  }
  if (name.startsWith(TEST_FILTER)) {
    const test = name.slice(TEST_FILTER.length);
    return (it, v, scope) => applyTest(test, v, argsOf(it, scope).args, it);
  }
  return (it, v, scope) => applyFilter(name, v, argsOf(it, scope), it);
}

function sliceIndex(x: Expr | undefined, it: Interpreter, scope: Scope): number | null {
  if (x === undefined) return null;
  const v = x(it, scope);
  if (v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v))
    throw new TemplateRuntimeError("slice indices must be integers");
  return v;
}

function compileMember(n: MemberNode): Expr {
  const object = compileExpr(n.object);
  if (n.property.type === "SliceExpression") {
    const s = n.property as SliceNode;
    const start = s.start === undefined ? undefined : compileExpr(s.start);
    const stop = s.stop === undefined ? undefined : compileExpr(s.stop);
    const step = s.step === undefined ? undefined : compileExpr(s.step);
    return (it, scope) => {
      const obj = object(it, scope);
      const a = sliceIndex(start, it, scope);
      const b = sliceIndex(stop, it, scope);
      const st = sliceIndex(step, it, scope);
      if (obj instanceof PStr) {
        // A step other than 1 visits code points one by one: charged before, as characters.
        if (st !== null && st !== 1) it.charge(obj.length);
        return it.made(pySlice(obj, a, b, st));
      }
      if (obj instanceof PList) {
        it.charge(obj.items.length * ITEM_COST);
        const pos = slicePositions(obj.items.length, a, b, st);
        const items = new Array<Value>(pos.length);
        for (let i = 0; i < pos.length; i++) items[i] = obj.items[pos[i] as number] as Value;
        return new PList(items, obj.tuple);
      }
      if (obj instanceof PyUndefined) throw new TemplateRuntimeError(`'${obj.name}' is undefined`);
      throw new TemplateRuntimeError(`'${typeName(obj)}' object is not subscriptable`);
    };
  }
  if (n.computed) {
    const key = compileExpr(n.property);
    return (it, scope) => {
      const obj = object(it, scope);
      return it.item(obj, key(it, scope));
    };
  }
  const read = attrReader((n.property as IdentNode).value);
  return (it, scope) => read(object(it, scope));
}

function callValue(f: Value, args: Args, it: Interpreter, scope: Scope): Value {
  if (f instanceof PyUndefined) throw new TemplateRuntimeError(`'${f.name}' is undefined`);
  if (!(f instanceof Callable)) throw new TemplateRuntimeError(`'${typeName(f)}' object is not callable`);
  return f.call(args(it, scope));
}

function compileCall(n: CallNode): Expr {
  const args = compileArgs(n.args);
  if (n.callee.type === "MemberExpression" && !(n.callee as MemberNode).computed) {
    // obj.name(...): a str/dict/list method (./methods.ts), unless obj is a namespace/loop/cycler
    // object or a dict holding a callable under that name: then that value is called.
    const m = n.callee as MemberNode;
    const object = compileExpr(m.object);
    const name = (m.property as IdentNode).value;
    const only = n.args.length === 1 ? (n.args[0] as Node) : undefined;
    if (
      (name === "startswith" || name === "endswith") &&
      only !== undefined &&
      only.type !== "KeywordArgumentExpression" &&
      only.type !== "SpreadExpression" &&
      only.type !== "KeywordSpreadExpression"
    ) {
      // s.startswith(x) / s.endswith(x) with one str argument (Qwen3 asks it of every user
      // message): strMethod's case for one candidate, without the argument list; anything
      // else (a tuple of prefixes, a non-str receiver) goes the general way below.
      const arg = compileExpr(only);
      const starts = name === "startswith";
      return (it, scope) => {
        const obj = object(it, scope);
        if (obj instanceof PStr) {
          const v = arg(it, scope);
          if (v instanceof PStr) {
            it.audit(obj, name, v);
            return starts ? obj.text.startsWith(v.text) : obj.text.endsWith(v.text);
          }
          return callMethod(obj, name, { args: [v], kwargs: EMPTY_KWARGS }, it);
        }
        if (!(obj instanceof PObject) && !(obj instanceof PDict && obj.get(name) instanceof Callable))
          return callMethod(obj, name, args(it, scope), it);
        return callValue(getAttr(obj, name), args, it, scope);
      };
    }
    return (it, scope) => {
      const obj = object(it, scope);
      if (!(obj instanceof PObject) && !(obj instanceof PDict && obj.get(name) instanceof Callable))
        return callMethod(obj, name, args(it, scope), it);
      return callValue(getAttr(obj, name), args, it, scope);
    };
  }
  const callee = compileExpr(n.callee);
  return (it, scope) => callValue(callee(it, scope), args, it, scope);
}

/**
 * A left-nested chain of one operator (`a + b + c + d`, `a ~ b ~ c`), as its operands in order.
 * Chains are how templates build every message (`'<|im_start|>' + message.role + '\n' + ...`);
 * joining the strings of a chain once instead of pairwise avoids re-copying the growing
 * left part at every step (what Python does, with the same result).
 */
function chain(n: BinaryNode): Node[] {
  const op = n.operator.value;
  const operands: Node[] = [n.right];
  let left: Node = n.left;
  while (left.type === "BinaryExpression" && (left as BinaryNode).operator.value === op) {
    operands.push((left as BinaryNode).right);
    left = (left as BinaryNode).left;
  }
  operands.push(left);
  return operands.reverse();
}

/** The chain's operands compiled, each run of adjacent string literals joined into one constant. */
function foldedChain(n: BinaryNode): Expr[] {
  const out: Expr[] = [];
  let lit: PStr[] = [];
  const flush = (): void => {
    if (lit.length === 0) return;
    const p = concat(lit);
    out.push(() => p);
    lit = [];
  };
  for (const x of chain(n)) {
    if (x.type === "StringLiteral") lit.push(PStr.of((x as LiteralNode<string>).value));
    else {
      flush();
      out.push(compileExpr(x));
    }
  }
  flush();
  return out;
}

/** `a ~ b ~ ...`: every operand through str(), in order (joined once by the caller). */
function tildeParts(ops: readonly Expr[]): (it: Interpreter, scope: Scope) => PStr[] {
  return (it, scope) => {
    const parts = new Array<PStr>(ops.length);
    for (let k = 0; k < ops.length; k++) parts[k] = it.str((ops[k] as Expr)(it, scope));
    return parts;
  };
}

/**
 * A `+` chain, evaluated left to right as Python does; consecutive string operands are collected
 * and joined once, any other operand falls back to the pairwise `+`. Returns the value, or the
 * strings still to join when the chain ended in a run of two or more strings (the expression
 * joins them with it.join(...); an output statement writes them as they are).
 */
function plusChain(ops: readonly Expr[]): (it: Interpreter, scope: Scope) => Value | PStr[] {
  const first = ops[0] as Expr;
  return (it, scope) => {
    let acc: Value = first(it, scope);
    let strs: PStr[] | undefined;
    for (let k = 1; k < ops.length; k++) {
      const v = (ops[k] as Expr)(it, scope);
      if (
        v instanceof PStr &&
        !isMarkup(v) &&
        (strs !== undefined || (acc instanceof PStr && !isMarkup(acc)))
      ) {
        if (strs === undefined) strs = [acc as PStr];
        strs.push(v);
        continue;
      }
      if (strs !== undefined) {
        acc = it.join(strs);
        strs = undefined;
      }
      acc = it.arith("+", acc, v);
    }
    return strs === undefined ? acc : strs;
  };
}

/** `{{ a + b + ... }}` / `{{ a ~ b ~ ... }}`: the chain's strings written into the output without joining them first. */
function compileChainOutput(n: BinaryNode): Stmt {
  if (n.operator.value === "~") {
    const parts = tildeParts(foldedChain(n));
    return (it, scope, out, top) => {
      it.emitParts(out, parts(it, scope), top);
      return 0;
    };
  }
  const plus = plusChain(foldedChain(n));
  return (it, scope, out, top) => {
    const r = plus(it, scope);
    if (r instanceof PStr || !Array.isArray(r)) it.emit(out, it.str(r), top);
    else it.emitParts(out, r, top);
    return 0;
  };
}

/** Every binary operator compileBinary evaluates (the rest of its cases go to Interpreter.arith). */
export const BINARY_OPERATORS: readonly string[] = [
  "~",
  "+",
  "and",
  "or",
  "==",
  "!=",
  "<",
  ">",
  "<=",
  ">=",
  "in",
  "not in",
  "-",
  "*",
  "/",
  "//",
  "%",
  "**",
];
/** Every unary operator. */
export const UNARY_OPERATORS: readonly string[] = ["not", "-", "+"];

function compileBinary(n: BinaryNode): Expr {
  const op = n.operator.value;
  if (op === "~") {
    const parts = tildeParts(foldedChain(n));
    return (it, scope) => it.join(parts(it, scope));
  }
  if (op === "+") {
    const plus = plusChain(foldedChain(n));
    return (it, scope) => {
      const r = plus(it, scope);
      return r instanceof PStr || !Array.isArray(r) ? r : it.join(r);
    };
  }
  const left = compileExpr(n.left);
  const right = compileExpr(n.right);
  switch (op) {
    case "and":
      return (it, scope) => {
        const l = left(it, scope);
        return truthy(l) ? right(it, scope) : l;
      };
    case "or":
      return (it, scope) => {
        const l = left(it, scope);
        return truthy(l) ? l : right(it, scope);
      };
    case "==":
      return (it, scope) => {
        const l = left(it, scope);
        return equals(l, right(it, scope), 0, it);
      };
    case "!=":
      return (it, scope) => {
        const l = left(it, scope);
        return !equals(l, right(it, scope), 0, it);
      };
    case "<":
      return (it, scope) => {
        const l = left(it, scope);
        return less(l, right(it, scope), it);
      };
    case ">":
      return (it, scope) => {
        const l = left(it, scope);
        return less(right(it, scope), l, it);
      };
    case "<=":
      return (it, scope) => {
        const l = left(it, scope);
        return !less(right(it, scope), l, it);
      };
    case ">=":
      return (it, scope) => {
        const l = left(it, scope);
        return !less(l, right(it, scope), it);
      };
    case "in":
      return (it, scope) => {
        const l = left(it, scope);
        return it.contains(right(it, scope), l);
      };
    case "not in":
      return (it, scope) => {
        const l = left(it, scope);
        return !it.contains(right(it, scope), l);
      };
    // int - int, int * int (loop index arithmetic): what Interpreter.arith computes for two
    // ints, without its operator dispatch; any other operand goes through it.
    case "-":
      return (it, scope) => {
        const l = left(it, scope);
        const r = right(it, scope);
        return typeof l === "number" && typeof r === "number" ? l - r : it.arith(op, l, r);
      };
    case "*":
      return (it, scope) => {
        const l = left(it, scope);
        const r = right(it, scope);
        return typeof l === "number" && typeof r === "number" ? l * r : it.arith(op, l, r);
      };
    default:
      return (it, scope) => {
        const l = left(it, scope);
        return it.arith(op, l, right(it, scope));
      };
  }
}
