// The decode panel: streams IDs through one stream decoder, one ID per tick, and shows each
// event as it arrives (runs of text-like events share a row) plus the transcript so far.
import { createDecoder, type DecoderEvent, eventHandler } from "@chatwire/stream-decoder";
import { el } from "./dom.ts";
import type { PageTokenizer } from "./page-tokenizer.ts";

/** Events whose consecutive occurrences are merged into one row. */
const MERGED: ReadonlySet<DecoderEvent["type"]> = new Set([
  "text",
  "reasoning",
  "action_text",
  "tool_call_arguments",
]);

function payload(e: DecoderEvent): string {
  switch (e.type) {
    case "message_start":
      return `role=${e.role}${e.metadata === "" ? "" : ` metadata=${JSON.stringify(e.metadata)}`}`;
    case "text":
    case "reasoning":
    case "action_text":
    case "tool_call_arguments":
      return e.text;
    case "action_start":
      return e.kind;
    case "action_end":
      return "call" in e && e.call !== undefined
        ? `${e.kind} call ${JSON.stringify(e.call)}`
        : `${e.kind} error ${"error" in e ? String(e.error) : ""}`;
    case "tool_call_name":
      return e.name;
    case "message_end":
      return "";
    case "stop":
      return `reason=${e.reason}${e.token === undefined ? "" : ` token=${e.token}`}`;
    case "error":
      return `${e.code}: ${e.message}`;
  }
}

export interface DecodeRun {
  cancel(): void;
}

/** Streams `ids` into `panel` (children: .gen-ids, .transcript, ol.events), `delayMs` per ID. */
export function streamDecode(
  tok: PageTokenizer,
  ids: readonly number[],
  panel: HTMLElement,
  delayMs: number,
): DecodeRun {
  const idsBox = panel.querySelector<HTMLElement>(".gen-ids");
  const transcript = panel.querySelector<HTMLElement>(".transcript");
  const list = panel.querySelector<HTMLOListElement>("ol.events");
  if (idsBox === null || transcript === null || list === null)
    throw new TypeError("decode panel markup missing");
  idsBox.replaceChildren();
  transcript.replaceChildren();
  list.replaceChildren();
  panel.dataset.done = "false";
  let lastRow: { type: DecoderEvent["type"]; count: number; li: HTMLElement; text: HTMLElement } | undefined;
  const onEvent = (e: DecoderEvent): void => {
    if (e.type === "text" || e.type === "reasoning" || e.type === "action_text") {
      const last = transcript.lastElementChild as HTMLElement | null;
      if (last !== null && last.dataset.kind === e.type) last.textContent += e.text;
      else transcript.append(el("span", { class: `t-${e.type}`, "data-kind": e.type }, e.text));
    }
    if (lastRow !== undefined && lastRow.type === e.type && MERGED.has(e.type)) {
      lastRow.count++;
      lastRow.text.textContent += payload(e);
      lastRow.li.dataset.count = String(lastRow.count);
      (lastRow.li.querySelector(".ev-count") as HTMLElement).textContent = `×${lastRow.count}`;
      return;
    }
    const text = el("span", { class: "ev-payload" }, payload(e));
    const li = el(
      "li",
      { class: `ev ev-${e.type}`, "data-event-type": e.type, "data-count": "1" },
      el("span", { class: "ev-type" }, e.type),
      el("span", { class: "ev-count" }, ""),
      text,
    );
    list.append(li);
    lastRow = { type: e.type, count: 1, li, text };
  };
  const decoder = createDecoder(tok.spec(), eventHandler(onEvent), {
    streamToolCalls: true,
  });
  let i = 0;
  const timer = setInterval(() => {
    if (i < ids.length) {
      const id = ids[i++] as number;
      idsBox.append(el("span", { class: tok.reservedIds.has(id) ? "gid reserved" : "gid" }, String(id)));
      decoder.push(id);
      return;
    }
    clearInterval(timer);
    decoder.end();
    panel.dataset.done = "true";
  }, delayMs);
  return {
    cancel() {
      clearInterval(timer);
    },
  };
}
