// jinja2's `loop` object of a for loop: index, index0, revindex, revindex0, first, last, length,
// depth, depth0, previtem, nextitem, cycle(...). The attributes are computed from the current
// index `i` when read, so an iteration writes one integer instead of twelve map entries.
import { Callable, PyUndefined, TemplateRuntimeError, type Value } from "./values.ts";

const PREV = new PyUndefined("previtem");
const NEXT = new PyUndefined("nextitem");
const NAMES = [
  "index",
  "index0",
  "revindex",
  "revindex0",
  "first",
  "last",
  "length",
  "depth",
  "depth0",
  "previtem",
  "nextitem",
  "cycle",
] as const;

/** A read-only Map view of the loop's attributes at index `i`. */
export class LoopAttrs extends Map<string, Value> {
  i = 0;
  private readonly cycle: Callable;

  constructor(private readonly items: readonly Value[]) {
    super();
    this.cycle = new Callable("cycle", ({ args }) => {
      if (args.length === 0) throw new TemplateRuntimeError("no items for cycling given");
      return args[this.i % args.length] as Value;
    });
  }

  override get(name: string): Value | undefined {
    const i = this.i;
    const len = this.items.length;
    switch (name) {
      case "index":
        return i + 1;
      case "index0":
        return i;
      case "revindex":
        return len - i;
      case "revindex0":
        return len - i - 1;
      case "first":
        return i === 0;
      case "last":
        return i === len - 1;
      case "length":
        return len;
      case "depth":
        return 1;
      case "depth0":
        return 0;
      case "previtem":
        return i > 0 ? (this.items[i - 1] as Value) : PREV;
      case "nextitem":
        return i < len - 1 ? (this.items[i + 1] as Value) : NEXT;
      case "cycle":
        return this.cycle;
      default:
        return undefined;
    }
  }

  override has(name: string): boolean {
    return (NAMES as readonly string[]).includes(name);
  }

  override set(): this {
    throw new TemplateRuntimeError("cannot assign to the loop object");
  }
}
