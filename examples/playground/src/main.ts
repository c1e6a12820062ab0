// Wires the page: the tokenizer menu (tokenizers/index.json), the conversation editor, the two
// encodings side by side, and the decode panel.
import { type ChatRequest, TokenizerError } from "@chatwire/tokenizer";
import { chatwireCells } from "./chatwire-view.ts";
import { formatConversation, parseConversation, type Request, renderForm } from "./conversation.ts";
import { type DecodeRun, streamDecode } from "./decode-panel.ts";
import { byId, el } from "./dom.ts";
import { generationIds } from "./generation.ts";
import { loadManifest, type TokenizerEntry } from "./manifest.ts";
import { naiveCells } from "./naive-view.ts";
import { renderChatwire, renderNaive } from "./render-tokens.ts";
import { sampleFor } from "./samples.ts";
import { type Loaded, loadBundled } from "./tokenizers.ts";

const base = new URL(".", window.location.href);
const select = byId<HTMLSelectElement>("tokenizer");
const policy = byId<HTMLSelectElement>("policy");
const status = byId<HTMLElement>("status");
const json = byId<HTMLTextAreaElement>("json");
const jsonError = byId<HTMLElement>("json-error");
const form = byId<HTMLElement>("form");
const chatwire = byId<HTMLElement>("chatwire");
const naive = byId<HTMLElement>("naive");
const decodePanel = byId<HTMLElement>("decode");

const part = <T extends HTMLElement>(root: HTMLElement, selector: string): T => {
  const node = root.querySelector<T>(selector);
  if (node === null) throw new TypeError(`${selector} missing in #${root.id}`);
  return node;
};

let entries: TokenizerEntry[] = [];
let current: Loaded | undefined;
let decodeRun: DecodeRun | undefined;

function setStatus(state: "loading" | "ready" | "error", text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}

function showError(root: HTMLElement, message: string | undefined): void {
  const p = part<HTMLElement>(root, ":scope > .error");
  p.hidden = message === undefined;
  p.textContent = message ?? "";
}

function describe(e: unknown): string {
  if (e instanceof TokenizerError) return `TokenizerError(${e.type}): ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

function encodeBoth(request: Request): void {
  if (current === undefined) return;
  const { tok, naive: pipeline } = current;
  const specialText = policy.value === "reject" ? "reject" : "neutralize";
  let ids: readonly number[] = [];
  try {
    // The editor's JSON is untrusted: encodeChat validates it at run time (typed errors).
    const enc = tok.tok.encodeChat(request as unknown as ChatRequest, { specialText });
    ids = enc.ids;
    const cells = chatwireCells(tok, enc);
    renderChatwire(part(chatwire, ".tokens"), cells);
    const reserved = cells.filter((c) => c.reserved);
    const fromCaller = reserved.filter((c) => c.origin === "caller").length;
    part(chatwire, ".summary").textContent =
      `${cells.length} IDs · ${reserved.length} reserved, ${reserved.length - fromCaller} placed by format code, ${fromCaller} from caller text · ${enc.audit.length} audit finding${enc.audit.length === 1 ? "" : "s"}`;
    part(chatwire, ".audit-list").replaceChildren(
      ...enc.audit.map((a) =>
        el(
          "li",
          { "data-token": a.token },
          `message ${a.message ?? "-"} ${a.field} @${a.index}: `,
          el("code", {}, a.token),
          ` (would be ID ${a.id}; encoded as text)`,
        ),
      ),
    );
    showError(chatwire, undefined);
  } catch (e) {
    part(chatwire, ".tokens").replaceChildren();
    part(chatwire, ".summary").textContent = "";
    part(chatwire, ".audit-list").replaceChildren();
    showError(chatwire, describe(e));
  }
  chatwire.dataset.ready = "true";
  if (pipeline === undefined) {
    part(naive, ".tokens").replaceChildren();
    part(naive, ".summary").textContent =
      `${current.entry.label}: no transformers.js-style pipeline offered to compare (it needs a tokenizer.json, and is offered only where loading it a second time is cheap).`;
    part(naive, ".rendered").textContent = "";
    showError(naive, undefined);
  } else {
    const r = pipeline.encode(request);
    if (r.ok) {
      const { cells, aligned } = naiveCells(tok, ids, r.ids, pipeline.addedIds);
      renderNaive(part(naive, ".tokens"), cells);
      const reserved = cells.filter((c) => c.reserved).length;
      const forged = cells.filter((c) => c.forged).length;
      part(naive, ".summary").textContent =
        `${cells.length} IDs · ${reserved} reserved, ${forged} FORGED from caller text${aligned ? "" : " (paired in order: too different to align)"}`;
      part(naive, ".rendered").textContent = r.text;
      showError(naive, undefined);
    } else {
      part(naive, ".tokens").replaceChildren();
      part(naive, ".summary").textContent = "";
      showError(naive, `render/tokenize failed: ${r.error}`);
    }
  }
  naive.dataset.ready = "true";
}

function onJsonInput(): void {
  const parsed = parseConversation(json.value);
  jsonError.hidden = parsed.ok;
  if (!parsed.ok) {
    jsonError.textContent = parsed.error;
    return;
  }
  renderForm(form, parsed.request, onFormEdit);
  encodeBoth(parsed.request);
}

function onFormEdit(request: Request): void {
  json.value = formatConversation(request);
  jsonError.hidden = true;
  encodeBoth(request);
}

function replay(): void {
  decodeRun?.cancel();
  if (current === undefined) return;
  try {
    const ids = generationIds(current.tok, sampleFor(current.tok.format, current.tok.reservedStrings));
    decodeRun = streamDecode(current.tok, ids, decodePanel, 25);
  } catch (e) {
    part(decodePanel, ".transcript").textContent = describe(e);
  }
}

function resetConversation(): void {
  if (current === undefined) return;
  json.value = formatConversation(
    structuredClone(sampleFor(current.tok.format, current.tok.reservedStrings).request) as unknown as Request,
  );
  onJsonInput();
}

async function choose(name: string): Promise<void> {
  const entry = entries.find((e) => e.name === name);
  if (entry === undefined) return;
  setStatus("loading", `loading ${entry.label}…`);
  chatwire.dataset.ready = "false";
  naive.dataset.ready = "false";
  try {
    const t0 = performance.now();
    current = await loadBundled(base, entry);
    setStatus(
      "ready",
      `${entry.label} · ${current.tok.format} · loaded in ${Math.round(performance.now() - t0)} ms`,
    );
    resetConversation();
    replay();
  } catch (e) {
    current = undefined;
    setStatus("error", `cannot load ${entry.label}: ${describe(e)}`);
  }
}

async function start(): Promise<void> {
  try {
    entries = await loadManifest(base);
  } catch (e) {
    setStatus("error", describe(e));
    return;
  }
  select.replaceChildren(...entries.map((e) => el("option", { value: e.name }, e.label)));
  select.disabled = false;
  select.addEventListener("change", () => void choose(select.value));
  policy.addEventListener("change", onJsonInput);
  json.addEventListener("input", onJsonInput);
  byId("reset").addEventListener("click", resetConversation);
  byId("replay").addEventListener("click", replay);
  const first = entries[0];
  if (first !== undefined) await choose(first.name);
}

void start();
