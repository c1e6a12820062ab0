// Renders a chat template with transformers' globals (raise_exception, strftime_now, namespace,
// range, dict) and the loopcontrols extension, and maps every failure to a TokenizerError:
// "template-syntax-error" (the parser refused it), "template-exception" (the template called
// raise_exception: its message), "template-limit" (./limits.ts), "template-error" (anything a
// Python jinja2 render would raise at run time: undefined attribute, bad operand, ...).
import { TokenizerError } from "../errors.ts";
import { type ProgramNode, parseTemplate } from "./ast.ts";
import { Interpreter, type StructureAuditEntry, TemplateLimitError, TemplateRaise } from "./interpreter.ts";
import { DEFAULT_LIMITS, ITEM_COST, type TemplateLimits } from "./limits.ts";
import type { Origins } from "./origins.ts";
import { PStr } from "./pstr.ts";
import { Scope, type VarLayer } from "./scope.ts";
import { strftimeP } from "./strftime.ts";
import {
  Callable,
  kwargKey,
  PDict,
  PList,
  PObject,
  shortText,
  TemplateRuntimeError,
  type Value,
} from "./values.ts";

export interface RenderOptions {
  readonly limits?: Partial<TemplateLimits>;
  /** The clock of strftime_now (default: the current time). */
  readonly now?: () => Date;
}

export interface RenderResult {
  readonly output: PStr;
  readonly structure: StructureAuditEntry[];
  /** Work units the render was charged (./limits.ts; at most limits.maxWorkChars). */
  readonly work?: number;
}

/** Parses once; TokenizerError("template-syntax-error") when the parser refuses the source. */
export function compileTemplate(source: string): ProgramNode {
  try {
    return parseTemplate(source);
  } catch (e) {
    const why = stackOverflow(e) ? NESTED_TOO_DEEPLY : e instanceof Error ? e.message : String(e);
    throw new TokenizerError("template-syntax-error", `chat template: ${why.slice(0, 200)}`, {});
  }
}

/** The message for a template whose nesting ran the stack out (parsing or rendering). */
const NESTED_TOO_DEEPLY = "nested too deeply (blocks, brackets or operators) for the JavaScript stack";

/**
 * The engine's stack overflow, as opposed to any other error: V8 and JavaScriptCore throw a
 * RangeError ("Maximum call stack size exceeded"), SpiderMonkey an InternalError ("too much
 * recursion").
 */
const stackOverflow = (e: unknown): boolean =>
  e instanceof Error &&
  ((e instanceof RangeError && /call stack/i.test(e.message)) ||
    (e.name === "InternalError" && /recursion/i.test(e.message)));

/**
 * The globals that hold no per-render state (their state, a joiner's or cycler's, is made when
 * the template calls them): built once, the bottom layer of every render's scope.
 */
const STATIC_GLOBALS: ReadonlyMap<string, Value> = (() => {
  const g = new Map<string, Value>();
  g.set(
    "raise_exception",
    new Callable("raise_exception", ({ args }) => {
      throw new TemplateRaise(shortText(args[0] ?? null, 100_000));
    }),
  );
  g.set(
    "namespace",
    new Callable("namespace", (a) => {
      const attrs = new Map<string, Value>();
      // Attribute names keep their characters' origin: a caller key prints as caller text.
      const keys = new Map<string, PStr>();
      const init = a.args[0];
      if (init instanceof PDict)
        for (const [k, [key, v]] of init.map)
          if (typeof k === "string" && key instanceof PStr) {
            attrs.set(k, v);
            keys.set(k, key);
          }
      for (const [k, v] of a.kwargs) {
        attrs.set(k, v);
        keys.set(k, kwargKey(a, k));
      }
      return new PObject("namespace", attrs, keys);
    }),
  );
  g.set(
    "joiner",
    new Callable("joiner", ({ args, kwargs }) => {
      const sep = args[0] ?? kwargs.get("sep") ?? PStr.of(", ");
      let used = false;
      return new Callable("joiner", () => {
        if (!used) {
          used = true;
          return PStr.EMPTY;
        }
        return sep;
      });
    }),
  );
  g.set(
    "cycler",
    new Callable("cycler", ({ args }) => {
      if (args.length === 0) throw new TemplateRuntimeError("at least one item has to be provided");
      const attrs = new Map<string, Value>();
      let pos = 0;
      const current = (): void => {
        attrs.set("current", args[pos] as Value);
      };
      current();
      attrs.set(
        "next",
        new Callable("next", () => {
          const v = args[pos] as Value;
          pos = (pos + 1) % args.length;
          current();
          return v;
        }),
      );
      attrs.set(
        "reset",
        new Callable("reset", () => {
          pos = 0;
          current();
          return null;
        }),
      );
      return new PObject("cycler", attrs);
    }),
  );
  g.set(
    "dict",
    new Callable("dict", (a) => {
      const d = new PDict();
      for (const [k, v] of a.kwargs) d.set(kwargKey(a, k), v);
      return d;
    }),
  );
  return g;
})();

/** Every global a template can call (the static ones and the two bound to a render). */
export const GLOBAL_NAMES: readonly string[] = [...STATIC_GLOBALS.keys(), "strftime_now", "range"];

/**
 * The render's globals layer: the static ones, and strftime_now (its clock) and range (charged
 * to `it`), which are bound to one render and so made only when the template reads them (most
 * renders read neither: building both per render was a Map and four closures per request).
 */
class RenderGlobals implements VarLayer {
  private strftimeNow: Callable | undefined;
  private range: Callable | undefined;

  constructor(
    private readonly now: () => Date,
    private readonly it: Interpreter,
  ) {}

  get(name: string): Value | undefined {
    if (name === "strftime_now") {
      this.strftimeNow ??= strftimeNow(this.now, this.it);
      return this.strftimeNow;
    }
    if (name === "range") {
      this.range ??= range(this.it);
      return this.range;
    }
    return STATIC_GLOBALS.get(name);
  }
}

function strftimeNow(now: () => Date, it: Interpreter): Callable {
  return new Callable("strftime_now", ({ args }) => {
    const f = args[0];
    if (!(f instanceof PStr)) throw new TemplateRuntimeError("strftime_now needs a format string");
    // The longest directive expansion is 9 characters (%A, %B) for 2 of the format's.
    it.charge(f.length * 5);
    return it.made(strftimeP(now(), f, it.limits.maxOutputChars));
  });
}

function range(it: Interpreter): Callable {
  return new Callable("range", ({ args }) => {
    const nums = args.map((x) => {
      if (typeof x !== "number" || !Number.isInteger(x))
        throw new TemplateRuntimeError("range() needs integers");
      return x;
    });
    const [start, stop, step] =
      nums.length === 1 ? [0, nums[0] as number, 1] : [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 1];
    if (step === 0) throw new TemplateRuntimeError("range() arg 3 must not be zero");
    const n = Math.max(0, Math.ceil((stop - start) / step));
    if (n > it.limits.maxSteps) throw new TemplateLimitError("maxSteps", `range of ${n} items`);
    it.charge(n * ITEM_COST);
    return new PList(Array.from({ length: n }, (_, i) => start + i * step));
  });
}

const currentTime = (): Date => new Date();

/** Renders `program` with `vars` (already converted with `origins`; a list: later maps win). */
export function renderProgram(
  program: ProgramNode,
  vars: ReadonlyMap<string, Value> | readonly ReadonlyMap<string, Value>[],
  origins: Origins,
  options: RenderOptions = {},
): RenderResult {
  const limits = options.limits === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...options.limits };
  const it = new Interpreter(origins, limits);
  const builtins = new RenderGlobals(options.now ?? currentTime, it);
  try {
    // The top scope over the read-only layers (later layers win), without copying them: a
    // template's top-level {% set %} writes into the fresh scope on top.
    let layers = new Scope(undefined, builtins);
    if (vars instanceof Map) layers = new Scope(layers, vars);
    else for (const l of vars as readonly ReadonlyMap<string, Value>[]) layers = new Scope(layers, l);
    const output = it.render(program, new Scope(layers));
    return { output, structure: it.structure, work: it.used };
  } catch (e) {
    if (e instanceof TemplateRaise)
      throw new TokenizerError("template-exception", e.message.slice(0, 500), { templateMessage: e.message });
    if (e instanceof TemplateLimitError)
      throw new TokenizerError("template-limit", `chat template: ${e.message}`, { limit: e.limit });
    const deep = stackOverflow(e);
    if (e instanceof TemplateRuntimeError || e instanceof RangeError || deep) {
      const why = deep ? NESTED_TOO_DEEPLY : (e as Error).message.slice(0, 200);
      throw new TokenizerError("template-error", `chat template: ${why}`, {});
    }
    throw e;
  }
}
