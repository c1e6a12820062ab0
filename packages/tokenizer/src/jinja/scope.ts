// A variable scope of a render: its own variables over a parent chain (jinja2's frames: every
// for iteration and macro call is a fresh one; the render's top scope layers read-only maps).
// The first three variables set in a scope are held in fields, a Map made only for a fourth:
// a loop iteration's scope binds its loop variable and often a `{% set %}` or two (Qwen3's
// assistant branch sets `content` and `reasoning_content`), and a Map per iteration was most
// of what a loop allocated (and a Map lookup per frame most of a name's lookup).
import type { Value } from "./values.ts";

/** A read-only layer of variables (a Map, or the render's globals object of ./render.ts). */
export interface VarLayer {
  get(name: string): Value | undefined;
}

export class Scope {
  private name0: string | undefined;
  private value0: Value | undefined;
  private name1: string | undefined;
  private value1: Value | undefined;
  private name2: string | undefined;
  private value2: Value | undefined;
  private vars: Map<string, Value> | undefined;

  /** `layer`: read-only variables below this scope's own (never written through this scope). */
  constructor(
    readonly parent: Scope | undefined,
    private readonly layer?: VarLayer,
  ) {}

  set(name: string, v: Value): void {
    if (this.name0 === name) this.value0 = v;
    else if (this.name1 === name) this.value1 = v;
    else if (this.name2 === name) this.value2 = v;
    else if (this.vars !== undefined) this.vars.set(name, v);
    else if (this.name0 === undefined) {
      this.name0 = name;
      this.value0 = v;
    } else if (this.name1 === undefined) {
      this.name1 = name;
      this.value1 = v;
    } else if (this.name2 === undefined) {
      this.name2 = name;
      this.value2 = v;
    } else {
      this.vars = new Map<string, Value>();
      this.vars.set(name, v);
    }
  }

  /** Whether this scope itself (not a parent, not its read-only layer) holds `name`. */
  has(name: string): boolean {
    return this.name0 === name || this.name1 === name || this.name2 === name || this.vars?.has(name) === true;
  }

  lookup(name: string): Value | undefined {
    for (let s: Scope | undefined = this; s !== undefined; s = s.parent) {
      if (s.name0 === name) return s.value0;
      if (s.name1 === name) return s.value1;
      if (s.name2 === name) return s.value2;
      if (s.vars !== undefined) {
        const v = s.vars.get(name);
        if (v !== undefined) return v;
      }
      if (s.layer !== undefined) {
        const v = s.layer.get(name);
        if (v !== undefined) return v;
      }
    }
    return undefined;
  }
}
