// A response_template compiled to the decoder's grammar, so it runs on the token stream:
// each region delimiter becomes a marker (the reserved ID when the vocabulary reserves the
// string, a text marker otherwise), the reasoning region a reasoning block, the tool-call region
// an action block whose body syntax reads what the open pattern captures and the region's
// content. Regions are recognized by the field's name, as transformers' serving layer reads
// them (`thinking` / `content` / `tool_calls`). A template that needs more than the decoder can
// express is refused with the reason (the template-derived format is used then).
import type {
  BlockGrammar,
  MarkerMove,
  ResponseFieldBody,
  ResponsePatternItem,
  ResponseValuePath,
} from "../../../families/grammar.ts";
import type { FormatPart } from "../part.ts";
import { readPattern, startAlternative } from "./pattern.ts";
import type { Delimiter, ResponseTemplate, ResponseTemplateField } from "./read.ts";

export interface CompileContext {
  /** The reserved ID of a string, when the vocabulary reserves it. */
  id(s: string): number | undefined;
  /** IDs that already end the output (end of turn, EOS): a content close on them adds nothing. */
  readonly ends: ReadonlySet<number>;
}

export type CompiledResponse =
  | {
      readonly part: FormatPart;
      /** The reasoning region may be open at the start of the output (`(?:^|<think>)`). */
      readonly startsInReasoning: boolean;
    }
  | { readonly error: string };

const REASONING_FIELDS = new Set(["thinking", "reasoning", "reasoning_content"]);
const THINK = "think";
/** Delimiters are short markers; a longer one is refused before the quadratic substring check. */
const MAX_LITERAL = 256;
const CALL = "tool_call";

class Refused {
  constructor(readonly reason: string) {}
}
const refuse = (reason: string): never => {
  throw new Refused(reason);
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

interface Edge {
  /** Marker strings: reserved (markers) or written as text (textMarkers). */
  readonly reserved: readonly string[];
  readonly text: readonly string[];
  /** What the open pattern reads after its marker (tool calls only). */
  readonly header: readonly ResponsePatternItem[];
  /** Fixed text after a reserved open marker (reasoning only: BlockGrammar.openText). */
  readonly openText: string;
  readonly fromStart: boolean;
}

class Builder {
  readonly markers: Record<string, MarkerMove> = {};
  readonly textMarkers: Record<string, MarkerMove> = {};
  readonly blocks: BlockGrammar[] = [];
  readonly evidence: string[] = [];
  startsInReasoning = false;

  constructor(readonly ctx: CompileContext) {}

  /** A reserved string inside `s`: the decoder would read it as a token, not as text. */
  reservedInside(s: string): string | undefined {
    if (s.length > MAX_LITERAL) refuse(`a delimiter of ${s.length} characters`);
    for (let i = 0; i < s.length; i++)
      for (let j = i + 1; j <= s.length; j++) {
        const sub = s.slice(i, j);
        if (this.ctx.id(sub) !== undefined) return sub;
      }
    return undefined;
  }

  /** The longest prefix of `s` the vocabulary reserves, or "". */
  reservedPrefix(s: string): string {
    if (s.length > MAX_LITERAL) refuse(`a delimiter of ${s.length} characters`);
    for (let j = s.length; j > 0; j--) if (this.ctx.id(s.slice(0, j)) !== undefined) return s.slice(0, j);
    return "";
  }

  /** One marker string: reserved whole, or text with no reserved string in it. */
  marker(scope: string, s: string, into: { reserved: string[]; text: string[] }): void {
    if (this.ctx.id(s) !== undefined) into.reserved.push(s);
    else {
      const inside = this.reservedInside(s);
      if (inside !== undefined)
        refuse(`${scope}: ${JSON.stringify(s)} mixes the reserved token ${inside} with text`);
      into.text.push(s);
    }
  }

  /**
   * An open delimiter: its marker, and the fixed text a reserved marker is followed by (Gemma 4's
   * `<|channel>` + `thought\n`): the block's openText, or for tool calls (`withHeader`) the start
   * of the header the body reads (`<|tool_call>` + `call:(?P<name>\w+)`).
   */
  open(scope: string, d: Delimiter, withHeader: boolean): Edge {
    const out = { reserved: [] as string[], text: [] as string[] };
    if ("eos" in d) return refuse(`${scope}: opens at the end of the stream`);
    let items: ResponsePatternItem[];
    let fromStart = false;
    if ("literals" in d) {
      const heads = d.literals.map((s) => this.split(scope, s, out));
      if (new Set(heads).size > 1) refuse(`${scope}: its open literals differ after their marker`);
      items = heads[0] === undefined || heads[0] === "" ? [] : [{ lit: heads[0] }];
    } else {
      let source = d.pattern;
      const inner = startAlternative(source);
      if (inner !== null) source = inner;
      fromStart = inner !== null;
      const read =
        readPattern(source) ??
        refuse(`${scope}: pattern ${JSON.stringify(d.pattern)} is outside the supported subset`);
      const first = read[0];
      if (first === undefined || !("lit" in first))
        return refuse(`${scope}: the pattern does not start with literal text`);
      const tail = this.split(scope, first.lit, out);
      items = [...(tail === "" ? [] : [{ lit: tail }]), ...read.slice(1)];
    }
    for (const it of items)
      if ("lit" in it && this.reservedInside(it.lit) !== undefined)
        refuse(`${scope}: the pattern has a reserved token after its marker`);
    if (withHeader) return { ...out, header: items, openText: "", fromStart };
    // Reasoning: fixed text after the marker (whitespace the text parser strips is not kept).
    while (items.length > 0 && "ws" in (items[items.length - 1] as ResponsePatternItem)) items.pop();
    const [only, ...more] = items;
    if (more.length > 0 || (only !== undefined && !("lit" in only)))
      refuse(`${scope}: the pattern reads more than its marker and fixed text`);
    const openText = only !== undefined && "lit" in only ? only.lit : "";
    if (openText !== "" && out.text.length > 0) refuse(`${scope}: fixed text after a text marker`);
    return { ...out, header: [], openText, fromStart };
  }

  /**
   * A literal's marker (added to `out`) and the text after it: a reserved prefix followed by text
   * that holds no reserved string, a whole reserved string, or text with no reserved string in it.
   */
  split(scope: string, s: string, out: { reserved: string[]; text: string[] }): string {
    const prefix = this.reservedPrefix(s);
    if (prefix === "" || prefix === s) {
      this.marker(scope, s, out);
      return "";
    }
    const tail = s.slice(prefix.length);
    const inside = this.reservedInside(tail);
    if (inside !== undefined)
      refuse(`${scope}: ${JSON.stringify(s)} mixes the reserved tokens ${prefix} and ${inside} with text`);
    out.reserved.push(prefix);
    return tail;
  }

  close(scope: string, d: Delimiter): { reserved: string[]; text: string[] } {
    const out = { reserved: [] as string[], text: [] as string[] };
    if ("eos" in d) return out;
    if ("literals" in d) {
      for (const s of d.literals) this.marker(scope, s, out);
      return out;
    }
    const items =
      readPattern(d.pattern) ??
      refuse(`${scope}: pattern ${JSON.stringify(d.pattern)} is outside the supported subset`);
    const lits = items.filter((it): it is { lit: string } => "lit" in it);
    if (lits.length !== 1 || items.some((it) => !("lit" in it) && !("ws" in it)))
      refuse(`${scope}: close pattern ${JSON.stringify(d.pattern)} is not one literal`);
    this.marker(scope, (lits[0] as { lit: string }).lit, out);
    return out;
  }

  add(edge: { reserved: readonly string[]; text: readonly string[] }, move: MarkerMove): void {
    for (const s of edge.reserved) this.markers[s] = move;
    for (const s of edge.text) this.textMarkers[s] = move;
  }

  content(f: ResponseTemplateField): void {
    if (f.open !== null) refuse(`field '${f.name}': content between its own markers is not supported`);
    if (f.content !== "text") refuse(`field '${f.name}': content parsed as ${f.content}`);
    if (f.close === null || "eos" in f.close) return;
    if ("pattern" in f.close) {
      this.evidence.push(`field '${f.name}': close pattern left to the end of turn and EOS`);
      return;
    }
    for (const s of f.close.literals) {
      const id = this.ctx.id(s);
      if (id === undefined)
        this.evidence.push(`field '${f.name}': ${JSON.stringify(s)} is not reserved: not a stop`);
      else if (!this.ctx.ends.has(id)) {
        this.markers[s] = { move: "message-end" };
        this.evidence.push(`field '${f.name}' ends at ${s}`);
      }
    }
  }

  reasoning(f: ResponseTemplateField): void {
    if (this.blocks.some((x) => x.name === THINK)) refuse(`field '${f.name}': a second reasoning field`);
    if (f.content !== "text") refuse(`field '${f.name}': reasoning parsed as ${f.content}`);
    if (f.open === null || f.close === null) refuse(`field '${f.name}': reasoning needs an open and a close`);
    const open = this.open(`field '${f.name}'`, f.open as Delimiter, false);
    const close = this.close(`field '${f.name}'`, f.close as Delimiter);
    this.add(open, { move: "block-open", block: THINK });
    this.add(close, { move: "block-close", block: THINK });
    this.blocks.push({
      name: THINK,
      emits: "reasoning",
      ...(open.openText !== "" ? { openText: open.openText } : {}),
    });
    this.startsInReasoning = open.fromStart;
    this.evidence.push(
      `field '${f.name}': reasoning between ${[...open.reserved, ...open.text].join(" | ")}${open.openText !== "" ? ` + ${JSON.stringify(open.openText)}` : ""} and ${[...close.reserved, ...close.text].join(" | ")}${open.fromStart ? " (or from the start)" : ""}`,
    );
  }

  calls(f: ResponseTemplateField): void {
    const scope = `field '${f.name}'`;
    if (f.open === null || f.close === null) refuse(`${scope}: tool calls need an open and a close`);
    const open = this.open(scope, f.open as Delimiter, true);
    const close = this.close(scope, f.close as Delimiter);
    if (f.transformEach) refuse(`${scope}: several calls in one region (transform_each)`);
    const captures = new Set<string>();
    for (const it of open.header) {
      if ("word" in it) captures.add(it.word);
      if ("lazy" in it) refuse(`${scope}: the open pattern skips text (.*?)`);
    }
    const [name, args] = callPaths(scope, f.transform, captures);
    let body = bodyOf(scope, f, open.header, name, args);
    // A reserved string delimiter reaches the body as a separator marker, read back as its text.
    const reservedDelims = new Set(
      (body.field?.stringDelims ?? []).flat().filter((d) => this.ctx.id(d) !== undefined),
    );
    if (reservedDelims.size > 1) refuse(`${scope}: more than one reserved string delimiter`);
    for (const d of reservedDelims) {
      this.markers[d] = { move: "separator", block: CALL };
      if (body.field !== undefined) body = { ...body, field: { ...body.field, separatorText: d } };
    }
    this.add(open, { move: "block-open", block: CALL });
    this.add(close, { move: "block-close", block: CALL });
    this.blocks.push({
      name: CALL,
      emits: "action",
      body: body.syntax,
      ...(body.field !== undefined ? { responseField: body.field } : {}),
    });
    this.evidence.push(
      `${scope}: calls between ${[...open.reserved, ...open.text].join(" | ")} and ${[...close.reserved, ...close.text].join(" | ")}, body ${body.syntax} (${f.content})`,
    );
  }
}

/** A transform placeholder as a path: `{content}` / `{content.a.b}` / `{name}` (a capture). */
function path(scope: string, v: unknown, captures: ReadonlySet<string>): ResponseValuePath {
  const m = typeof v === "string" ? /^\{([\w.]+)\}$/u.exec(v) : null;
  if (m === null) return refuse(`${scope}: the transform's ${JSON.stringify(v)} is not a placeholder`);
  const [head, ...tail] = (m[1] as string).split(".");
  if (head === "content") return { content: tail };
  if (head !== undefined && captures.has(head) && tail.length === 0) return { capture: head };
  return refuse(`${scope}: the transform reads ${JSON.stringify(v)}, which the region does not capture`);
}

/** The name and arguments of `{"type": "function", "function": ...}`. */
function callPaths(
  scope: string,
  transform: unknown,
  captures: ReadonlySet<string>,
): [ResponseValuePath, ResponseValuePath] {
  if (!isRecord(transform) || transform.type !== "function" || Object.keys(transform).length !== 2)
    return refuse(`${scope}: the transform is not {"type": "function", "function": ...}`);
  const fn = transform.function;
  if (fn === "{content}") return [{ content: ["name"] }, { content: ["arguments"] }];
  if (!isRecord(fn) || Object.keys(fn).length !== 2 || !("name" in fn) || !("arguments" in fn))
    return refuse(`${scope}: the transform's function is not {name, arguments}`);
  return [path(scope, fn.name, captures), path(scope, fn.arguments, captures)];
}

/** content_args.value_parser: {"name": "text" | "json", "args": {...}}. */
function valueParserOf(scope: string, vp: unknown): { valueParser?: "text" | "json" | "json-or-text" } {
  if (vp === undefined) return {};
  if (isRecord(vp) && (vp.args === undefined || isRecord(vp.args))) {
    const args = (vp.args ?? {}) as Record<string, unknown>;
    if (vp.name === "text" && args.strip !== false) return { valueParser: "text" };
    if (vp.name === "json" && Object.keys(args).every((k) => k === "allow_non_json"))
      return { valueParser: args.allow_non_json === true ? "json-or-text" : "json" };
  }
  return refuse(`${scope}: value_parser ${JSON.stringify(vp)}`);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The body syntax of a tool-call region: "json-call" (the registry's streaming JSON reader) when
 * the region is exactly `{"name", "arguments"}` JSON, else "response-field", which runs the
 * region's own content parser and transform (an XML body too: the template's value_parser types
 * its values, not xml-call's rules).
 */
function bodyOf(
  scope: string,
  f: ResponseTemplateField,
  header: readonly ResponsePatternItem[],
  name: ResponseValuePath,
  args: ResponseValuePath,
): { syntax: "json-call" | "response-field"; field?: ResponseFieldBody } {
  const a = f.contentArgs;
  const flag = (k: string): boolean => a[k] === true;
  if (
    f.content === "json" &&
    header.length === 0 &&
    same(name, { content: ["name"] }) &&
    same(args, { content: ["arguments"] }) &&
    Object.keys(a).length === 0
  )
    return { syntax: "json-call" };
  const base = { header, name, arguments: args };
  if (f.content === "json") {
    const delims = a.string_delims ?? [];
    if (
      !Array.isArray(delims) ||
      !delims.every(
        (d) => Array.isArray(d) && d.length === 2 && d.every((s) => typeof s === "string" && s !== ""),
      )
    )
      return refuse(`${scope}: string_delims must be [open, close] pairs`);
    return {
      syntax: "response-field",
      field: {
        ...base,
        content: "json",
        unquotedKeys: flag("unquoted_keys"),
        stringDelims: delims as Array<[string, string]>,
        allowNonJson: flag("allow_non_json"),
      },
    };
  }
  if (f.content === "xml-inline") {
    const tag =
      typeof a.tag_pattern === "string"
        ? readPattern(a.tag_pattern)
        : refuse(`${scope}: xml-inline needs a tag_pattern`);
    if (tag === null) return refuse(`${scope}: tag_pattern is outside the supported subset`);
    const captured = tag.flatMap((it) =>
      "word" in it ? [it.word] : "lazy" in it && it.lazy !== null ? [it.lazy] : [],
    );
    if (!captured.includes("key")) return refuse(`${scope}: tag_pattern captures no key`);
    const first = tag[0];
    if (first === undefined || !("lit" in first))
      return refuse(`${scope}: tag_pattern does not start with literal text`);
    const xml = {
      ...base,
      content: "xml-inline" as const,
      tag,
      ...valueParserOf(scope, a.value_parser),
      mergeDuplicates: flag("merge_duplicates"),
    };
    return { syntax: "response-field", field: xml };
  }
  if (f.content === "kv-lines") {
    const str = (k: string, d: string): string => {
      const v = a[k] ?? d;
      return typeof v === "string" && v !== "" ? v : refuse(`${scope}: ${k} must be a non-empty string`);
    };
    return {
      syntax: "response-field",
      field: {
        ...base,
        content: "kv-lines",
        lineSep: str("line_sep", "\n"),
        kvSep: str("kv_sep", ":"),
        strip: a.strip !== false,
        ...valueParserOf(scope, a.value_parser),
      },
    };
  }
  return refuse(`${scope}: calls parsed as ${f.content}`);
}

/** Compiles a read response_template against a vocabulary; never throws. */
export function compileResponseTemplate(t: ResponseTemplate, ctx: CompileContext): CompiledResponse {
  const b = new Builder(ctx);
  try {
    for (const f of t.fields) {
      if (f.name === "content") b.content(f);
      else if (REASONING_FIELDS.has(f.name)) b.reasoning(f);
      else if (f.name === "tool_calls") b.calls(f);
      else refuse(`field '${f.name}' is none of content, thinking, tool_calls`);
    }
  } catch (e) {
    if (e instanceof Refused) return { error: e.reason };
    // Not a refusal but a fault of this compiler: still a reason, never an exception.
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (t.startAnchor !== null)
    b.evidence.push(
      "start_anchor: decoding starts after the generation prompt (the prompt decides the start state)",
    );
  const think = b.blocks.some((x) => x.name === THINK);
  const kinds = b.blocks.map((x) => (x.name === THINK ? "reasoning" : `calls ${x.body ?? ""}`));
  return {
    part: {
      name: `response_template (${kinds.join(", ") || "text"})`,
      markers: b.markers,
      ...(Object.keys(b.textMarkers).length > 0 ? { textMarkers: b.textMarkers } : {}),
      blocks: b.blocks,
      ...(think ? { startBlock: THINK } : {}),
      evidence: b.evidence,
    },
    startsInReasoning: b.startsInReasoning,
  };
}
