// Test helpers: an engine wrapper that records every ID batch it yields, and the reference
// text of those IDs — what a fresh decoder (no HTTP, no chunks) reports as content, reasoning
// and function-call arguments — so a client's reassembly can be compared with it.
import { compileDecoderSpecFor, createDecoder, eventCollector } from "@chatwire/stream-decoder";
import type { ChatTokenizer } from "@chatwire/tokenizer";
import type { Engine } from "../src/index.ts";

export function tap(engine: Engine): { engine: Engine; runs: number[][] } {
  const runs: number[][] = [];
  return {
    runs,
    engine: {
      name: engine.name,
      close: () => engine.close(),
      async *generate(req) {
        const ids: number[] = [];
        runs.push(ids);
        for await (const b of engine.generate(req)) {
          ids.push(...b);
          yield b;
        }
      },
    },
  };
}

/** The decoder's own account of `ids`, with the server's options (maxTokens, streamToolCalls). */
export function reference(tok: ChatTokenizer, ids: readonly number[], maxTokens: number) {
  const c = eventCollector();
  const d = createDecoder(compileDecoderSpecFor(tok), c, {
    maxTokens,
    streamToolCalls: true,
  });
  for (const id of ids) {
    d.push(id);
    if (d.stopped) break;
  }
  d.end();
  let text = "";
  let reasoning = "";
  let actions = 0;
  for (const e of c.events) {
    if (e.type === "text") text += e.text;
    else if (e.type === "reasoning") reasoning += e.text;
    else if (e.type === "action_start") actions++;
  }
  const stop = c.events.find((e) => e.type === "stop");
  return { text, reasoning, actions, stop: stop?.type === "stop" ? stop.reason : undefined };
}
