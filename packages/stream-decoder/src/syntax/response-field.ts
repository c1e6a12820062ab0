// Body syntax "response-field": the tool-call region of an HF `response_template`, compiled by
// @chatwire/tokenizer (BlockGrammar.responseField). A re-implementation, labelled as such, of
// transformers' region parsing (src/transformers/utils/chat_parsing/: content_parsers.py `_json`,
// `_xml_inline`, `_kv_lines`, `_apply_transform`; response_parser.py `_coerce`, `_schema_types`;
// read at revision 0d7e95d96b4e187c651e2b2406ed98ed40d74963):
//
//   ‹open marker› HEADER CONTENT ‹close marker›
//   HEADER    what the open pattern reads after its marker (`call:(?P<name>\w+)`), anchored
//   CONTENT   json (with the lax knobs: `<|"|>`-delimited strings, bare keys) | xml-inline | kv-lines
//   call      name and arguments picked from the captures and the parsed content by the transform;
//             arguments written as a JSON string are decoded once; with the request's tools,
//             string values are cast by the parameter's schema type as transformers does, and
//             a call naming any other tool is an error result naming it (knownTool)
//
// Streaming: a name captured by the header is reported as soon as the header is read. JSON
// content that is the arguments streams one top-level member at a time, each read as the whole
// is (./response-field-members.ts); a key written twice, whose first value has streamed, makes
// the call an error (transformers keeps its last value), streamed or not. Other regions give
// their arguments as one delta when the region closes (transformers itself parses a structured
// region only at its close). Patterns are the items of the safe subset (never regexes), so
// every step is linear in the body; the body is the decoder's bounded text.
import type { ResponseFieldBody, ResponsePatternItem, ResponseValuePath } from "@chatwire/tokenizer";
import { type ActionResult, knownTool, nestsDeeperThan } from "../action-parse.ts";
import { MAX_NESTING_DEPTH } from "../limits.ts";
import type { JsonValue } from "../python-literal.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";
import { MemberStream, streamsMembers } from "./response-field-members.ts";

const WORD = /[\p{L}\p{N}_]/u;
const isWs = (c: string): boolean => /\s/u.test(c);
/**
 * A captured word (a name, a key) is at most this long: a longer one fails the match. Bounds the
 * work of a match attempt, so finding every tag is linear (a regex engine re-scans the word from
 * each start: quadratic on a long run of word characters).
 */
const MAX_WORD = 256;
/** The name is streamed only from a header read within this many characters (else at the end). */
const MAX_HEADER = 1024;

/** A header read so far: matched (end, captures), needs more text, or cannot match. */
type Match = { readonly end: number; readonly groups: Record<string, string> } | "more" | null;

/**
 * The items matched at `at` (anchored). `final`: no more text will come. Lazy items take the
 * text up to the first occurrence of the next literal (whitespace before it trimmed when a `\s*`
 * precedes it), which is what the regex's shortest match gives when that literal starts with a
 * non-space character.
 */
export function matchItems(
  items: readonly ResponsePatternItem[],
  text: string,
  at: number,
  final: boolean,
  miss?: { lazy: boolean },
): Match {
  const groups: Record<string, string> = {};
  let i = at;
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as ResponsePatternItem;
    if ("lit" in it) {
      const have = text.slice(i, i + it.lit.length);
      if (have !== it.lit)
        return !final && it.lit.startsWith(have) && i + have.length === text.length ? "more" : null;
      i += it.lit.length;
    } else if ("ws" in it) {
      while (i < text.length && isWs(text[i] as string)) i++;
      if (i === text.length && !final) return "more";
    } else if ("word" in it) {
      const start = i;
      while (i < text.length && i - start < MAX_WORD && WORD.test(text[i] as string)) i++;
      if (i - start >= MAX_WORD) return null;
      if (i === text.length && !final) return "more";
      if (i === start) return null;
      groups[it.word] = text.slice(start, i);
    } else {
      // Lazy: up to the next literal (a `\s*` between them ends the value before the spaces).
      let j = k + 1;
      let trim = false;
      while (j < items.length && "ws" in (items[j] as ResponsePatternItem)) {
        trim = true;
        j++;
      }
      const next = items[j];
      let end = text.length;
      let stop = text.length;
      if (next !== undefined) {
        if (!("lit" in next)) return null;
        const q = text.indexOf(next.lit, i);
        if (q < 0) {
          // No later start can find it either: finding every tag stops here.
          if (miss !== undefined) miss.lazy = true;
          return final ? null : "more";
        }
        end = q;
        stop = q;
        if (trim) while (end > i && isWs(text[end - 1] as string)) end--;
      } else if (!final) return "more";
      if (it.lazy !== null) groups[it.lazy] = text.slice(i, end);
      i = stop;
      k = j - 1;
    }
  }
  return { end: i, groups };
}

/** Every non-overlapping match of `items` in `text` (Python re.finditer), first item a literal. */
function matchAll(items: readonly ResponsePatternItem[], text: string): Array<Record<string, string>> {
  const first = items[0];
  const out: Array<Record<string, string>> = [];
  if (first === undefined || !("lit" in first)) return out;
  let pos = 0;
  const miss = { lazy: false };
  for (;;) {
    const at = text.indexOf(first.lit, pos);
    if (at < 0) break;
    const m = matchItems(items, text, at, true, miss);
    if (miss.lazy) break;
    if (m !== null && m !== "more") {
      out.push(m.groups);
      pos = m.end > at ? m.end : at + 1;
    } else pos = at + 1;
  }
  return out;
}

class Fail {
  constructor(readonly why: string) {}
}
const fail = (why: string): never => {
  throw new Fail(why);
};

/** JSON.parse, refusing values nested deeper than the decoder's limit (their consumers recurse). */
function parseJson(text: string): unknown {
  if (nestsDeeperThan(text, MAX_NESTING_DEPTH)) fail("the value nests too deep");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail(`not JSON: ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`);
  }
}

const SENTINEL_OPEN = "\u0001";
const SENTINEL_CLOSE = "\u0002";

/** transformers' lax JSON: delimited strings pulled out, bare keys quoted, strings put back. */
function laxJson(text: string, f: ResponseFieldBody): string {
  const delims = f.stringDelims ?? [];
  if (delims.length === 0 && f.unquotedKeys !== true) return text;
  if (delims.length > 0 && (text.includes(SENTINEL_OPEN) || text.includes(SENTINEL_CLOSE)))
    fail("the body holds the sentinel characters \\x01/\\x02");
  const captured: string[] = [];
  let working = text;
  for (const [open, close] of delims) {
    let out = "";
    let pos = 0;
    for (;;) {
      const i = working.indexOf(open, pos);
      if (i < 0) break;
      const j = working.indexOf(close, i + open.length);
      if (j < 0) break;
      captured.push(working.slice(i + open.length, j));
      out += `${working.slice(pos, i)}${SENTINEL_OPEN}${captured.length - 1}${SENTINEL_CLOSE}`;
      pos = j + close.length;
    }
    working = out + working.slice(pos);
  }
  if (f.unquotedKeys === true) {
    // re.sub(r"(?<=[{,])(\w+):", r'"\1":'): a word right after "{" or "," and before ":".
    let out = "";
    let i = 0;
    while (i < working.length) {
      const c = working[i] as string;
      out += c;
      i++;
      if (c !== "{" && c !== ",") continue;
      let j = i;
      while (j < working.length && WORD.test(working[j] as string)) j++;
      if (j > i && working[j] === ":") {
        out += `"${working.slice(i, j)}":`;
        i = j + 1;
      }
    }
    working = out;
  }
  if (captured.length === 0) return working;
  let out = "";
  let pos = 0;
  for (;;) {
    const i = working.indexOf(SENTINEL_OPEN, pos);
    if (i < 0) break;
    const j = working.indexOf(SENTINEL_CLOSE, i);
    if (j < 0) break;
    const s = captured[Number(working.slice(i + 1, j))];
    out += working.slice(pos, i) + (s === undefined ? working.slice(i, j + 1) : JSON.stringify(s));
    pos = j + 1;
  }
  return out + working.slice(pos);
}

function value(raw: string, parser: ResponseFieldBody["valueParser"]): unknown {
  if (parser === undefined) return raw;
  if (parser === "text") return raw.trim();
  try {
    return parseJson(raw);
  } catch (e) {
    if (parser === "json-or-text" && e instanceof Fail) return raw.trim();
    throw e;
  }
}

function content(text: string, f: ResponseFieldBody): unknown {
  if (f.content === "json") {
    const working = laxJson(text, f);
    try {
      return parseJson(working);
    } catch (e) {
      if (f.allowNonJson === true && e instanceof Fail) return text.trim();
      throw e;
    }
  }
  const out: Record<string, unknown> = {};
  const merged = new Set<string>();
  const put = (k: string, v: unknown): void => {
    if (Object.hasOwn(out, k) && f.mergeDuplicates === true) {
      // merge_duplicates: a repeated key collects its values into a list.
      if (!merged.has(k)) out[k] = [out[k]];
      merged.add(k);
      (out[k] as unknown[]).push(v);
    } else out[k] = v;
  };
  if (f.content === "xml-inline") {
    for (const g of matchAll(f.tag ?? [], text)) {
      const k = g.key;
      if (k === undefined) return fail("tag_pattern matched no key");
      put(k, value(g.value ?? "", f.valueParser));
    }
    return out;
  }
  const strip = f.strip !== false;
  for (let line of text.split(f.lineSep ?? "\n")) {
    if (strip) line = line.trim();
    const sep = f.kvSep ?? ":";
    const at = line.indexOf(sep);
    if (line === "" || at < 0) continue;
    let k = line.slice(0, at);
    let v = line.slice(at + sep.length);
    if (strip) {
      k = k.trim();
      v = v.trim();
    }
    out[k] = value(v, f.valueParser);
  }
  return out;
}

function pick(p: ResponseValuePath, groups: Readonly<Record<string, string>>, parsed: unknown): unknown {
  if ("capture" in p) return groups[p.capture];
  let v = parsed;
  for (const key of p.content) {
    if (typeof v !== "object" || v === null || Array.isArray(v) || !Object.hasOwn(v, key))
      return fail(`missing key '${key}'`);
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

// ---- typing by the tool's schema (transformers' _schema_types / _coerce) ----

function schemaTypes(schema: unknown, depth = 0): string[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || depth > 8) return [];
  const s = schema as Record<string, unknown>;
  const types: string[] = [];
  if (typeof s.type === "string") types.push(s.type);
  else if (Array.isArray(s.type)) for (const t of s.type) if (typeof t === "string") types.push(t);
  // Loops, not push(...inner): the schema is the caller's, and a wide one would overflow the stack.
  if (Array.isArray(s.anyOf))
    for (const c of s.anyOf) for (const t of schemaTypes(c, depth + 1)) types.push(t);
  if (s.nullable === true && !types.includes("null")) types.push("null");
  return types;
}

const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/u;
const PY_FLOAT = /^\s*[+-]?(?:(?:\d+(?:_\d+)*)?\.?\d*(?:_\d+)*(?:[eE][+-]?\d+(?:_\d+)*)?)\s*$/u;

function coerce(raw: string, types: readonly string[]): unknown {
  for (const t of types) {
    if (t === "integer" && PY_INT.test(raw)) {
      const n = Number(raw.replaceAll("_", "").trim());
      if (Number.isSafeInteger(n)) return n;
    } else if (t === "number" && PY_FLOAT.test(raw) && /\d/u.test(raw)) {
      const n = Number(raw.replaceAll("_", "").trim());
      if (Number.isFinite(n)) return n;
    } else if (t === "boolean" && ["true", "1", "false", "0"].includes(raw.trim().toLowerCase()))
      return ["true", "1"].includes(raw.trim().toLowerCase());
    else if (t === "null" && ["null", "None"].includes(raw.trim())) return null;
    else if (t === "object" || t === "array") {
      try {
        const v = parseJson(raw);
        if (t === "array" ? Array.isArray(v) : typeof v === "object" && v !== null && !Array.isArray(v))
          return v;
      } catch {
        // not this type: the next one, else the text (transformers' ValueError)
      }
    }
  }
  return raw;
}

function properties(tools: ToolSchemas | undefined, name: string): Readonly<Record<string, unknown>> | null {
  const params = tools?.get(name);
  if (typeof params !== "object" || params === null) return null;
  const p = (params as Record<string, unknown>).properties;
  return typeof p === "object" && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : null;
}

function typed(args: Record<string, unknown>, props: Readonly<Record<string, unknown>> | null): void {
  if (props === null) return;
  for (const [k, v] of Object.entries(args)) {
    if (!Object.hasOwn(props, k)) continue;
    const types = schemaTypes(props[k]);
    if (types.length === 0) continue;
    if (typeof v === "string") args[k] = coerce(v, types);
    else if (Array.isArray(v)) args[k] = v.map((x) => (typeof x === "string" ? coerce(x, types) : x));
  }
}

export class ResponseFieldParser implements BodyParser {
  private sink: ToolCallSink | null = null;
  private tools: ToolSchemas | undefined;
  /** The body so far while the header is read (streamed name only). */
  private head = "";
  private headerRead = false;
  private named = false;
  /**
   * With a reserved string delimiter (separatorText) the body is kept here, the separators
   * spelled back in: the decoder's text holds no marker. Bounded by maxBufferedChars.
   */
  private body = "";
  private overflow = false;
  /** The arguments stream by member (streamsMembers), streamed or not: the same result either way. */
  private readonly byMember: boolean;
  /** After the header, when byMember. */
  private members: MemberStream | null = null;

  constructor(
    private readonly f: ResponseFieldBody,
    private readonly maxBufferedChars: number,
  ) {
    this.byMember = streamsMembers(f);
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void {
    this.sink = sink;
    this.tools = tools;
    this.head = "";
    this.headerRead = false;
    this.named = false;
    this.body = "";
    this.overflow = false;
    this.members = null;
  }

  /** A streamed name, members, or a body with separators: the text is read as it comes. */
  readsText(): boolean {
    return (
      this.byMember || this.f.separatorText !== undefined || (this.sink !== null && "capture" in this.f.name)
    );
  }

  feed(text: string): void {
    if (this.f.separatorText !== undefined) this.keep(text);
    if (this.headerRead) this.members?.feed(text);
    else this.readHeader(text);
  }

  private keep(text: string): void {
    if (this.overflow) return;
    if (this.body.length + text.length > this.maxBufferedChars) {
      this.overflow = true;
      this.body = "";
    } else this.body += text;
  }

  private readHeader(text: string): void {
    if (!("capture" in this.f.name) || (this.sink === null && !this.byMember)) return;
    this.head += text;
    const m = matchItems(this.f.header, this.head, 0, false);
    if (m === "more" && this.head.length <= MAX_HEADER) return;
    this.headerRead = true;
    const name = m !== null && m !== "more" ? m.groups[this.f.name.capture] : undefined;
    const head = this.head;
    this.head = "";
    if (name === undefined || m === null || m === "more") return;
    if (this.sink !== null) {
      this.sink.onToolCallName(name);
      this.named = true;
    }
    if (!this.byMember) return;
    const sink = this.sink;
    this.members = new MemberStream(
      this.f.stringDelims ?? [],
      this.memberReader(properties(this.tools, name)),
      sink === null ? null : (t) => sink.onToolCallArguments(t),
    );
    this.members.feed(head.slice(m.end));
  }

  /** `{MEMBER}` read and typed as the whole region's content is: the member's JSON, or null. */
  private memberReader(props: Readonly<Record<string, unknown>> | null): (text: string) => string | null {
    return (text) => {
      try {
        const v = content(`{${text}}`, this.f);
        if (typeof v !== "object" || v === null || Array.isArray(v) || Object.keys(v).length !== 1)
          return null;
        typed(v as Record<string, unknown>, props);
        return JSON.stringify(v).slice(1, -1);
      } catch {
        return null; // not one member the way the whole is read: the rest comes at the close
      }
    };
  }

  separator(): void {
    const t = this.f.separatorText;
    if (t === undefined) return;
    this.keep(t);
    if (this.headerRead) this.members?.feed(t);
    else this.readHeader(t);
  }

  end(decoded: string): ActionResult {
    try {
      if (this.overflow) return fail("the region exceeded maxBufferedChars");
      const raw = this.f.separatorText !== undefined ? this.body : decoded;
      const m = matchItems(this.f.header, raw, 0, true);
      if (m === null || m === "more") return fail("the region does not start as its open pattern reads");
      const parsed = content(raw.slice(m.end), this.f);
      const name = pick(this.f.name, m.groups, parsed);
      if (typeof name !== "string" || name === "") return fail("the call has no name");
      let args = pick(this.f.arguments, m.groups, parsed);
      // Arguments written as a JSON string are decoded once.
      if (typeof args === "string") args = parseJson(args);
      if (typeof args !== "object" || args === null || Array.isArray(args))
        return fail("the arguments are not an object");
      const record = args as Record<string, unknown>;
      typed(record, properties(this.tools, name));
      const json = JSON.stringify(record);
      // What streamed by member is the start of the arguments' JSON unless a key came twice.
      const sent = this.members?.sent ?? "";
      if (!json.startsWith(sent)) return fail("a key is written twice after its first value was streamed");
      if (this.sink !== null) {
        if (!this.named) this.sink.onToolCallName(name);
        if (json.length > sent.length) this.sink.onToolCallArguments(json.slice(sent.length));
      }
      return knownTool({ call: { name, arguments: record as { [key: string]: JsonValue } } }, this.tools);
    } catch (e) {
      // A Fail is the body's fault; anything else is this parser's, still a result.
      return { error: e instanceof Fail ? e.why : `internal error: ${String(e)}` };
    } finally {
      this.head = "";
      this.members = null;
      this.named = false;
      this.headerRead = false;
      this.body = "";
      this.overflow = false;
    }
  }
}

export function createResponseFieldParser(o: BodyParserOptions): BodyParser {
  if (o.responseField === undefined)
    return {
      reset() {},
      feed() {},
      separator() {},
      end: () => ({ error: "response-field: the block has no responseField" }),
    };
  return new ResponseFieldParser(o.responseField, o.maxBufferedChars);
}
