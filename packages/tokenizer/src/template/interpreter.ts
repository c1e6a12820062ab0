// A Jinja interpreter with Python jinja2 semantics over @huggingface/jinja's syntax tree, whose
// string values carry per-character provenance (./pstr.ts). It evaluates what transformers'
// ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, loopcontrols) evaluates: statements
// (if, for with else/filter/tuple unpacking/loop, set incl. namespace attributes and blocks,
// macro, filter blocks, break/continue), expressions, the filters and tests of ./filters.ts and
// the str/dict methods of ./methods.ts. No Python object is reachable: there is nothing to
// sandbox beyond the bounds of ./limits.ts, which every loop, call and string operation checks.
//
// Where control flow reads caller text (`x in content`, content.startswith(...), split, find),
// a `structure-from-caller-text` audit entry names the field.
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
import { applyFilter, applyTest } from "./filters.ts";
import type { TemplateLimits } from "./limits.ts";
import { LoopAttrs } from "./loop.ts";
import { isMarkup, markupPlus } from "./markup.ts";
import { callMethod, getAttr } from "./methods.ts";
import type { Origins } from "./origins.ts";
import { concat, PStr, PStrBuilder } from "./pstr.ts";
import { pyIndex, pySlice, slicePositions } from "./py-str.ts";
import { NOT_TEST_FILTER, TEST_FILTER, TUPLE_END } from "./syntax-rewrite.ts";
import {
  type CallArgs,
  Callable,
  equals,
  isStr,
  less,
  numOf,
  PDict,
  PList,
  PObject,
  PyFloat,
  PyUndefined,
  str,
  TemplateRuntimeError,
  truthy,
  typeName,
  type Value,
} from "./values.ts";

export interface StructureAuditEntry {
  readonly type: "structure-from-caller-text";
  readonly message: number | null;
  readonly field: string;
  /** The operation that read the caller text: "in", "startswith", "split", ... */
  readonly op: string;
  /** The template-side operand (what was looked for), at most 40 characters. */
  readonly needle: string;
}

/** raise_exception(message) in the template. */
export class TemplateRaise extends Error {}
/** A bound of ./limits.ts was exceeded. */
export class TemplateLimitError extends Error {
  constructor(
    readonly limit: keyof TemplateLimits,
    message: string,
  ) {
    super(message);
  }
}

const BREAK = 1;
const CONTINUE = 2;
type Flow = 0 | typeof BREAK | typeof CONTINUE;

class Scope {
  readonly vars: Map<string, Value>;
  constructor(
    readonly parent: Scope | undefined,
    vars?: Map<string, Value>,
  ) {
    this.vars = vars ?? new Map<string, Value>();
  }

  lookup(name: string): Value | undefined {
    for (let s: Scope | undefined = this; s !== undefined; s = s.parent) {
      const v = s.vars.get(name);
      if (v !== undefined) return v;
    }
    return undefined;
  }
}

interface SpecialReads {
  readonly varargs: boolean;
  readonly kwargs: boolean;
  readonly caller: boolean;
}
const READS = new WeakMap<readonly Node[], SpecialReads>();

/** Whether a macro body reads `varargs`, `kwargs`, `caller` (jinja2 decides its signature by that); nested macros are their own. */
function bodyReads(body: readonly Node[]): SpecialReads {
  let r = READS.get(body);
  if (r === undefined) {
    const found = { varargs: false, kwargs: false, caller: false };
    const seen = new Set<object>();
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
      const n = x as { type?: unknown; value?: unknown };
      if (n.type === "Macro") return;
      if (n.type === "Identifier" && typeof n.value === "string" && Object.hasOwn(found, n.value))
        found[n.value as keyof typeof found] = true;
      for (const v of Object.values(x)) visit(v);
    };
    visit(body);
    r = found;
    READS.set(body, r);
  }
  return r;
}

/** The cached PStr of a StringLiteral node (a symbol: no template can name it). */
const LITERAL = Symbol("chatwire.literal");

const NO_ARGS: CallArgs = { args: [], kwargs: new Map() };

/** Operator chains of parsed programs, flattened once per node (the trees are never mutated). */
const CHAINS = new WeakMap<BinaryNode, readonly Node[]>();

const CONSTANTS: ReadonlyMap<string, Value> = new Map<string, Value>([
  ["true", true],
  ["True", true],
  ["false", false],
  ["False", false],
  ["none", null],
  ["None", null],
]);

export class Interpreter {
  private steps = 0;
  private work = 0;
  private depth = 0;
  private outChars = 0;
  readonly structure: StructureAuditEntry[] = [];
  private readonly seen = new Set<string>();

  constructor(
    readonly origins: Origins,
    readonly limits: TemplateLimits,
  ) {}

  // ---- bounds ---------------------------------------------------------------------------

  step(): void {
    if (++this.steps > this.limits.maxSteps)
      throw new TemplateLimitError(
        "maxSteps",
        `more than ${this.limits.maxSteps} loop iterations and macro calls`,
      );
  }

  /** Charges `n` produced characters to the work budget; returns n. */
  charge(n: number): number {
    this.work += n;
    if (this.work > this.limits.maxWorkChars)
      throw new TemplateLimitError(
        "maxWorkChars",
        `string operations produced more than ${this.limits.maxWorkChars} characters`,
      );
    return n;
  }

  /** A produced string: charged, and never longer than the output bound. */
  made(s: PStr): PStr {
    this.charge(s.length);
    if (s.length > this.limits.maxOutputChars)
      throw new TemplateLimitError(
        "maxOutputChars",
        `a string longer than ${this.limits.maxOutputChars} characters`,
      );
    return s;
  }

  /** Charges a search over `hay`; records when control flow read caller text (op with the template-side `needle`). */
  audit(hay: Value, op: string, needle: Value): void {
    if (!(hay instanceof PStr)) return;
    // Every search reads the whole string: charged, so a loop of searches over a long string
    // is bounded by maxWorkChars like the strings a template builds.
    this.charge(hay.length);
    if (!hay.hasCaller) return;
    const { message, field } = this.origins.get(hay.firstCaller);
    const n = needle instanceof PStr ? needle.text : needle === null ? "" : str(needle).text;
    const cut = n.length > 40 ? `${n.slice(0, 40)}…` : n;
    const key = `${message}\u0000${field}\u0000${op}\u0000${cut}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.structure.push({ type: "structure-from-caller-text", message, field, op, needle: cut });
  }

  // ---- statements -----------------------------------------------------------------------

  render(program: ProgramNode, globals: Scope): PStr {
    const out = new PStrBuilder();
    this.block(program.body, globals, out, true);
    return out.finish();
  }

  /**
   * The render's top scope over layers of read-only variables (later layers win), without
   * copying them: a template's top-level {% set %} writes into a fresh map of its own.
   */
  static scope(...layers: ReadonlyMap<string, Value>[]): Scope {
    let s: Scope | undefined;
    // Scope only reads a layer's map (lookup); writes go to the fresh top map below.
    for (const l of layers) s = new Scope(s, l as Map<string, Value>);
    return new Scope(s);
  }

  private emit(out: PStrBuilder, s: PStr, top: boolean): void {
    if (s.length === 0) return;
    if (top) {
      this.outChars += s.length;
      if (this.outChars > this.limits.maxOutputChars)
        throw new TemplateLimitError(
          "maxOutputChars",
          `output longer than ${this.limits.maxOutputChars} characters`,
        );
    } else this.charge(s.length);
    out.push(s);
  }

  private block(body: readonly Node[], scope: Scope, out: PStrBuilder, top: boolean): Flow {
    for (const node of body) {
      const f = this.statement(node, scope, out, top);
      if (f !== 0) return f;
    }
    return 0;
  }

  private statement(node: Node, scope: Scope, out: PStrBuilder, top: boolean): Flow {
    switch (node.type) {
      case "If": {
        const n = node as IfNode;
        return this.block(truthy(this.expr(n.test, scope)) ? n.body : n.alternate, scope, out, top);
      }
      case "For":
        return this.forLoop(node as ForNode, scope, out, top);
      case "Set":
        this.set(node as SetNode, scope);
        return 0;
      case "Macro":
        this.macro(node as MacroNode, scope);
        return 0;
      case "Comment":
        return 0;
      case "Break":
        return BREAK;
      case "Continue":
        return CONTINUE;
      case "FilterStatement": {
        const n = node as FilterStatementNode;
        const inner = new PStrBuilder();
        const f = this.block(n.body, scope, inner, false);
        this.emit(out, str(this.filter(inner.finish(), n.filter, scope)), top);
        return f;
      }
      case "CallStatement":
        this.emit(out, str(this.callBlock(node as CallStatementNode, scope)), top);
        return 0;
      default:
        this.emit(out, str(this.expr(node, scope)), top);
        return 0;
    }
  }

  private forLoop(n: ForNode, scope: Scope, out: PStrBuilder, top: boolean): Flow {
    let iterable = n.iterable;
    let cond: Node | undefined;
    if (iterable.type === "SelectExpression") {
      cond = (iterable as SelectNode).test;
      iterable = (iterable as SelectNode).lhs;
    }
    let items = this.iterate(this.expr(iterable, scope));
    const inner = new Scope(scope);
    if (cond !== undefined) {
      const kept: Value[] = [];
      for (const it of items) {
        this.step();
        this.bind(n.loopvar, it, inner);
        if (truthy(this.expr(cond, inner))) kept.push(it);
      }
      items = kept;
    }
    if (items.length === 0) return this.block(n.defaultBlock, scope, out, top);
    // The loop object reads its attributes from the current index (./loop.ts): nothing is
    // written per iteration.
    const attrs = new LoopAttrs(items);
    inner.vars.set("loop", new PObject("loop", attrs));
    const len = items.length;
    for (let i = 0; i < len; i++) {
      this.step();
      attrs.i = i;
      // jinja2: every iteration is a fresh scope (a {% set %} in the body does not survive into
      // the next iteration, which sees the outer value again).
      const iter = new Scope(inner);
      this.bind(n.loopvar, items[i] as Value, iter);
      const f = this.block(n.body, iter, out, top);
      if (f === BREAK) break;
    }
    return 0;
  }

  private bind(target: Node, v: Value, scope: Scope): void {
    if (target.type === "Identifier") {
      scope.vars.set((target as IdentNode).value, v);
      return;
    }
    if (target.type === "TupleLiteral") {
      const names = (target as LiteralNode<readonly Node[]>).value;
      const parts = this.iterate(v);
      if (parts.length !== names.length)
        throw new TemplateRuntimeError(
          parts.length > names.length
            ? `too many values to unpack (expected ${names.length})`
            : `not enough values to unpack (expected ${names.length}, got ${parts.length})`,
        );
      names.forEach((t, i) => {
        this.bind(t, parts[i] as Value, scope);
      });
      return;
    }
    throw new TemplateRuntimeError(`cannot assign to ${target.type}`);
  }

  private set(n: SetNode, scope: Scope): void {
    let value: Value;
    if (n.value === null) {
      const inner = new PStrBuilder();
      this.block(n.body, scope, inner, false);
      value = inner.finish();
    } else value = this.expr(n.value, scope);
    if (n.assignee.type === "MemberExpression") {
      const m = n.assignee as MemberNode;
      const obj = this.expr(m.object, scope);
      if (!(obj instanceof PObject) || obj.kind !== "namespace" || m.computed)
        throw new TemplateRuntimeError("cannot assign attribute on non-namespace object");
      obj.attrs.set((m.property as IdentNode).value, value);
      return;
    }
    this.bind(n.assignee, value, scope);
  }

  private macro(n: MacroNode, defScope: Scope): void {
    defScope.vars.set(n.name.value, this.callable(n.name.value, n.args, n.body, defScope));
  }

  /**
   * A macro (or a call block's `caller`) as jinja2 builds it: parameters with defaults evaluated
   * at call time in the macro's scope; extra positional arguments are `varargs` (a tuple) and
   * extra keywords `kwargs` (a dict) when the body reads those names, else a TypeError, as in
   * jinja2; `caller` is the call block's body when the macro is called from `{% call %}`.
   */
  private callable(
    name: string,
    paramNodes: readonly Node[],
    body: readonly Node[],
    defScope: Scope,
  ): Callable {
    const params = paramNodes.map((a) =>
      a.type === "KeywordArgumentExpression"
        ? { name: (a as KwargNode).key.value, dflt: (a as KwargNode).value as Node | undefined }
        : { name: (a as IdentNode).value, dflt: undefined },
    );
    const uses = bodyReads(body);
    return new Callable(name, ({ args, kwargs }) => {
      this.step();
      if (++this.depth > this.limits.maxCallDepth)
        throw new TemplateLimitError(
          "maxCallDepth",
          `macro calls nested deeper than ${this.limits.maxCallDepth}`,
        );
      try {
        const s = new Scope(defScope);
        if (args.length > params.length && !uses.varargs)
          throw new TemplateRuntimeError(`macro '${name}' takes not more than ${params.length} argument(s)`);
        const known = new Set<string>();
        params.forEach((p, i) => {
          // jinja2's Macro.__call__: a keyword naming a parameter already given positionally
          // stays a keyword (kwargs, or the "takes no keyword argument" TypeError).
          if (i >= args.length) known.add(p.name);
          const given = i < args.length ? args[i] : kwargs.get(p.name);
          s.vars.set(
            p.name,
            given !== undefined
              ? given
              : p.dflt !== undefined
                ? this.expr(p.dflt, s)
                : new PyUndefined(p.name),
          );
        });
        const extra = new PDict();
        for (const [k, v] of kwargs) {
          if (known.has(k)) continue;
          if (k === "caller" && uses.caller) {
            s.vars.set("caller", v);
            continue;
          }
          if (!uses.kwargs)
            throw new TemplateRuntimeError(`macro '${name}' takes no keyword argument '${k}'`);
          extra.set(PStr.of(k), v);
        }
        if (uses.varargs) s.vars.set("varargs", new PList(args.slice(params.length), true));
        if (uses.kwargs) s.vars.set("kwargs", extra);
        if (uses.caller && !s.vars.has("caller")) s.vars.set("caller", new PyUndefined("caller"));
        const out = new PStrBuilder();
        this.block(body, s, out, false);
        return out.finish();
      } finally {
        this.depth--;
      }
    });
  }

  /** `{% call(params) macro(args) %}body{% endcall %}`: the macro called with `caller` = the body. */
  private callBlock(n: CallStatementNode, scope: Scope): Value {
    const caller = this.callable("caller", n.callerArgs ?? [], n.body, scope);
    const f = this.expr(n.call.callee, scope);
    if (f instanceof PyUndefined) throw new TemplateRuntimeError(`'${f.name}' is undefined`);
    if (!(f instanceof Callable)) throw new TemplateRuntimeError(`'${typeName(f)}' object is not callable`);
    const a = this.args(n.call.args, scope);
    const kwargs = new Map(a.kwargs);
    kwargs.set("caller", caller);
    return f.call({ args: a.args, kwargs });
  }

  // ---- expressions ----------------------------------------------------------------------

  iterate(v: Value): Value[] {
    if (v instanceof PList) return v.items;
    if (v instanceof PDict) return [...v.map.values()].map(([k]) => k);
    if (v instanceof PStr) return v.chars();
    if (v instanceof PyUndefined) return [];
    throw new TemplateRuntimeError(`'${typeName(v)}' object is not iterable`);
  }

  expr(node: Node, scope: Scope): Value {
    switch (node.type) {
      case "StringLiteral": {
        // Template literals (text between tags too) are immutable template-origin strings: one
        // PStr per node, made on first use, instead of one per evaluation.
        const lit = node as LiteralNode<string> & { [LITERAL]?: PStr };
        let p = lit[LITERAL];
        if (p === undefined) {
          p = PStr.of(lit.value);
          lit[LITERAL] = p;
        }
        return p;
      }
      case "IntegerLiteral":
        return (node as LiteralNode<number>).value;
      case "FloatLiteral":
        return new PyFloat((node as LiteralNode<number>).value);
      case "Identifier": {
        const name = (node as IdentNode).value;
        // true/True/false/False/none/None: only names starting t, T, f, F, n, N are looked up.
        const c0 = name.charCodeAt(0) | 0x20;
        if (c0 === 0x74 || c0 === 0x66 || c0 === 0x6e) {
          const c = CONSTANTS.get(name);
          if (c !== undefined) return c;
        }
        const v = scope.lookup(name);
        return v === undefined ? new PyUndefined(name) : v;
      }
      case "ArrayLiteral":
        return new PList((node as LiteralNode<readonly Node[]>).value.map((x) => this.expr(x, scope)));
      case "TupleLiteral": {
        // `(1,)` / `()` arrive with TUPLE_END markers (./syntax-rewrite.ts), dropped here.
        const items: Value[] = [];
        for (const x of (node as LiteralNode<readonly Node[]>).value)
          if (!(x.type === "Identifier" && (x as IdentNode).value === TUPLE_END))
            items.push(this.expr(x, scope));
        return new PList(items, true);
      }
      case "ObjectLiteral": {
        const d = new PDict();
        for (const [k, v] of (node as LiteralNode<ReadonlyMap<Node, Node>>).value) {
          const key = this.expr(k, scope);
          // String keys, and int keys (Seed-OSS's `{0: 0, 512: 128, ...}`); other types refused.
          if (!(key instanceof PStr) && !(typeof key === "number" && Number.isInteger(key)))
            throw new TemplateRuntimeError("dict keys must be strings or ints here");
          d.set(key, this.expr(v, scope));
        }
        return d;
      }
      case "MemberExpression":
        return this.member(node as MemberNode, scope);
      case "CallExpression":
        return this.call(node as CallNode, scope);
      case "BinaryExpression":
        return this.binary(node as BinaryNode, scope);
      case "UnaryExpression": {
        const n = node as UnaryNode;
        const v = this.expr(n.argument, scope);
        if (n.operator.value === "not") return !truthy(v);
        const x = numOf(v);
        if (x === undefined)
          throw new TemplateRuntimeError(`bad operand type for unary ${n.operator.value}: '${typeName(v)}'`);
        const r = n.operator.value === "-" ? -x : x;
        return v instanceof PyFloat ? new PyFloat(r) : r;
      }
      case "FilterExpression": {
        const n = node as FilterNode;
        return this.filter(this.expr(n.operand, scope), n.filter, scope);
      }
      case "TestExpression": {
        const n = node as TestNode;
        const r = applyTest(n.test.value, this.expr(n.operand, scope), [], this);
        return n.negate ? !r : r;
      }
      case "SelectExpression": {
        const n = node as SelectNode;
        return truthy(this.expr(n.test, scope)) ? this.expr(n.lhs, scope) : new PyUndefined("if");
      }
      case "Ternary": {
        const n = node as TernaryNode;
        return truthy(this.expr(n.condition, scope))
          ? this.expr(n.trueExpr, scope)
          : this.expr(n.falseExpr, scope);
      }
      default:
        throw new TemplateRuntimeError(`unsupported expression ${node.type}`);
    }
  }

  private args(nodes: readonly Node[], scope: Scope): CallArgs {
    const args: Value[] = [];
    const kwargs = new Map<string, Value>();
    for (const a of nodes) {
      if (a.type === "KeywordArgumentExpression") {
        const k = a as KwargNode;
        kwargs.set(k.key.value, this.expr(k.value, scope));
      } else if (a.type === "SpreadExpression") {
        // f(*xs): every item of the iterable is a positional argument.
        for (const x of this.iterate(this.expr((a as SpreadNode).argument, scope))) args.push(x);
      } else if (a.type === "KeywordSpreadExpression") {
        // f(**d): every entry of the dict is a keyword argument.
        const d = this.expr((a as SpreadNode).argument, scope);
        if (!(d instanceof PDict))
          throw new TemplateRuntimeError(`argument after ** must be a mapping, not ${typeName(d)}`);
        for (const [k, [, v]] of d.map) {
          if (typeof k !== "string") throw new TemplateRuntimeError("keywords must be strings");
          kwargs.set(k, v);
        }
      } else args.push(this.expr(a, scope));
    }
    return { args, kwargs };
  }

  private filter(v: Value, f: Node, scope: Scope): Value {
    if (f.type === "Identifier") return this.applyNamed((f as IdentNode).value, v, NO_ARGS);
    const c = f as CallNode;
    if (c.callee.type !== "Identifier") throw new TemplateRuntimeError("bad filter");
    return this.applyNamed((c.callee as IdentNode).value, v, this.args(c.args, scope));
  }

  /** A filter, or a test with arguments rewritten as one (./syntax-rewrite.ts). */
  private applyNamed(name: string, v: Value, a: CallArgs): Value {
    if (name.startsWith(NOT_TEST_FILTER))
      return !applyTest(name.slice(NOT_TEST_FILTER.length), v, a.args, this);
    if (name.startsWith(TEST_FILTER)) return applyTest(name.slice(TEST_FILTER.length), v, a.args, this);
    return applyFilter(name, v, a, this);
  }

  private member(n: MemberNode, scope: Scope): Value {
    const obj = this.expr(n.object, scope);
    if (n.property.type === "SliceExpression") {
      const s = n.property as SliceNode;
      const num = (x: Node | undefined): number | null => {
        if (x === undefined) return null;
        const v = this.expr(x, scope);
        if (v === null) return null;
        if (typeof v !== "number" || !Number.isInteger(v))
          throw new TemplateRuntimeError("slice indices must be integers");
        return v;
      };
      const a = num(s.start);
      const b = num(s.stop);
      const st = num(s.step);
      if (obj instanceof PStr) return this.made(pySlice(obj, a, b, st));
      if (obj instanceof PList)
        return new PList(
          slicePositions(obj.items.length, a, b, st).map((i) => obj.items[i] as Value),
          obj.tuple,
        );
      if (obj instanceof PyUndefined) throw new TemplateRuntimeError(`'${obj.name}' is undefined`);
      throw new TemplateRuntimeError(`'${typeName(obj)}' object is not subscriptable`);
    }
    if (n.computed) return this.item(obj, this.expr(n.property, scope));
    return getAttr(obj, (n.property as IdentNode).value);
  }

  /** obj[key]: jinja2 tries the item first, then the attribute. */
  item(obj: Value, key: Value): Value {
    if (obj instanceof PyUndefined) throw new TemplateRuntimeError(`'${obj.name}' is undefined`);
    if (obj instanceof PDict && !(key instanceof PStr)) {
      const k = PDict.keyOf(key);
      if (k !== undefined) return obj.get(k) ?? new PyUndefined(`[${k}]`);
    }
    if (obj instanceof PDict && key instanceof PStr) {
      const v = obj.get(key.text);
      if (v !== undefined) return v;
      return getAttr(obj, key.text);
    }
    if ((obj instanceof PList || obj instanceof PStr) && typeof key === "number" && Number.isInteger(key)) {
      if (obj instanceof PStr) return pyIndex(obj, key) ?? new PyUndefined(`[${key}]`);
      const i = key < 0 ? key + obj.items.length : key;
      return i >= 0 && i < obj.items.length ? (obj.items[i] as Value) : new PyUndefined(`[${key}]`);
    }
    if (key instanceof PStr) return getAttr(obj, key.text);
    return new PyUndefined("[]");
  }

  private call(n: CallNode, scope: Scope): Value {
    if (n.callee.type === "MemberExpression" && !(n.callee as MemberNode).computed) {
      const m = n.callee as MemberNode;
      const obj = this.expr(m.object, scope);
      const name = (m.property as IdentNode).value;
      if (!(obj instanceof PObject) && !(obj instanceof PDict && obj.get(name) instanceof Callable))
        return callMethod(obj, name, this.args(n.args, scope), this);
    }
    const f = this.expr(n.callee, scope);
    if (f instanceof PyUndefined) throw new TemplateRuntimeError(`'${f.name}' is undefined`);
    if (!(f instanceof Callable)) throw new TemplateRuntimeError(`'${typeName(f)}' object is not callable`);
    return f.call(this.args(n.args, scope));
  }

  /**
   * A left-nested chain of one operator (`a + b + c + d`, `a ~ b ~ c`), as its operands in order.
   * Chains are how templates build every message (`'<|im_start|>' + message.role + '\n' + ...`);
   * joining the strings of a chain once instead of pairwise avoids re-copying the growing
   * left part at every step (what Python does, with the same result).
   */
  private static chain(n: BinaryNode): readonly Node[] {
    let c = CHAINS.get(n);
    if (c === undefined) {
      const op = n.operator.value;
      const operands: Node[] = [n.right];
      let left: Node = n.left;
      while (left.type === "BinaryExpression" && (left as BinaryNode).operator.value === op) {
        operands.push((left as BinaryNode).right);
        left = (left as BinaryNode).left;
      }
      operands.push(left);
      c = operands.reverse();
      CHAINS.set(n, c);
    }
    return c;
  }

  /** `a ~ b ~ ...`: every operand through str(), one concat. */
  private tildeChain(n: BinaryNode, scope: Scope): Value {
    const operands = Interpreter.chain(n);
    const parts = new Array<PStr>(operands.length);
    for (let k = 0; k < operands.length; k++) parts[k] = str(this.expr(operands[k] as Node, scope));
    return this.made(concat(parts));
  }

  /**
   * `a + b + ...`, evaluated left to right as Python does; consecutive string operands are
   * collected and joined once, any other operand falls back to the pairwise `+`.
   */
  private plusChain(n: BinaryNode, scope: Scope): Value {
    const operands = Interpreter.chain(n);
    let acc: Value = this.expr(operands[0] as Node, scope);
    let strs: PStr[] | undefined;
    for (let k = 1; k < operands.length; k++) {
      const v = this.expr(operands[k] as Node, scope);
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
        acc = this.made(concat(strs));
        strs = undefined;
      }
      acc = this.arith("+", acc, v);
    }
    return strs === undefined ? acc : this.made(concat(strs));
  }

  private binary(n: BinaryNode, scope: Scope): Value {
    const op = n.operator.value;
    if (op === "~") return this.tildeChain(n, scope);
    if (op === "+") return this.plusChain(n, scope);
    if (op === "and") {
      const l = this.expr(n.left, scope);
      return truthy(l) ? this.expr(n.right, scope) : l;
    }
    if (op === "or") {
      const l = this.expr(n.left, scope);
      return truthy(l) ? l : this.expr(n.right, scope);
    }
    const l = this.expr(n.left, scope);
    const r = this.expr(n.right, scope);
    switch (op) {
      case "~":
        return this.made(concat([str(l), str(r)]));
      case "==":
        return equals(l, r);
      case "!=":
        return !equals(l, r);
      case "<":
        return less(l, r);
      case ">":
        return less(r, l);
      case "<=":
        return !less(r, l);
      case ">=":
        return !less(l, r);
      case "in":
        return this.contains(r, l);
      case "not in":
        return !this.contains(r, l);
      default:
        return this.arith(op, l, r);
    }
  }

  contains(hay: Value, needle: Value): boolean {
    if (hay instanceof PStr) {
      if (!(needle instanceof PStr))
        throw new TemplateRuntimeError(
          `'in <string>' requires string as left operand, not ${typeName(needle)}`,
        );
      this.audit(hay, "in", needle);
      return hay.text.includes(needle.text);
    }
    if (hay instanceof PList) return hay.items.some((x) => equals(x, needle));
    if (hay instanceof PDict) {
      const k = PDict.keyOf(needle);
      return k !== undefined && hay.map.has(k);
    }
    if (hay instanceof PyUndefined) return false;
    throw new TemplateRuntimeError(`argument of type '${typeName(hay)}' is not iterable`);
  }

  private arith(op: string, l: Value, r: Value): Value {
    if (op === "+") {
      if (l instanceof PStr && r instanceof PStr) {
        if (isMarkup(l) || isMarkup(r)) return this.made(markupPlus(l, r, (x, y) => concat([x, y])));
        return this.made(concat([l, r]));
      }
      if (l instanceof PList && r instanceof PList) {
        this.charge(l.items.length + r.items.length);
        return new PList([...l.items, ...r.items], l.tuple);
      }
    }
    if (op === "*") {
      const [s, k] = isStr(l) ? [l, r] : isStr(r) ? [r, l] : [undefined, undefined];
      if (s !== undefined && typeof k === "number") {
        const times = Math.max(0, Math.trunc(k));
        if (s.length * times > this.limits.maxOutputChars)
          throw new TemplateLimitError(
            "maxOutputChars",
            `a string longer than ${this.limits.maxOutputChars} characters`,
          );
        this.charge(s.length * times);
        return concat(new Array<PStr>(times).fill(s));
      }
    }
    const a = numOf(l);
    const b = numOf(r);
    if (a === undefined || b === undefined)
      throw new TemplateRuntimeError(
        `unsupported operand type(s) for ${op}: '${typeName(l)}' and '${typeName(r)}'`,
      );
    // Python: a float operand makes a float; `/` always does; int ** negative int is a float.
    const float = l instanceof PyFloat || r instanceof PyFloat || op === "/" || (op === "**" && b < 0);
    const wrap = (x: number): Value => (float ? new PyFloat(x) : x);
    switch (op) {
      case "+":
        return wrap(a + b);
      case "-":
        return wrap(a - b);
      case "*":
        return wrap(a * b);
      case "/":
        if (b === 0) throw new TemplateRuntimeError("division by zero");
        return wrap(a / b);
      case "//":
        if (b === 0) throw new TemplateRuntimeError("integer division or modulo by zero");
        return wrap(Math.floor(a / b));
      case "%":
        if (b === 0) throw new TemplateRuntimeError("integer division or modulo by zero");
        return wrap(a - b * Math.floor(a / b));
      case "**":
        return wrap(a ** b);
      default:
        throw new TemplateRuntimeError(`unsupported operator ${op}`);
    }
  }
}

export type { Scope };
