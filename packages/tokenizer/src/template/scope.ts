// A variable scope of a render: its own map over a parent chain (jinja2's frames: every for
// iteration and macro call is a fresh one; the render's top scope layers read-only maps).
import type { Value } from "./values.ts";

export class Scope {
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
