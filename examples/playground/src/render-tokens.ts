// Token cells as DOM: one <span class="tok"> per ID with data attributes the browser test reads
// (data-id, data-origin, data-reserved, data-audit, data-forged).
import type { ChatwireCell } from "./chatwire-view.ts";
import { el } from "./dom.ts";
import type { NaiveCell } from "./naive-view.ts";

function cell(
  id: number,
  label: string,
  classes: string[],
  data: Record<string, string>,
  title: string,
): HTMLElement {
  const attrs: Record<string, string> = {
    class: ["tok", ...classes].join(" "),
    "data-id": String(id),
    title,
  };
  for (const [k, v] of Object.entries(data)) attrs[`data-${k}`] = v;
  return el(
    "span",
    attrs,
    el("span", { class: "tok-id" }, String(id)),
    el("span", { class: "tok-text" }, label),
  );
}

export function renderChatwire(box: HTMLElement, cells: readonly ChatwireCell[]): void {
  const frag = document.createDocumentFragment();
  for (const c of cells) {
    const classes = [`o-${c.origin}`];
    if (c.reserved) classes.push("reserved");
    if (c.audit) classes.push("audit");
    // A reserved ID whose span is not format code would be a forged marker: red, like the naive column's.
    if (c.reserved && c.origin === "caller") classes.push("forged");
    frag.append(
      cell(
        c.id,
        c.label,
        classes,
        { origin: c.origin, reserved: String(c.reserved), audit: String(c.audit) },
        `${c.id} ${c.label} — ${c.origin} (${c.where})${c.audit ? " — audit: special-looking caller text, encoded as text" : ""}`,
      ),
    );
  }
  box.replaceChildren(frag);
}

export function renderNaive(box: HTMLElement, cells: readonly NaiveCell[]): void {
  const frag = document.createDocumentFragment();
  for (const c of cells) {
    const classes: string[] = [];
    if (c.reserved) classes.push("reserved");
    if (c.forged) classes.push("forged");
    else if (c.differs) classes.push("differs");
    frag.append(
      cell(
        c.id,
        c.label,
        classes,
        { reserved: String(c.reserved), forged: String(c.forged) },
        `${c.id} ${c.label}${c.forged ? " — FORGED: a reserved ID made from caller text" : c.differs ? " — differs from chatwire" : ""}`,
      ),
    );
  }
  box.replaceChildren(frag);
}
