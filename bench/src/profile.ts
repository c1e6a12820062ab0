// Profiling helper for hot-spot reports (the decoder/encoder code belongs to other owners:
// the bench only measures and points at lines). Usage, from bench/:
//   node --cpu-prof --cpu-prof-dir=out/prof --conditions=source --import tsx src/profile.ts <what> [model]
//   node --import tsx src/profile.ts summarize out/prof/<file>.cpuprofile
// what: decode | decode-stop | encode-raw | encode-chat
import { readFileSync } from "node:fs";
import { compileDecoderSpecFor, createDecoder, type DecoderHandler } from "@chatwire/stream-decoder";
import { encodeCorpus } from "./corpus.ts";
import { fixtureFile, type ModelName } from "./fixtures.ts";
import { SINK } from "./measure.ts";
import { STOP_STRINGS } from "./orchestrate.ts";
import { chatRequest, loadOurs } from "./ours.ts";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

function summarize(file: string): void {
  const prof = JSON.parse(readFileSync(file, "utf8")) as { nodes: Node[]; timeDeltas: number[] };
  const total = prof.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0);
  const self = new Map<string, number>();
  for (const n of prof.nodes) {
    const f = n.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/work\/main\//, "")}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0));
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 16);
  for (const [k, v] of rows) console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
}

const [what, modelArg] = process.argv.slice(2);
const model = (modelArg ?? "qwen3") as ModelName;
if (what === "summarize") {
  summarize(modelArg as string);
} else if (what === "decode" || what === "decode-stop") {
  const tok = await loadOurs(model);
  const spec = compileDecoderSpecFor(tok);
  const ids = (JSON.parse(readFileSync(fixtureFile(model, "mixed", 8192), "utf8")) as { ids: number[] }).ids;
  // The same no-op consumer as the benchmark (no event objects).
  const add = (t: string): void => {
    SINK.v += t.length;
  };
  const handler: DecoderHandler = {
    onMessageStart: add,
    onText: add,
    onReasoning: add,
    onActionStart: add,
    onActionText: add,
    onActionEnd: (e) => add(e.raw),
    onMessageEnd: () => add(""),
    onStop: () => add(""),
    onError: (e) => add(e.message),
  };
  const opts = what === "decode-stop" ? { stopStrings: STOP_STRINGS } : {};
  const t0 = performance.now();
  while (performance.now() - t0 < 4000) {
    const d = createDecoder(spec, handler, opts);
    for (const id of ids) d.push(id);
    d.end();
  }
} else {
  const tok = await loadOurs(model);
  const parts = encodeCorpus(99, 30_000, 40);
  const t0 = performance.now();
  let i = 0;
  while (performance.now() - t0 < 4000) {
    const docs = parts[i++ % parts.length] as string[];
    if (what === "encode-chat") {
      for (let k = 0; k < docs.length; k += 8)
        SINK.v += tok.encodeChat(chatRequest(docs.slice(k, k + 8))).ids.length;
    } else {
      for (const d of docs) SINK.v += tok.textModel.encode(d).length;
    }
  }
}
console.error(`sink=${SINK.v}`);
