// A handler that lacks some callbacks (here onStop and onMessageEnd) still gets every event it
// has, in order, with itself as `this`: the per-token text callbacks are called on the caller's
// object directly, the others through the wrapper (src/handler.ts); both give the events of a
// complete handler.
import { describe, expect, it } from "vitest";
import {
  compileDecoderSpecFor,
  createDecoder,
  type DecoderEvent,
  type DecoderHandler,
  eventCollector,
} from "../src/index.ts";
import { tokenizer } from "./models.ts";

class Recorder implements DecoderHandler {
  readonly seen: string[] = [];
  onText(text: string): void {
    this.seen.push(`text:${text}`);
  }
  onReasoning(text: string): void {
    this.seen.push(`reasoning:${text}`);
  }
  onActionStart(kind: string): void {
    this.seen.push(`action_start:${kind}`);
  }
  onActionText(text: string): void {
    this.seen.push(`action_text:${text}`);
  }
  onActionEnd(end: { raw: string }): void {
    this.seen.push(`action_end:${end.raw}`);
  }
}

function expected(events: readonly DecoderEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === "text" || e.type === "reasoning" || e.type === "action_text")
      out.push(`${e.type}:${e.text}`);
    else if (e.type === "action_start") out.push(`action_start:${e.kind}`);
    else if (e.type === "action_end") out.push(`action_end:${e.raw}`);
  }
  return out;
}

describe("a handler without every callback", () => {
  const tok = tokenizer("qwen3");
  const spec = compileDecoderSpecFor(tok);
  const id = (k: string): number => (tok.tokenIds as Readonly<Record<string, number>>)[k] as number;
  const enc = (s: string): number[] => tok.textModel.encode(s);
  const ids = [
    id("think"),
    ...enc("\nPlan: call it.\n"),
    id("thinkEnd"),
    ...enc("\n\nChecking 🌧️ weather.\n"),
    id("toolCall"),
    ...enc('\n{"name": "get_weather", "arguments": {"city": "巴黎"}}\n'),
    id("toolCallEnd"),
    id("imEnd"),
  ];

  for (const burst of [false, true]) {
    it(`gets the complete handler's events on itself (${burst ? "pushMany" : "push"}), twice (tables filled)`, () => {
      for (let pass = 0; pass < 2; pass++) {
        const all = eventCollector();
        const ref = createDecoder(spec, all);
        ref.pushMany(ids);
        ref.end();
        const rec = new Recorder();
        const d = createDecoder(spec, rec);
        if (burst) for (let i = 0; i < ids.length; i += 3) d.pushMany(ids.slice(i, i + 3));
        else for (const id of ids) d.push(id);
        d.end();
        expect(rec.seen).toEqual(expected(all.events));
        expect(rec.seen.some((s) => s.startsWith("reasoning:"))).toBe(true);
        expect(rec.seen.some((s) => s.startsWith("action_text:"))).toBe(true);
      }
    });
  }
});
