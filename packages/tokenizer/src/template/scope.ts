// A variable scope of a render: its own variables over a parent chain (jinja2's frames: every
// for iteration and macro call is a fresh one; the render's top scope layers read-only maps).
// The first variable set in a scope is held in two fields, a Map made only for a second one:
// a loop iteration's scope binds just its loop variable, and a Map per iteration was most of
// what a loop allocated (and a Map lookup per frame most of a name's lookup).
import type { Value } from "./values.ts";

export class Scope {
  private name0: string | undefined;
  private value0: Value | undefined;
  private vars: Map<string, Value> | undefined;

  /** `vars`: a read-only layer (never written through this scope: writes go to a fresh scope above it). */
  constructor(
    readonly parent: Scope | undefined,
    vars?: Map<string, Value>,
  ) {
    this.vars = vars;
  }

  set(name: string, v: Value): void {
    if (this.name0 === name) this.value0 = v;
    else if (this.name0 === undefined && this.vars === undefined) {
      this.name0 = name;
      this.value0 = v;
    } else {
      if (this.vars === undefined) this.vars = new Map<string, Value>();
      this.vars.set(name, v);
    }
  }

  /** Whether this scope itself (not a parent) holds `name`. */
  has(name: string): boolean {
    return this.name0 === name || this.vars?.has(name) === true;
  }

  lookup(name: string): Value | undefined {
    for (let s: Scope | undefined = this; s !== undefined; s = s.parent) {
      if (s.name0 === name) return s.value0;
      if (s.vars !== undefined) {
        const v = s.vars.get(name);
        if (v !== undefined) return v;
      }
    }
    return undefined;
  }
}
