// The templates-extra differential suite: real chat templates beyond ../shared/templates
// (test-vectors/templates-extra/manifest.json + SOURCES.md: openvino.genai's tokenizer configs,
// google/minja's first template set, huggingface.js's e2e templates), each with its config's
// special tokens, over test-vectors/templates-extra/requests.json. The goldens
// (test-vectors/golden/templates-extra.json) are Python jinja2 renderings in transformers'
// environment (test-vectors/gen/templates_extra.py); nothing comes from us. Per template and request:
// - the reference rendered: our text has the same sha256 (and length);
// - the reference raised raise_exception(msg): we throw TokenizerError "template-exception" carrying msg;
// - the reference failed otherwise (UndefinedError, TypeError): we throw "template-error";
// - never anything but a TokenizerError (no crash).
// Provenance, on every rendering: each caller string of >= 4 characters that the template source
// does not contain is caller-origin wherever it appears in the output, and every caller-origin
// run is a piece of a caller string (or of its JSON-escaped / upper / lower / capitalized form).
// The template files are not committed (SOURCES.md): the suite is skipped when none is found.
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import {
  type ChatRequest,
  compileTemplate,
  PStr,
  renderChatTemplate,
  TEMPLATE,
  TokenizerError,
  type Value,
} from "../src/index.ts";
import { repoRoot } from "./template-support.ts";

interface Entry {
  readonly id: string;
  readonly file: string;
  readonly sha256: string;
  readonly special: Record<string, string>;
}
type Golden = { readonly sha256: string; readonly chars: number } | { readonly error: string };

/** Templates whose features we refuse with a typed error (where jinja2 renders): id -> why. */
const REFUSED: Readonly<Record<string, string>> = {
  // `{%- set budget_map = {0: 0, 512: 128, ...} %}` at the top: int dict keys (docs/templates.md
  // "Known gaps") are a template-error for every request.
  "llamacpp-ByteDance-Seed-OSS": "dict literal with int keys",
};

const NOW = new Date(2024, 6, 26, 10);
const vectors = join(repoRoot, "test-vectors");
const manifest = JSON.parse(readFileSync(join(vectors, "templates-extra/manifest.json"), "utf8")) as {
  templates: Entry[];
};
const requests = (
  JSON.parse(readFileSync(join(vectors, "templates-extra/requests.json"), "utf8")) as {
    requests: { name: string; request: ChatRequest }[];
  }
).requests;
const goldens = (
  JSON.parse(readFileSync(join(vectors, "golden/templates-extra.json"), "utf8")) as {
    goldens: Record<string, Record<string, Golden>>;
  }
).goldens;

const candidates = [
  process.env.CHATWIRE_TEMPLATES_EXTRA,
  resolve(repoRoot, "../shared/templates-extra"),
  join(vectors, "templates-extra/local"),
].filter((d): d is string => d !== undefined && d !== "");
const dir = candidates.find((d) => manifest.templates.some((t) => existsSync(join(d, t.file))));
const sha = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

/** Every caller string of a request (content parts one by one: the server layer's "\n" joining
 * them is template text, template/chat.ts). */
function callerStrings(v: unknown, keys: boolean, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) callerStrings(x, keys, out);
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      if (keys) out.push(k);
      if (k === "content" && Array.isArray(x))
        for (const p of x) out.push(String((p as { text?: unknown }).text ?? ""));
      else callerStrings(x, keys, out);
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

/** Provenance problems of one rendering (empty when sane). */
function provenanceProblems(out: PStr, request: ChatRequest, source: string): string[] {
  const problems: string[] = [];
  const { messages, tools, chat_template_kwargs } = request as unknown as Record<string, unknown>;
  const forms = callerStrings({ messages, tools, chat_template_kwargs }, true).flatMap((s) => [
    s,
    s.toLowerCase(),
    s.toUpperCase(),
    capitalize(s),
    title(s),
    JSON.stringify(s).slice(1, -1),
    asciiJson(s),
    htmlEscape(s),
    // the server layer's developer -> system
    ...(s === "developer" ? ["system", "System", "SYSTEM"] : []),
  ]);
  const caller = new Uint8Array(out.length);
  let at = 0;
  out.forEachRun((text, origin) => {
    if (origin !== TEMPLATE) {
      caller.fill(1, at, at + text.length);
      if (!forms.some((f) => f.includes(text)))
        problems.push(`caller run ${JSON.stringify(text)} is no caller text`);
    }
    at += text.length;
  });
  const text = out.text;
  for (const s of new Set(callerStrings({ messages, tools }, false))) {
    if (s.length < 4 || source.includes(s)) continue;
    for (let i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + 1))
      if (caller.subarray(i, i + s.length).includes(0))
        problems.push(`caller text ${JSON.stringify(s)} at ${i} has template origin`);
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

type Outcome = { text: string; out: PStr } | { error: TokenizerError };

function render(source: string, special: ReadonlyMap<string, Value>, request: ChatRequest): Outcome {
  try {
    const r = renderChatTemplate(compileTemplate(source), request, special, { now: () => NOW });
    return { text: r.output.text, out: r.output };
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

const totals = { templates: 0, renders: 0, errors: 0, refused: 0 };

describe.skipIf(dir === undefined)("templates-extra: real templates vs Python jinja2", () => {
  for (const t of manifest.templates) {
    const path = join(dir ?? "", t.file);
    test.skipIf(!existsSync(path))(t.id, () => {
      const raw = readFileSync(path);
      expect(sha(raw)).toBe(t.sha256);
      const source = raw.toString("utf8");
      const special = new Map<string, Value>(Object.entries(t.special).map(([k, v]) => [k, PStr.of(v)]));
      const golden = goldens[t.id] as Record<string, Golden>;
      const problems: string[] = [];
      let refusedHere = 0;
      for (const { name, request } of requests) {
        const want = golden[name] as Golden;
        const got = render(source, special, request);
        const why = mismatch(t.id, name, want, got);
        if (why !== undefined) {
          if (REFUSED[t.id] !== undefined && "error" in got && got.error.type === "template-error")
            refusedHere++;
          else problems.push(`${name}: ${why}`);
          continue;
        }
        if ("out" in got) {
          totals.renders++;
          for (const p of provenanceProblems(got.out, request, source)) problems.push(`${name}: ${p}`);
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
