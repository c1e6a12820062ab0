// A Jinja interpreter with Python jinja2 semantics over @huggingface/jinja's syntax tree, whose
// string values carry per-character provenance (./pstr.ts): the tree is compiled once to
// closures (./compile.ts); this is the state of one render (bounds, audit) and the runtime
// operations the compiled code calls. It evaluates what transformers'
// ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, loopcontrols) evaluates: statements
// (if, for with else/filter/tuple unpacking/loop, set incl. namespace attributes and blocks,
// macro, filter blocks, break/continue), expressions, the filters and tests of ./filters.ts and
// the str/dict methods of ./methods.ts. No Python object is reachable: there is nothing to
// sandbox beyond the bounds of ./limits.ts, which every loop, call and string operation checks.
//
// Where control flow reads caller text (`x in content`, content.startswith(...), split, find),
// a `structure-from-caller-text` audit entry names the field.
import type { ProgramNode } from "./ast.ts";
import { type Block, compileProgram, type Param, runBlock, type SpecialReads } from "./compile.ts";
import { ITEM_COST, TemplateLimitError, type TemplateLimits, tooLong, VALUE_COST } from "./limits.ts";

export { TemplateLimitError };

import { isMarkup, markupPlus } from "./markup.ts";
import { getAttr } from "./methods.ts";
import type { Origins } from "./origins.ts";
import { percentFormat } from "./percent.ts";
import { concat, PStr, PStrBuilder, TEMPLATE } from "./pstr.ts";
import { pyIndex } from "./py-str.ts";
import { Scope } from "./scope.ts";
import {
  Callable,
  equals,
  isStr,
  kwargKey,
  numOf,
  PDict,
  PList,
  PyFloat,
  PyUndefined,
  shortText,
  str,
  TemplateRuntimeError,
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
  /**
   * Only on the last entry of a render that read caller text more often than the audit lists
   * (op "truncated", field "", needle ""): how many further reads were not listed.
   */
  readonly omitted?: number;
}

/** The most entries one render's structure audit lists; further reads are counted in one last entry. */
export const MAX_STRUCTURE_ENTRIES = 100;

const AUDIT_SCAN = 16;

function auditKey(message: number | null, field: string, op: string, needle: string): string {
  return `${message}\u0000${field}\u0000${op}\u0000${needle}`;
}

/** raise_exception(message) in the template. */
export class TemplateRaise extends Error {}

export class Interpreter {
  private steps = 0;
  private work = 0;
  private depth = 0;
  private outChars = 0;
  /** Reads of caller text past MAX_STRUCTURE_ENTRIES (not listed). */
  private omitted = 0;
  readonly structure: StructureAuditEntry[] = [];
  /**
   * The render's top scope: where a name no statement of the template binds is read (the
   * compiled code skips the loop and macro frames for such names, ./compile.ts).
   */
  globals: Scope = new Scope(undefined);
  /** The audit's keys, made once it holds more than AUDIT_SCAN entries (recorded). */
  private seen: Set<string> | undefined;

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

  /** Work units charged so far (./limits.ts). */
  get used(): number {
    return this.work;
  }

  /** Charges `n` work units to the budget (before the work, where it can be known); returns n. */
  charge(n: number): number {
    this.work += n;
    if (this.work > this.limits.maxWorkChars)
      throw new TemplateLimitError(
        "maxWorkChars",
        `more than ${this.limits.maxWorkChars} units of work (characters made, scanned or compared; items made)`,
      );
    return n;
  }

  /** concat(parts), its length checked and charged before anything is joined. */
  join(parts: readonly PStr[]): PStr {
    let n = 0;
    for (let i = 0; i < parts.length; i++) n += (parts[i] as PStr).length;
    if (n > this.limits.maxOutputChars) throw tooLong(this.limits.maxOutputChars);
    this.charge(n + parts.length);
    return concat(parts);
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

  /** Python str(v), a printed list or dict bounded by maxOutputChars while it is printed. */
  str(v: Value): PStr {
    return str(v, this.limits.maxOutputChars);
  }

  /** Charges a search over `hay`; records when control flow read caller text (op with the template-side `needle`). */
  audit(hay: Value, op: string, needle: Value): void {
    if (!(hay instanceof PStr)) return;
    // Every search reads the whole string: charged, so a loop of searches over a long string
    // is bounded by maxWorkChars like the strings a template builds.
    this.charge(hay.length);
    const first = hay.firstCaller;
    if (first === TEMPLATE) return;
    if (this.structure.length >= MAX_STRUCTURE_ENTRIES) {
      this.omitted++;
      return;
    }
    const { message, field } = this.origins.get(first);
    const n = needle instanceof PStr ? needle.text : needle === null ? "" : shortText(needle, 200);
    const cut = n.length > 40 ? `${n.slice(0, 40)}…` : n;
    if (this.recorded(message, field, op, cut)) return;
    this.structure.push({ type: "structure-from-caller-text", message, field, op, needle: cut });
  }

  /**
   * Whether (message, field, op, needle) is already in the audit; records it in the key set when
   * there is one. A render records a few entries: up to AUDIT_SCAN of them are compared in place
   * (building a key string per read was ~3% of a short request); from then on a Set of keys
   * keeps the check constant time, so a template that audits many fields stays linear.
   */
  private recorded(message: number | null, field: string, op: string, needle: string): boolean {
    const all = this.structure;
    if (this.seen === undefined) {
      for (let i = 0; i < all.length; i++) {
        const e = all[i] as StructureAuditEntry;
        if (e.message === message && e.field === field && e.op === op && e.needle === needle) return true;
      }
      if (all.length < AUDIT_SCAN) return false;
      this.seen = new Set(all.map((e) => auditKey(e.message, e.field, e.op, e.needle)));
    }
    const key = auditKey(message, field, op, needle);
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    return false;
  }

  // ---- running compiled code ---------------------------------------------------------------

  /** Renders the program (compiled once per parsed tree, ./compile.ts) in `globals`. */
  render(program: ProgramNode, globals: Scope): PStr {
    this.globals = globals;
    const out = new PStrBuilder();
    runBlock(compileProgram(program), this, globals, out, true);
    if (this.omitted > 0)
      this.structure.push({
        type: "structure-from-caller-text",
        message: null,
        field: "",
        op: "truncated",
        needle: "",
        omitted: this.omitted,
      });
    return out.finish();
  }

  /** Appends a statement's output: top-level output is counted against maxOutputChars, nested output charged as work. */
  emit(out: PStrBuilder, s: PStr, top: boolean): void {
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

  /**
   * emit(out, made(concat(parts)), top) without the joined string: a `+` / `~` chain of strings
   * written by an output statement goes straight into `out`, charged and bounded as the joined
   * string would be (made's work charge and length bound, then emit's), and the builder merges
   * adjacent runs of one origin as concat does.
   */
  emitParts(out: PStrBuilder, parts: readonly PStr[], top: boolean): void {
    let n = 0;
    for (let i = 0; i < parts.length; i++) n += (parts[i] as PStr).length;
    this.charge(n);
    if (n > this.limits.maxOutputChars)
      throw new TemplateLimitError(
        "maxOutputChars",
        `a string longer than ${this.limits.maxOutputChars} characters`,
      );
    if (n === 0) return;
    if (top) {
      this.outChars += n;
      if (this.outChars > this.limits.maxOutputChars)
        throw new TemplateLimitError(
          "maxOutputChars",
          `output longer than ${this.limits.maxOutputChars} characters`,
        );
    } else this.charge(n);
    for (let i = 0; i < parts.length; i++) out.push(parts[i] as PStr);
  }

  /**
   * A macro (or a call block's `caller`) as jinja2 builds it: parameters with defaults evaluated
   * at call time in the macro's scope; extra positional arguments are `varargs` (a tuple) and
   * extra keywords `kwargs` (a dict) when the body reads those names, else a TypeError, as in
   * jinja2; `caller` is the call block's body when the macro is called from `{% call %}`.
   */
  callable(
    name: string,
    params: readonly Param[],
    body: Block,
    uses: SpecialReads,
    defScope: Scope,
  ): Callable {
    return new Callable(name, (a) => {
      const { args, kwargs } = a;
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
          s.set(
            p.name,
            given !== undefined ? given : p.dflt !== undefined ? p.dflt(this, s) : new PyUndefined(p.name),
          );
        });
        const extra = new PDict();
        for (const [k, v] of kwargs) {
          if (known.has(k)) continue;
          if (k === "caller" && uses.caller) {
            s.set("caller", v);
            continue;
          }
          if (!uses.kwargs)
            throw new TemplateRuntimeError(`macro '${name}' takes no keyword argument '${k}'`);
          extra.set(kwargKey(a, k), v);
        }
        if (uses.varargs) s.set("varargs", new PList(args.slice(params.length), true));
        if (uses.kwargs) s.set("kwargs", extra);
        if (uses.caller && !s.has("caller")) s.set("caller", new PyUndefined("caller"));
        const out = new PStrBuilder();
        runBlock(body, this, s, out, false);
        return out.finish();
      } finally {
        this.depth--;
      }
    });
  }

  // ---- runtime operations (compiled code and ./filters.ts, ./methods.ts call these) ----------------------------------------------------------------------

  /**
   * The items `for` would visit (a list's own array: callers copy before changing it). A string's
   * characters and a dict's keys are made here, charged before they are made.
   */
  iterate(v: Value): Value[] {
    if (v instanceof PList) return v.items;
    if (v instanceof PDict) {
      this.charge(v.map.size * ITEM_COST);
      const keys = new Array<Value>(v.map.size);
      let i = 0;
      for (const [k] of v.map.values()) keys[i++] = k;
      return keys;
    }
    if (v instanceof PStr) {
      this.charge(v.length * VALUE_COST);
      return v.chars();
    }
    if (v instanceof PyUndefined) return [];
    throw new TemplateRuntimeError(`'${typeName(v)}' object is not iterable`);
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

  contains(hay: Value, needle: Value): boolean {
    if (hay instanceof PStr) {
      if (!(needle instanceof PStr))
        throw new TemplateRuntimeError(
          `'in <string>' requires string as left operand, not ${typeName(needle)}`,
        );
      this.audit(hay, "in", needle);
      return hay.text.includes(needle.text);
    }
    if (hay instanceof PList) {
      for (const x of hay.items) if (equals(x, needle, 0, this)) return true;
      return false;
    }
    if (hay instanceof PDict) {
      const k = PDict.keyOf(needle);
      return k !== undefined && hay.map.has(k);
    }
    if (hay instanceof PyUndefined) return false;
    throw new TemplateRuntimeError(`argument of type '${typeName(hay)}' is not iterable`);
  }

  /** `l op r` for the arithmetic operators (and `+` of strings and lists, `*` repeating a string). */
  arith(op: string, l: Value, r: Value): Value {
    if (op === "+") {
      if (l instanceof PStr && r instanceof PStr) {
        if (isMarkup(l) || isMarkup(r)) return this.made(markupPlus(l, r, (x, y) => concat([x, y])));
        return this.made(concat([l, r]));
      }
      if (l instanceof PList && r instanceof PList) {
        this.charge((l.items.length + r.items.length) * ITEM_COST);
        return new PList([...l.items, ...r.items], l.tuple);
      }
    }
    if (op === "*") {
      const [s, k] = isStr(l) ? [l, r] : isStr(r) ? [r, l] : [undefined, undefined];
      if (s !== undefined && (typeof k === "number" || typeof k === "boolean")) {
        if (typeof k === "number" && !Number.isInteger(k))
          throw new TemplateRuntimeError("can't multiply sequence by non-int of type 'float'");
        const times = Math.max(0, Number(k));
        // '' * 10**9 is '' (nothing made, no array of a billion references).
        if (s.length === 0 || times === 0) return PStr.EMPTY;
        if (times > this.limits.maxOutputChars / s.length) throw tooLong(this.limits.maxOutputChars);
        this.charge(s.length * times);
        if (s.runs.length === 1) return PStr.of(s.text.repeat(times), s.origins[0] as number);
        return concat(new Array<PStr>(times).fill(s));
      }
    }
    if (op === "%" && l instanceof PStr) {
      // Python's `fmt % values` (./percent.ts): the work is the format and each argument's text.
      this.charge(l.length);
      return this.made(percentFormat(l, r, this.limits.maxOutputChars));
    }
    const a = numOf(l);
    const b = numOf(r);
    if (a === undefined || b === undefined)
      throw new TemplateRuntimeError(
        `unsupported operand type(s) for ${op}: '${typeName(l)}' and '${typeName(r)}'`,
      );
    // Python: a float operand makes a float; `/` always does; int ** negative int is a float.
    const float = l instanceof PyFloat || r instanceof PyFloat || op === "/" || (op === "**" && b < 0);
    const x = Interpreter.numeric(op, a, b);
    return float ? new PyFloat(x) : x;
  }

  /** The number `a op b` (no closure per operation: arithmetic runs once per loop iteration). */
  private static numeric(op: string, a: number, b: number): number {
    switch (op) {
      case "+":
        return a + b;
      case "-":
        return a - b;
      case "*":
        return a * b;
      case "/":
        if (b === 0) throw new TemplateRuntimeError("division by zero");
        return a / b;
      case "//":
        if (b === 0) throw new TemplateRuntimeError("integer division or modulo by zero");
        return Math.floor(a / b);
      case "%":
        if (b === 0) throw new TemplateRuntimeError("integer division or modulo by zero");
        return a - b * Math.floor(a / b);
      case "**":
        return a ** b;
      default:
        throw new TemplateRuntimeError(`unsupported operator ${op}`);
    }
  }
}

export { Scope };
