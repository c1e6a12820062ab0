// ONE decoder candidate per process, so the floor and ours are measured the same way: the
// same process layout (load the tokenizer, compile the spec, read the piece table and the
// fixture), the same pre-warm over every fixture and the same warmup and round loop (measure.ts alternate() with one candidate), and
// no other candidate's code sharing its inline caches or JIT feedback. The driver runs these
// processes in alternating pairs (floor, ours, ours, floor, ...) and takes paired ratios.
//   floor          for each ID read a precomputed piece string, pass it to a callback that
//                  adds its length to a sink (the minimal loop)
//   ours           createDecoder(spec, handler) fresh per sequence, push(id) per ID, end();
//                  the handler's callbacks add text lengths to the sink (no-op consumer)
//   ours_stop      ours with the request's stop strings (none occurs in the fixtures)
//   floor_append   realistic consumer, floor side: the callback appends the piece to a string
//                  (fresh per sequence)
//   ours_append    realistic consumer: the handler appends text to per-channel strings
//                  (content, reasoning, action arguments; fresh per sequence)
import { readFileSync } from "node:fs";
import { compileDecoderSpecFor, createDecoder, type DecoderHandler } from "@chatwire/stream-decoder";
import { type FamilyModel, isFamily, loadFamily } from "../family-fixtures.ts";
import { type Fixture, loadFixture } from "../fixtures.ts";
import { alternate, type Candidate, reply, request, SINK } from "../measure.ts";
import { loadOurs } from "../ours.ts";
import { sinkHandler, sinkText } from "../sink-handler.ts";

type Name = "floor" | "ours" | "ours_stop" | "floor_append" | "ours_append";
interface Req {
  candidate: Name;
  model: "qwen3" | "internlm2" | "chatglm3" | FamilyModel;
  file: string;
  pieces: string;
  warmup: number;
  rounds: number;
  /** Every fixture of the model: each candidate first runs its own loop over all of them. */
  prewarm: string[];
  stopStrings: string[];
}
const req = request<Req>();
// Families as data (Llama 3.x, DeepSeek V3): loadTokenizerSync(dir). Every spec comes from
// compileDecoderSpecFor(tok): the verified IDs of the loaded files and the family's grammar.
const model = req.model;
const fam = isFamily(model) ? await loadFamily(model) : undefined;
const tok = fam ?? (await loadOurs(model as "qwen3" | "internlm2" | "chatglm3"));
const spec = compileDecoderSpecFor(tok);
/** The request's tools a fixture needs (Llama 3.x plain-JSON calls); none for the others. */
const toolsOf = (fx: Fixture): readonly unknown[] | undefined =>
  (fx as Fixture & { tools?: readonly unknown[] }).tools;
const pieces = JSON.parse(readFileSync(req.pieces, "utf8")) as string[];
while (pieces.length < spec.classes.length) pieces.push("");
const headlineFx = loadFixture(req.file);
const headline = headlineFx.ids;
const headlineTools = toolsOf(headlineFx);

const handler = sinkHandler();
const acc = { content: "", reasoning: "", action: "" };
const appendHandler: DecoderHandler = {
  onText(text) {
    acc.content += text;
  },
  onReasoning(text) {
    acc.reasoning += text;
  },
  onActionText(text) {
    acc.action += text;
  },
  onMessageEnd() {
    SINK.v++;
  },
};
const drain = (): void => {
  SINK.v += acc.content.length + acc.reasoning.length + acc.action.length;
  acc.content = "";
  acc.reasoning = "";
  acc.action = "";
};
const floorCb = sinkText;
const appendCb = (s: string): void => {
  acc.content += s;
};

const opts = (stop: string[] | undefined, tools: readonly unknown[] | undefined) => ({
  ...(tools === undefined ? {} : { tools }),
  ...(stop === undefined ? {} : { stopStrings: stop }),
});
/** One whole sequence through a fresh decoder, one ID at a time. */
function decode(
  h: DecoderHandler,
  ids: readonly number[],
  stop: string[] | undefined,
  tools: readonly unknown[] | undefined,
): number {
  const d = createDecoder(spec, h, opts(stop, tools));
  const n = ids.length;
  for (let i = 0; i < n; i++) d.push(ids[i] as number);
  d.end();
  return n;
}
const runs: Record<Name, (ids: readonly number[], stop?: string[], tools?: readonly unknown[]) => number> = {
  floor(ids) {
    const cb = floorCb;
    const n = ids.length;
    for (let i = 0; i < n; i++) cb(pieces[ids[i] as number] as string);
    return n;
  },
  ours(ids, stop, tools) {
    return decode(handler, ids, stop, tools);
  },
  ours_stop(ids, _stop, tools) {
    return decode(handler, ids, req.stopStrings, tools);
  },
  floor_append(ids) {
    const cb = appendCb;
    const n = ids.length;
    for (let i = 0; i < n; i++) cb(pieces[ids[i] as number] as string);
    drain();
    return n;
  },
  ours_append(ids, stop, tools) {
    const n = decode(appendHandler, ids, stop, tools);
    drain();
    return n;
  },
};
const run = runs[req.candidate];
// A few short calls before the timed phase, for each candidate alike: a first call that is one
// long loop leaves the code before the loop without type feedback, and its optimized code can be
// thrown away later (bench/README.md, "Method").
const primer = headline.slice(0, 64);
for (let i = 0; i < 20; i++) run(primer, undefined, headlineTools);
// Pre-warm exactly as decode-ours.ts does for the in-process rows: 3 passes over every fixture
// of the model (ours also with the stop strings): without the pre-warm the first timed rows pay
// for JIT tier-up (bench/README.md, "Method"). A server's decoder has seen varied output too.
for (let pass = 0; pass < 3; pass++) {
  for (const file of req.prewarm) {
    const fx = loadFixture(file);
    run(fx.ids, undefined, toolsOf(fx));
    if (req.candidate === "ours" || req.candidate === "ours_stop" || req.candidate === "ours_append")
      run(fx.ids, req.stopStrings, toolsOf(fx));
  }
}
const cand: Candidate = { name: req.candidate, run: () => run(headline, undefined, headlineTools) };
const t = await alternate([cand], { warmup: req.warmup, rounds: req.rounds });
reply({ candidate: req.candidate, model: req.model, file: req.file, ...t[req.candidate] });
