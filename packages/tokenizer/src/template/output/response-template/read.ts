// `response_template` of a tokenizer_config.json: HF transformers' declarative description of a
// model's output (transformers src/transformers/utils/chat_parsing/response_templates.py,
// load_response_template, read at revision 0d7e95d96b4e187c651e2b2406ed98ed40d74963), checked
// the way transformers checks it. Reading never throws: a malformed template is a reason, and the
// tokenizer loads without it (the template-derived format is used; the reason is evidence).
//
//   {"version": 1, "defaults": {...}, "start_anchor": "..." | [...], "start_anchor_pattern": "re",
//    "fields": {NAME: {"open" | "open_pattern", "close" | "close_pattern", "content",
//                      "content_args", "repeats", "optional", "transform", "transform_each", "join"}}}

/** A region delimiter: literal strings (any of them), a Python regex, or the end of the stream. */
export type Delimiter =
  | { readonly literals: readonly string[] }
  | { readonly pattern: string }
  | { readonly eos: true };

export const CONTENT_KINDS = ["text", "int", "float", "bool", "json", "xml-inline", "kv-lines"] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export interface ResponseTemplateField {
  readonly name: string;
  /** null: the implicit field (text outside every other region). */
  readonly open: Delimiter | null;
  readonly close: Delimiter | null;
  readonly content: ContentKind;
  readonly contentArgs: Readonly<Record<string, unknown>>;
  readonly repeats: boolean;
  readonly optional: boolean;
  readonly transform: unknown;
  readonly transformEach: boolean;
  readonly join: string | undefined;
}

export interface ResponseTemplate {
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly fields: readonly ResponseTemplateField[];
  readonly startAnchor: Delimiter | null;
  /** The JSON as written, for `--explain`. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export type ResponseTemplateRead = { readonly template: ResponseTemplate } | { readonly error: string };

const TOP_KEYS = new Set(["version", "defaults", "fields", "start_anchor", "start_anchor_pattern"]);
const FIELD_KEYS = new Set([
  "open",
  "open_pattern",
  "close",
  "close_pattern",
  "content",
  "content_args",
  "repeats",
  "optional",
  "transform",
  "transform_each",
  "join",
]);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

class Refused {
  constructor(readonly reason: string) {}
}

const refuse = (reason: string): never => {
  throw new Refused(reason);
};

function delimiter(scope: string, o: Record<string, unknown>, lit: string, pat: string): Delimiter | null {
  if (lit in o && pat in o) refuse(`${scope}: cannot specify both '${lit}' and '${pat}'`);
  if (lit in o) {
    const v = o[lit];
    const list =
      typeof v === "string"
        ? [v]
        : Array.isArray(v)
          ? v
          : refuse(`${scope}: '${lit}' must be a string or a list of strings`);
    if (list.length === 0) refuse(`${scope}: '${lit}' list must contain at least one literal`);
    const literals: string[] = [];
    for (const s of list) {
      if (typeof s !== "string") return refuse(`${scope}: '${lit}' list must contain only strings`);
      if (s === "") refuse(`${scope}: '${lit}' literals cannot be empty strings`);
      if (!literals.includes(s)) literals.push(s);
    }
    // "eos" is transformers' magic literal for the end of the stream, only valid alone.
    if (literals.includes("eos")) {
      if (literals.length > 1) refuse(`${scope}: the 'eos' literal cannot be combined with other literals`);
      return { eos: true };
    }
    return { literals };
  }
  if (pat in o) {
    const v = o[pat];
    if (typeof v !== "string") return refuse(`${scope}: '${pat}' must be a string`);
    return { pattern: v };
  }
  return null;
}

/** `{name}` / `{a.b}` placeholders must fill a whole string (transformers' validate_transform_strings). */
function checkTransform(scope: string, t: unknown, depth: number): void {
  if (depth > 32) refuse(`${scope}: transform nests too deep`);
  if (Array.isArray(t)) for (const v of t) checkTransform(scope, v, depth + 1);
  else if (isRecord(t)) for (const v of Object.values(t)) checkTransform(scope, v, depth + 1);
  else if (typeof t === "string" && /\{[\w.]+\}/u.test(t) && !/^\{[\w.]+\}$/u.test(t))
    refuse(`${scope}: transform string ${JSON.stringify(t)} mixes a {placeholder} with literal text`);
}

function field(name: string, v: unknown): ResponseTemplateField {
  const scope = `field '${name}'`;
  if (!isRecord(v)) return refuse(`${scope} must be an object`);
  const unknown = Object.keys(v).filter((k) => !FIELD_KEYS.has(k));
  if (unknown.length > 0) refuse(`${scope}: unknown keys ${unknown.sort().join(", ")}`);
  const content = v.content ?? "text";
  if (typeof content !== "string" || !(CONTENT_KINDS as readonly string[]).includes(content))
    refuse(`${scope}: unknown content parser ${JSON.stringify(content)}`);
  const contentArgs = v.content_args ?? {};
  if (!isRecord(contentArgs)) refuse(`${scope}: content_args must be an object`);
  const bool = (key: string, dflt: boolean): boolean => {
    const b = v[key] ?? dflt;
    return typeof b === "boolean" ? b : refuse(`${scope}: ${key} must be a bool`);
  };
  const transformEach = bool("transform_each", false);
  if (transformEach && v.transform === undefined)
    refuse(`${scope}: transform_each is set but no transform was provided`);
  if (v.transform !== undefined) checkTransform(scope, v.transform, 0);
  const join = v.join;
  if (join !== undefined && typeof join !== "string") refuse(`${scope}: join must be a string`);
  return {
    name,
    open: delimiter(scope, v, "open", "open_pattern"),
    close: delimiter(scope, v, "close", "close_pattern"),
    content: content as ContentKind,
    contentArgs: contentArgs as Record<string, unknown>,
    repeats: bool("repeats", false),
    optional: bool("optional", true),
    transform: v.transform,
    transformEach,
    join: typeof join === "string" ? join : undefined,
  };
}

/** Reads a `response_template` value (any JSON); never throws. */
export function readResponseTemplate(value: unknown): ResponseTemplateRead {
  try {
    if (!isRecord(value)) return refuse("response_template must be an object");
    const unknown = Object.keys(value).filter((k) => !TOP_KEYS.has(k));
    if (unknown.length > 0) refuse(`unknown keys in response_template: ${unknown.sort().join(", ")}`);
    if ((value.version ?? 1) !== 1)
      refuse(`unsupported response_template version ${JSON.stringify(value.version)}`);
    const defaults = value.defaults ?? {};
    if (!isRecord(defaults)) refuse("response_template.defaults must be an object");
    const raw = value.fields;
    if (!isRecord(raw) || Object.keys(raw).length === 0)
      refuse("response_template.fields must be a non-empty object");
    const fields = Object.entries(raw as Record<string, unknown>).map(([n, f]) => field(n, f));
    const implicit = fields.filter((f) => f.open === null);
    if (implicit.length > 1)
      refuse(
        `at most one field may omit 'open'/'open_pattern'; found ${implicit.map((f) => f.name).join(", ")}`,
      );
    return {
      template: {
        defaults: defaults as Record<string, unknown>,
        fields,
        startAnchor: delimiter("response_template", value, "start_anchor", "start_anchor_pattern"),
        raw: value,
      },
    };
  } catch (e) {
    if (e instanceof Refused) return { error: e.reason };
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}
