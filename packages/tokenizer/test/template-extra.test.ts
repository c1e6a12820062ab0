// The templates-extra differential suite: real chat templates beyond ../shared/templates
// (test-vectors/templates-extra/manifest.json + SOURCES.md: openvino.genai's tokenizer configs,
// google/minja's first template set, huggingface.js's e2e templates), each with its config's
// special tokens, over test-vectors/templates-extra/requests.json and requests-random.json (seeded). The goldens
// (test-vectors/golden/templates-extra.json) are Python jinja2 renderings in transformers'
// environment (test-vectors/gen/templates_extra.py); nothing comes from us. Per template and request:
// - the reference rendered: our text has the same sha256 (and length);
// - the reference raised raise_exception(msg): we throw TokenizerError "template-exception" carrying msg;
// - the reference failed otherwise (UndefinedError, TypeError): we throw "template-error";
// - never anything but a TokenizerError (no crash).
// Provenance, on every rendering: each caller string of >= 4 characters that the template source
// does not contain is caller-origin (its whitespace aside) wherever it appears in the output, and
// every caller-origin run is made of pieces of caller strings (or of their JSON-escaped, HTML-escaped,
// upper / lower / capitalized forms).
// The template files are not committed: they are read from ../shared/templates-extra
// (CHATWIRE_TEMPLATES_EXTRA; provenance in test-vectors/SOURCES.md).
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import {
  type ChatRequest,
  compileTemplate,
  concat,
  Origins,
  PStr,
  renderChatTemplate,
  TEMPLATE,
  TokenizerError,
  type Value,
} from "../src/index.ts";
import { requestShape } from "../src/template/request-shape.ts";
import { repoRoot } from "./template-support.ts";

interface Entry {
  readonly id: string;
  readonly file: string;
  readonly sha256: string;
  readonly special: Record<string, string>;
}
type Golden = { readonly sha256: string; readonly chars: number } | { readonly error: string };

/** Templates whose features we refuse with a typed error (where jinja2 renders): id -> why. */
const REFUSED: Readonly<Record<string, string>> = {};

const NOW = new Date(2024, 6, 26, 10);
const vectors = join(repoRoot, "test-vectors");
const manifest = JSON.parse(readFileSync(join(vectors, "templates-extra/manifest.json"), "utf8")) as {
  templates: Entry[];
};
const requests = ["requests.json", "requests-random.json"].flatMap(
  (f) =>
    (
      JSON.parse(readFileSync(join(vectors, "templates-extra", f), "utf8")) as {
        requests: { name: string; request: ChatRequest }[];
      }
    ).requests,
);
const goldens = (
  JSON.parse(readFileSync(join(vectors, "golden/templates-extra.json"), "utf8")) as {
    goldens: Record<string, Record<string, Golden>>;
  }
).goldens;

// Read in place like the other ../shared fixtures (test-vectors/SOURCES.md); when none is there,
// fixtures-notice.ts prints the one skip line (a failure under CI).
const extraDir = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES_EXTRA || "../shared/templates-extra");
const dir = manifest.templates.some((t) => existsSync(join(extraDir, t.file))) ? extraDir : undefined;
const sha = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

/** Every caller string of a request (content parts one by one: the server layer's "\n" joining
 * them is template text, template/chat.ts). JSON-string arguments are left out when the template
 * is given them parsed (`parsedArgs`): it re-serializes them, punctuation as its own text. */
function callerStrings(v: unknown, out: string[] = [], parsedArgs = false): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) callerStrings(x, out, parsedArgs);
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      if (k === "content" && Array.isArray(x))
        for (const p of x) out.push(String((p as { text?: unknown }).text ?? ""));
      else if (!(parsedArgs && k === "arguments" && typeof x === "string")) callerStrings(x, out, parsedArgs);
    }
  return out;
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
const title = (s: string): string => s.replace(/[A-Za-z]+/g, capitalize);

/** markupsafe's escape (a template's `|safe + x`, `|e`). */
const htmlEscape = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" })[c] ?? c,
  );

/** The inside of json.dumps(s, ensure_ascii=True). */
const asciiJson = (s: string): string =>
  JSON.stringify(s)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * True when `run` is a concatenation of pieces of `forms` (adjacent runs of one origin merge, so a
 * field printed twice in a row is one run), taken greedily longest-first.
 */
function coveredBy(run: string, forms: readonly string[]): boolean {
  if (forms.some((f) => f.includes(run))) return true;
  let at = 0;
  while (at < run.length) {
    let best = 0;
    for (const f of forms) {
      let n = Math.min(f.length, run.length - at);
      while (n > best && !f.includes(run.slice(at, at + n))) n--;
      best = Math.max(best, n);
    }
    if (best === 0) return false;
    at += best;
  }
  return true;
}

/** A caller field's string, from the raw request by the origin's (message, path). */
function fieldString(request: ChatRequest, message: number | null, field: string): string | undefined {
  const isKey = field.endsWith(" (key)");
  const path = isKey ? field.slice(0, -" (key)".length) : field;
  const segs = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
  if (isKey) return String(segs[segs.length - 1]);
  const req = request as unknown as Record<string, unknown>;
  let cur: unknown = message === null ? req : (req.messages as unknown[])[message];
  for (const seg of segs) {
    // JSON-string arguments given parsed to a template that reads a mapping (template/chat.ts).
    if (typeof cur === "string") {
      try {
        cur = JSON.parse(cur) as unknown;
      } catch {
        return undefined;
      }
    }
    if (cur === null || typeof cur !== "object") return undefined;
    const o = cur as Record<string | number, unknown>;
    cur = seg === "reasoning_content" && !("reasoning_content" in o) ? o.reasoning : o[seg];
  }
  return typeof cur === "string" ? cur : undefined;
}

/** The forms a template may print a caller string in, provenance kept. */
function formsOf(s: string, field: string): string[] {
  return [
    s,
    s.toLowerCase(),
    s.toUpperCase(),
    capitalize(s),
    title(s),
    JSON.stringify(s).slice(1, -1),
    asciiJson(s),
    htmlEscape(s),
    // the server layer's developer -> system
    ...(field === "role" && s === "developer" ? ["system", "System", "SYSTEM"] : []),
  ];
}

/** Provenance problems of one rendering (empty when sane). */
function provenanceProblems(
  out: PStr,
  origins: Origins,
  request: ChatRequest,
  source: string,
  specials: readonly string[] = [],
  needles: readonly string[] = [],
  parsedArgs = false,
): string[] {
  const problems: string[] = [];
  const caller = new Uint8Array(out.length);
  let at = 0;
  out.forEachRun((text, origin) => {
    if (origin !== TEMPLATE) {
      caller.fill(1, at, at + text.length);
      const { message, field } = origins.get(origin);
      const s = fieldString(request, message, field);
      if (s === undefined) problems.push(`caller run ${JSON.stringify(text)}: no caller field ${field}`);
      else if (!coveredBy(text, formsOf(s, field)))
        problems.push(`caller run ${JSON.stringify(text)} is not text of its field ${field}`);
    }
    at += text.length;
  });
  const { messages, tools } = request as unknown as Record<string, unknown>;
  const text = out.text;
  for (const s of new Set(callerStrings({ messages, tools }, [], parsedArgs))) {
    if (s.length < 4 || source.includes(s) || specials.some((t) => t.includes(s))) continue;
    for (let i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + 1))
      for (let k = 0; k < s.length; ) {
        if (caller[i + k] === 1) {
          k++;
          continue;
        }
        let e = k;
        while (e < s.length && caller[i + e] === 0) e++;
        // A template-made piece inside a caller string's text is legitimate only when it is
        // whitespace (`.replace('\n', '\n')`, falcon, swaps the caller's newlines for the
        // template's own) or what an audited structure read split on (`content.split('</think>')`
        // re-emitted as the template's own `</think>`: a structure-from-caller-text entry).
        const piece = s.slice(k, e).trim();
        if (piece !== "" && !needles.includes(piece)) {
          problems.push(`caller text ${JSON.stringify(s)} at ${i} has template origin at +${k}`);
          break;
        }
        k = e;
      }
  }
  return problems;
}

function firstDifference(id: string, name: string, ours: string): string {
  const p = join(vectors, "templates-extra/local/goldens", `${id}.ref.txt`);
  if (!existsSync(p)) return "";
  const ref = (JSON.parse(readFileSync(p, "utf8")) as Record<string, { text?: string }>)[name]?.text ?? "";
  let i = 0;
  while (i < ref.length && ref[i] === ours[i]) i++;
  return `at ${i}: jinja2 ${JSON.stringify(ref.slice(Math.max(0, i - 40), i + 60))} ours ${JSON.stringify(ours.slice(Math.max(0, i - 40), i + 60))}`;
}

type Outcome = { text: string; out: PStr; origins: Origins; needles: string[] } | { error: TokenizerError };

/** The compiled program, or the typed error compiling it gave. */
type Compiled = ReturnType<typeof compileTemplate> | TokenizerError;

function compile(source: string): Compiled {
  try {
    return compileTemplate(source);
  } catch (e) {
    if (TokenizerError.isInstance(e)) return e;
    throw e;
  }
}

function render(program: Compiled, special: ReadonlyMap<string, Value>, request: ChatRequest): Outcome {
  if (program instanceof TokenizerError) return { error: program };
  try {
    const r = renderChatTemplate(program, request, special, { now: () => NOW });
    return {
      text: r.output.text,
      out: r.output,
      origins: r.origins,
      needles: r.structure.map((a) => a.needle),
    };
  } catch (e) {
    if (TokenizerError.isInstance(e)) return { error: e };
    throw e;
  }
}

/** Why `got` does not match the golden `want` (undefined when it does). */
function mismatch(id: string, name: string, want: Golden, got: Outcome): string | undefined {
  if ("error" in got) {
    const e = got.error;
    if (!("error" in want)) return `we threw ${e.type}: ${e.message}; jinja2 rendered`;
    if (want.error.startsWith("TemplateError: ")) {
      const msg = want.error.slice("TemplateError: ".length);
      if (e.type !== "template-exception") return `we threw ${e.type} (${e.message}); jinja2 raised ${msg}`;
      if (e.fields.templateMessage !== msg) return `message ${String(e.fields.templateMessage)} != ${msg}`;
      return undefined;
    }
    if (want.error.startsWith("ValueError: continue_final_message"))
      return e.type === "invalid-conversation" ? undefined : `we threw ${e.type}; jinja2: ${want.error}`;
    return e.type === "template-error"
      ? undefined
      : `we threw ${e.type} (${e.message}); jinja2: ${want.error}`;
  }
  if ("error" in want) return `we rendered; jinja2: ${want.error}`;
  if (sha(got.text) !== want.sha256) return `text differs ${firstDifference(id, name, got.text)}`;
  return undefined;
}

/** renders: equal text; audited: of those, renders with a structure-from-caller-text entry. */
const totals = { templates: 0, renders: 0, audited: 0, errors: 0, refused: 0 };

describe.skipIf(dir === undefined)("templates-extra: real templates vs Python jinja2", () => {
  for (const t of manifest.templates) {
    const path = join(dir ?? "", t.file);
    test.skipIf(!existsSync(path))(t.id, () => {
      const raw = readFileSync(path);
      expect(sha(raw)).toBe(t.sha256);
      const source = raw.toString("utf8");
      const special = new Map<string, Value>(Object.entries(t.special).map(([k, v]) => [k, PStr.of(v)]));
      const golden = goldens[t.id] as Record<string, Golden>;
      const program = compile(source);
      const problems: string[] = [];
      let refusedHere = 0;
      for (const { name, request } of requests) {
        const want = golden[name] as Golden;
        const got = render(program, special, request);
        const why = mismatch(t.id, name, want, got);
        if (why !== undefined) {
          if (REFUSED[t.id] !== undefined && "error" in got && got.error.type === "template-error")
            refusedHere++;
          else problems.push(`${name}: ${why}`);
          continue;
        }
        if ("out" in got) {
          totals.renders++;
          if (got.needles.length > 0) totals.audited++;
          for (const p of provenanceProblems(
            got.out,
            got.origins,
            request,
            source,
            Object.values(t.special),
            got.needles,
            !(program instanceof TokenizerError) && requestShape(program).argumentsMapping,
          ))
            problems.push(`${name}: ${p}`);
        } else totals.errors++;
      }
      totals.templates++;
      if (refusedHere > 0) totals.refused++;
      // A refusal listed above must still happen (else the entry is stale).
      if (REFUSED[t.id] !== undefined) expect(refusedHere).toBeGreaterThan(0);
      if (problems.length > 0 && process.env.TPL_EXTRA_DUMP !== undefined)
        appendFileSync(process.env.TPL_EXTRA_DUMP, `${JSON.stringify({ id: t.id, problems })}\n`);
      expect(problems).toEqual([]);
    });
  }
  test("totals", () => {
    console.log(`templates-extra totals: ${JSON.stringify(totals)}`);
  });
});

describe("templates-extra: the provenance check itself", () => {
  const request = { messages: [{ role: "user", content: "<|im_end|>hello" }] } as ChatRequest;
  const origins = new Origins();
  const content = origins.add(0, "content");
  test("caller text of template origin is reported", () => {
    const out = concat([PStr.of("x"), PStr.of("<|im_end|>hello")]);
    expect(provenanceProblems(out, origins, request, "")).toHaveLength(1);
    const ok = concat([PStr.of("x"), PStr.of("<|im_end|>hello", content), PStr.of("hello", content)]);
    expect(provenanceProblems(ok, origins, request, "")).toEqual([]);
  });
  test("a caller run that is no text of its field is reported", () => {
    expect(provenanceProblems(PStr.of("<|im_start|>", content), origins, request, "")).toHaveLength(1);
  });
});
