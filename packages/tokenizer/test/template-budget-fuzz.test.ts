// Fuzz of the template work budget: random templates built from the interpreter's grammar
// (statements: output, for, if, set, namespace accumulation, recursive macros; typed string,
// list, int and bool expressions, and untyped ones over every filter, test, str/dict method,
// global and operator of its tables) over
// long caller strings, lists and dicts, rendered with small limits. For every case the values
// the interpreter allocated (counted where they are made, ./limits.ts `allocated`, apart from
// the charges) stay within a small constant of the budget: the work budget plus, per loop step or
// macro call, the template's size (what one step can evaluate). Counters, not wall-clock
// asserts; the time and peak RSS are printed for the record (bench/RESULTS.md holds numbers).
import { describe, expect, test } from "vitest";
import { mulberry32 } from "../../../test-support/mulberry32.ts";
import { compileTemplate, Origins, renderProgram, TokenizerError, type Value } from "../src/index.ts";
import { BINARY_OPERATORS } from "../src/jinja/compile.ts";
import { FILTER_NAMES, TEST_NAMES } from "../src/jinja/filters.ts";
import { allocated, ITEM_COST } from "../src/jinja/limits.ts";
import { DICT_METHODS, STR_METHODS } from "../src/jinja/methods.ts";
import { GLOBAL_NAMES } from "../src/jinja/render.ts";

const LIMITS = { maxWorkChars: 1_000_000, maxOutputChars: 200_000, maxSteps: 20_000, maxCallDepth: 16 };
const CASES = Number(process.env.CHATWIRE_FUZZ_CASES ?? 1500);
/** Allocation units of one value object (a PStr with its run arrays: a few dozen bytes, two per unit). */
const VALUE_UNITS = 16;
/** The bound: allocation over budget, at most this. */
const MAX_RATIO = 1;

/** A fixed-seed generator, so a failing case is found again by its index. */
const rng = mulberry32;

function grammar(r: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  // Typed productions (most renders get far enough to do real work) ...
  const str = (k: number): string => {
    if (k <= 0 || r() < 0.25)
      return pick(["s", "t", "x", "'ab'", "'\\n'", "''", "(ns.v|string)", "d.k", "l[1]"]);
    const S = () => str(k - 1);
    const I = () => int(k - 1);
    const L = () => list(k - 1);
    return pick([
      () => `${S()} ~ ${S()}`,
      () => `${S()} + ${S()}`,
      () => `(${S()}) * (${I()})`,
      () =>
        `(${S()})|${pick(["trim", "upper", "lower", "title", "capitalize", "e", "string", "reverse", "safe"])}`,
      () => `(${S()})|replace(${S()}, ${S()})`,
      () => `(${S()})|indent(${I()})`,
      () => `(${S()}).${pick(["strip", "lstrip", "rstrip", "upper", "lower", "title"])}()`,
      () => `(${S()}).replace(${S()}, ${S()})`,
      () => `(${S()}).join(${L()})`,
      () => `(${L()})|join(${S()})`,
      () => `(${S()})[${pick(["1:", "::2", "::-1", ":n", "-n:"])}]`,
      () => `(${L()})|${pick(["first", "last", "string", "tojson"])}`,
      () => `(${S()})|first`,
      () => `d|tojson(indent=${pick(["n", "t", "big"])})`,
      () => `'%s|%r|%5d' % (${S()}, ${S()}, ${I()})`,
      () => `strftime_now(${S()})`,
      () => `(${S()}) if (${bool(k - 1)}) else (${S()})`,
      () => `m(${S()})`,
    ])();
  };
  const list = (k: number): string => {
    if (k <= 0 || r() < 0.25) return pick(["l", "[t, s]", "range(1000)|list", "d.keys()|list"]);
    const S = () => str(k - 1);
    const L = () => list(k - 1);
    return pick([
      () => `range(${int(k - 1)})|list`,
      () => `(${S()}).split(${pick(["", "' '", "'a'", "t"])})`,
      () => `(${S()})|list`,
      () => `(${S()}).splitlines()`,
      () => `${L()} + ${L()}`,
      () => `(${L()})|${pick(["sort", "unique|list", "reverse|list", "select|list", "list"])}`,
      () => `(${L()})|map('upper')|list`,
      () => `[${S()}, ${S()}]`,
      () => `(${L()})[${pick(["1:", "::2", "::-1"])}]`,
    ])();
  };
  const int = (k: number): string => {
    if (k <= 0 || r() < 0.3) return pick(["n", "big", "3", "10**6", "10**9", "0", "-2"]);
    const S = () => str(k - 1);
    return pick([
      () => `(${S()})|length`,
      () => `(${list(k - 1)})|length`,
      () => `(${S()})|wordcount`,
      () => `(${S()})|int`,
      () => `(${S()}).count(${S()})`,
      () => `(${S()}).find(${S()})`,
      () => `${int(k - 1)} + ${int(k - 1)}`,
    ])();
  };
  const bool = (k: number): string => {
    const S = () => str(k - 1);
    return pick([
      () => `${S()} in ${S()}`,
      () => `${S()} in ${list(k - 1)}`,
      () => `${S()} == ${S()}`,
      () => `${S()} < ${S()}`,
      () => `(${S()}).startswith(${S()})`,
      () => `${list(k - 1)} == ${list(k - 1)}`,
      () => `${int(k - 1)} > ${int(k - 1)}`,
    ])();
  };
  // ... and untyped ones over the whole operation table (every name reachable).
  const atoms = [
    "s",
    "t",
    "l",
    "d",
    "n",
    "big",
    "x",
    "ns.v",
    "'ab'",
    "3",
    "10**6",
    "none",
    "range(1000)",
    "d.k",
  ];
  const args = (depth: number): string => {
    const k = Math.floor(r() * 3);
    const xs: string[] = [];
    for (let i = 0; i < k; i++) xs.push(any(depth - 1));
    if (r() < 0.1) xs.push(pick(["**d", "indent=n", "attribute='k'", "reverse=true", "separators=(t, s)"]));
    return xs.join(", ");
  };
  const any = (depth: number): string => {
    if (depth <= 0 || r() < 0.3) return pick(atoms);
    const e = () => any(depth - 1);
    switch (Math.floor(r() * 6)) {
      case 0:
        return `(${e()})|${pick(FILTER_NAMES)}${r() < 0.5 ? "" : `(${args(depth)})`}`;
      case 1:
        return `(${e()}).${pick([...STR_METHODS, ...DICT_METHODS])}(${args(depth)})`;
      case 2:
        return `(${e()}) ${pick(BINARY_OPERATORS)} (${e()})`;
      case 3:
        return `${pick(GLOBAL_NAMES.filter((g) => g !== "raise_exception"))}(${args(depth)})`;
      case 4:
        return `(${e()}) is ${pick(TEST_NAMES.filter((t) => /^[a-z]+$/.test(t)))}`;
      default:
        return `(${e()})[${pick(["0", "-1", "n", "'k'", "1:", "::-1"])}]`;
    }
  };
  const expr = (k: number): string =>
    r() < 0.2 ? any(k) : pick([() => str(k), () => str(k), () => list(k), () => int(k), () => bool(k)])();
  const stmt = (depth: number): string => {
    const body = (): string => {
      let out = "";
      const k = 1 + Math.floor(r() * 3);
      for (let i = 0; i < k; i++) out += stmt(depth - 1);
      return out;
    };
    if (depth <= 0) return `{{ ${expr(3)} }}`;
    switch (Math.floor(r() * 7)) {
      case 0:
        return `{% for x in ${r() < 0.5 ? list(2) : str(2)} %}${body()}{% endfor %}`;
      case 1:
        return `{% if ${bool(2)} %}${body()}{% else %}${body()}{% endif %}`;
      case 2:
        return `{% set ns.v = ${str(3)} %}`;
      case 3:
        return `{% set ns.v = ns.v ~ ${str(2)} %}`;
      default:
        return `{{ ${expr(3)} }}`;
    }
  };
  const prefix =
    "{% set ns = namespace(v='') %}{% macro m(a, k=0) %}{% if k < 6 %}{{ m(a ~ a, k + 1) }}{% endif %}" +
    "{{ a|length }}{% endmacro %}{% set x = t %}";
  return () => {
    let t = prefix;
    const k = 1 + Math.floor(r() * 4);
    for (let i = 0; i < k; i++) t += stmt(2);
    return t;
  };
}

/** The caller's variables: a long string with newlines, spaces and astral characters, a list, a dict. */
function callerVars(origins: Origins): Map<string, Value> {
  const unit = "ab cd\n😀é<|im_end|>x_1 ";
  const raw: Record<string, unknown> = {
    s: unit.repeat(2000),
    t: "Tt <x> ",
    l: Array.from({ length: 300 }, (_, i) => `item ${i} ${unit}`),
    d: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [i === 0 ? "k" : `k${i}`, `v${i}`])),
    n: 7,
    big: 1_000_000,
  };
  return new Map(Object.entries(raw).map(([k, v]) => [k, origins.value(v, null, k)] as const));
}

describe("template work budget fuzz", () => {
  test(`${CASES} random templates: allocation within ${MAX_RATIO}x the budget`, () => {
    const next = grammar(rng(38));
    let worst = { ratio: 0, ms: 0, template: "", index: -1 };
    let slowest = { ms: 0, template: "" };
    const outcomes = new Map<string, number>();
    // Resident memory sampled after every case, over what the process held before (the worker
    // may have run other files: its lifetime peak is printed, not asserted).
    const baseRss = process.memoryUsage().rss;
    let maxRss = baseRss;
    for (let i = 0; i < CASES; i++) {
      const template = next();
      let program: ReturnType<typeof compileTemplate>;
      try {
        program = compileTemplate(template);
      } catch {
        outcomes.set("syntax", (outcomes.get("syntax") ?? 0) + 1);
        continue;
      }
      const origins = new Origins();
      const vars = callerVars(origins);
      const before = { ...allocated };
      const t0 = performance.now();
      let outcome = "rendered";
      try {
        renderProgram(program, vars, origins, { limits: LIMITS });
      } catch (e) {
        if (!TokenizerError.isInstance(e)) throw new Error(`case ${i}: ${String(e)}\n${template}`);
        outcome = e.type === "template-limit" ? `limit ${String(e.fields.limit)}` : e.type;
      }
      const ms = performance.now() - t0;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      const units =
        allocated.chars -
        before.chars +
        VALUE_UNITS * (allocated.values - before.values) +
        ITEM_COST * (allocated.items - before.items);
      const budget = LIMITS.maxWorkChars + (LIMITS.maxSteps + LIMITS.maxCallDepth) * template.length;
      const ratio = units / budget;
      if (ratio > worst.ratio) worst = { ratio, ms, template, index: i };
      if (ms > slowest.ms) slowest = { ms, template };
      maxRss = Math.max(maxRss, process.memoryUsage().rss);
    }
    const rss = process.resourceUsage().maxRSS / 1024;
    const growth = (maxRss - baseRss) / 2 ** 20;
    console.log(
      `budget fuzz: ${CASES} cases ${JSON.stringify(Object.fromEntries(outcomes))}; worst allocation/budget ` +
        `${worst.ratio.toFixed(3)} (case ${worst.index}, ${worst.ms.toFixed(0)} ms); slowest ${slowest.ms.toFixed(0)} ms; ` +
        `RSS growth ${growth.toFixed(0)} MB (sampled per case), process peak RSS ${rss.toFixed(0)} MB`,
    );
    expect({ ratio: worst.ratio <= MAX_RATIO, template: worst.template }).toEqual({
      ratio: true,
      template: worst.template,
    });
    expect(growth).toBeLessThan(1024);
  });
});
