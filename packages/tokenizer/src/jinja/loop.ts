// jinja2's `loop` object of a for loop: index, index0, revindex, revindex0, first, last, length,
// depth, depth0, previtem, nextitem, cycle(...). The attributes are computed from the current
// index `i` when read, so an iteration writes one integer instead of twelve map entries; the
// object is no Map (a Map subclass allocated a hash table per loop) and `cycle` is made on
// first read (most loops never call it).
import { type AttrMap, Callable, PyUndefined, TemplateRuntimeError, type Value } from "./values.ts";

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

/** A read-only view of the loop's attributes at index `i`. */
export class LoopAttrs implements AttrMap {
  i = 0;
  private cycle: Callable | undefined;

  constructor(private readonly items: readonly Value[]) {}

  get(name: string): Value | undefined {
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
        this.cycle ??= new Callable("cycle", ({ args }) => {
          if (args.length === 0) throw new TemplateRuntimeError("no items for cycling given");
          return args[this.i % args.length] as Value;
        });
        return this.cycle;
      default:
        return undefined;
    }
  }

  has(name: string): boolean {
    return (NAMES as readonly string[]).includes(name);
  }

  set(): never {
    throw new TemplateRuntimeError("cannot assign to the loop object");
  }

  *[Symbol.iterator](): IterableIterator<[string, Value]> {
    for (const n of NAMES) yield [n, this.get(n) as Value];
  }
}
