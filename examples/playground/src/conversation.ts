// The conversation editor: JSON text is the source of truth; the simple form edits the
// role/content of each message in place (every other field is kept) and writes the JSON back.
import { el } from "./dom.ts";

export type Request = { messages: Record<string, unknown>[]; [key: string]: unknown };

export type Parsed =
  | { readonly ok: true; readonly request: Request }
  | { readonly ok: false; readonly error: string };

export function parseConversation(text: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return { ok: false, error: "the request must be an object" };
  const messages = (v as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return { ok: false, error: '"messages" must be an array' };
  if (!messages.every((m) => typeof m === "object" && m !== null && !Array.isArray(m)))
    return { ok: false, error: "every message must be an object" };
  return { ok: true, request: v as Request };
}

export function formatConversation(request: Request): string {
  return JSON.stringify(request, null, 2);
}

/** Rebuilds the form for `request`; `onEdit` gets the edited request after each change. */
export function renderForm(form: HTMLElement, request: Request, onEdit: (request: Request) => void): void {
  const rows = request.messages.map((m, i) => {
    const role = el("input", {
      class: "f-role",
      list: "roles",
      value: typeof m.role === "string" ? m.role : "",
      "data-message": String(i),
      "data-field": "role",
      "aria-label": `message ${i} role`,
    });
    const content = el("textarea", {
      class: "f-content",
      rows: "3",
      "data-message": String(i),
      "data-field": "content",
      "aria-label": `message ${i} content`,
    });
    if (typeof m.content === "string") content.value = m.content;
    else {
      content.disabled = true;
      content.placeholder = "(not a string: edit it in the JSON)";
    }
    role.addEventListener("input", () => {
      m.role = role.value;
      onEdit(request);
    });
    content.addEventListener("input", () => {
      m.content = content.value;
      onEdit(request);
    });
    const remove = el("button", { type: "button", class: "f-remove", title: "remove this message" }, "×");
    remove.addEventListener("click", () => {
      request.messages.splice(i, 1);
      onEdit(request);
      renderForm(form, request, onEdit);
    });
    return el("div", { class: "f-row" }, el("span", { class: "f-index" }, String(i)), role, content, remove);
  });
  const add = el("button", { type: "button", class: "f-add" }, "+ message");
  add.addEventListener("click", () => {
    request.messages.push({ role: "user", content: "" });
    onEdit(request);
    renderForm(form, request, onEdit);
  });
  form.replaceChildren(...rows, add);
}
