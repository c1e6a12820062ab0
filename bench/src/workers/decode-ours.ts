// Our stream decoder vs the floor, in one process, ALTERNATING round by round (measure.ts).
//   floor      a bare loop: for each ID read a precomputed piece string (reference piece
//              table) and pass it to a callback that adds its length to a sink.
//   ours       createDecoder(spec, handler) per sequence (fresh decoder), push(id) one ID
//              at a time, end(). The handler's callbacks add text lengths to the same sink
//              (a no-op consumer; no event objects).
//   ours_stop  the same with 2 stop strings active that never occur in the fixture (checked:
//              every run must end with reason "eos"), so every token goes through matching.
// A `tools` row is also timed settled (floor and ours; measure.ts settle, as decode-realistic.ts)
// once every row of its model has had its first rounds, so no row's process history changes:
// the first rounds pay page faults for what a call allocates on young-generation pages nothing
// touched before (bench/README.md), and `settled_*` is the same code in a process past that.
// Also: allocation/GC per million tokens (v8.GCProfiler, measure.ts) on the headline
// fixture, and per-stream memory: 10,000 live decoders, each mid-stream.
import { readFileSync } from "node:fs";
import { compileDecoderSpecFor, createDecoder, type StopInfo } from "@chatwire/stream-decoder";
import { floorCandidate } from "../decode-candidates.ts";
import { isFamily, loadFamily } from "../family-fixtures.ts";
import { type Fixture, loadFixture } from "../fixtures.ts";
import {
  allocation,
  type Candidate,
  heapUsedAfterGc,
  reply,
  request,
  SINK,
  settle,
  timedWithFaults,
} from "../measure.ts";
import { loadOurs } from "../ours.ts";
import { sinkHandler, sinkText } from "../sink-handler.ts";

interface Req {
  models: Record<string, { fixtures: string[]; pieces: string }>;
  stopStrings: string[];
  warmup: number;
  rounds: number;
  alloc?: { model: string; file: string; minTokens: number };
  streams?: { model: string; file: string; count: number; pushed: number };
}
const req = request<Req>();

let lastStop: StopInfo | undefined;
const handler = sinkHandler((stop) => {
  lastStop = stop;
});

const floorCb = sinkText;

/** The decoder options a fixture needs: the request's tools (Llama 3.x plain-JSON calls). */
function decoderOptions(fx: Fixture): { tools?: readonly unknown[] } {
  const tools = (fx as Fixture & { tools?: readonly unknown[] }).tools;
  return tools === undefined ? {} : { tools };
}

const out: Record<string, unknown> = {};
type Spec = ReturnType<typeof compileDecoderSpecFor>;
const specs: Record<string, Spec> = {};

for (const [model, cfg] of Object.entries(req.models)) {
  const t0 = performance.now();
  // Families as data (Llama 3.x, DeepSeek V3): loadTokenizerSync(dir). Every spec comes from
  // compileDecoderSpecFor(tok): the verified IDs of the loaded files and the family's grammar.
  const fam = isFamily(model) ? await loadFamily(model) : undefined;
  const tok = fam ?? (await loadOurs(model as "qwen3" | "internlm2" | "chatglm3"));
  const t1 = performance.now();
  const spec = compileDecoderSpecFor(tok);
  const t2 = performance.now();
  specs[model] = spec;
  const pieces = JSON.parse(readFileSync(cfg.pieces, "utf8")) as string[];
  // IDs the piece file lacks (ChatGLM3 reserved 64789+) read "" so the floor loop has no branch.
  while (pieces.length < spec.classes.length) pieces.push("");
  const m: Record<string, unknown> = { load_ms: t1 - t0, compile_spec_ms: t2 - t1, rows: {} };
  // Family fixtures are checked before any timing: no error event, the stop reason, and the
  // tool calls found (Llama 3.x plain-JSON calls only with the `tools` option).
  if (fam !== undefined) {
    const checks: Record<string, unknown> = {};
    for (const file of cfg.fixtures) {
      const fx = loadFixture(file);
      let errors = 0;
      let actions = 0;
      let reason = "none";
      const d = createDecoder(
        spec,
        {
          onError() {
            errors++;
          },
          onActionStart() {
            actions++;
          },
          onStop(stop) {
            reason = stop.reason;
          },
        },
        decoderOptions(fx),
      );
      d.pushMany(fx.ids);
      d.end();
      if (errors > 0) throw new Error(`${file}: ${errors} error events`);
      if (fx.kind === "tools" && actions === 0) throw new Error(`${file}: no tool call detected`);
      checks[`${fx.kind}-${fx.n}`] = { errors, actions, stop_reason: reason, tokens: fx.ids.length };
    }
    m.checks = checks;
  }
  // Pre-warm on every fixture of this model (so the first measured row is not the one that
  // pays for JIT tier-up / deopts on token classes that only later fixtures contain).
  for (let pass = 0; pass < 3; pass++) {
    for (const file of cfg.fixtures) {
      const ids = loadFixture(file).ids;
      const base = decoderOptions(loadFixture(file));
      for (const opts of [base, { ...base, stopStrings: req.stopStrings }]) {
        const d = createDecoder(spec, handler, opts);
        for (let i = 0; i < ids.length; i++) d.push(ids[i] as number);
        d.end();
      }
      for (let i = 0; i < ids.length; i++) floorCb(pieces[ids[i] as number] as string);
    }
  }
  const toSettle: { row: Record<string, unknown>; name: string; cands: Candidate[] }[] = [];
  for (const file of cfg.fixtures) {
    const fx = loadFixture(file);
    const ids = fx.ids;
    const n = ids.length;
    const base = decoderOptions(fx);
    const reasons = new Set<string>();
    const floor = floorCandidate(pieces, ids);
    const ours: Candidate = {
      name: "ours",
      run() {
        const d = createDecoder(spec, handler, base);
        for (let i = 0; i < n; i++) d.push(ids[i] as number);
        d.end();
        reasons.add(lastStop?.reason ?? "none");
        return n;
      },
    };
    const oursStop: Candidate = {
      name: "ours_stop",
      run() {
        const d = createDecoder(spec, handler, { ...base, stopStrings: req.stopStrings });
        for (let i = 0; i < n; i++) d.push(ids[i] as number);
        d.end();
        reasons.add(lastStop?.reason ?? "none");
        return n;
      },
    };
    // Informative only (not a contract field): one decoder reused via reset(), to separate
    // the per-token cost from the per-stream creation cost.
    const reused = createDecoder(spec, handler, base);
    const oursReset: Candidate = {
      name: "ours_reset",
      run() {
        const d = reused;
        d.reset();
        for (let i = 0; i < n; i++) d.push(ids[i] as number);
        d.end();
        return n;
      },
    };
    const { t, faults } = await timedWithFaults([floor, ours, oursStop, oursReset], {
      warmup: req.warmup,
      rounds: req.rounds,
    });
    const row: Record<string, unknown> = {
      floor: t.floor,
      ours: t.ours,
      ours_stop: t.ours_stop,
      ours_reset: t.ours_reset,
      stop_reasons: [...reasons],
      page_faults_per_round: faults,
    };
    if (fx.kind === "tools") toSettle.push({ row, name: `${fx.kind}-${fx.n}`, cands: [floor, ours] });
    (m.rows as Record<string, unknown>)[`${fx.kind}-${fx.n}`] = row;
    process.stderr.write(
      `ours ${model} ${fx.kind}-${fx.n}: floor ${t.floor?.ns_per_token.toFixed(1)} ours ${t.ours?.ns_per_token.toFixed(1)} stop ${t.ours_stop?.ns_per_token.toFixed(1)} ns/token (${[...reasons]}), ${faults.toFixed(1)} page faults/round\n`,
    );
  }
  for (const { row, name, cands } of toSettle) {
    const settleRounds = await settle(cands);
    const settled = await timedWithFaults(cands, { warmup: 0, rounds: req.rounds });
    row.settle_rounds = settleRounds;
    row.settled_floor = settled.t.floor;
    row.settled_ours = settled.t.ours;
    row.settled_page_faults_per_round = settled.faults;
    process.stderr.write(
      `ours ${model} ${name} settled after ${settleRounds} rounds: floor ${settled.t.floor?.ns_per_token.toFixed(1)} ours ${settled.t.ours?.ns_per_token.toFixed(1)} ns/token\n`,
    );
  }
  out[model] = m;
}

// Allocation / GC per million tokens, headline fixture.
if (req.alloc) {
  const fx = loadFixture(req.alloc.file);
  const spec = specs[req.alloc.model] as Spec;
  const ids = fx.ids;
  const n = ids.length;
  const pieces = JSON.parse(
    readFileSync((req.models[req.alloc.model] as { pieces: string }).pieces, "utf8"),
  ) as string[];
  while (pieces.length < spec.classes.length) pieces.push("");
  out.alloc = {
    floor: allocation(() => {
      for (let i = 0; i < n; i++) floorCb(pieces[ids[i] as number] as string);
      return n;
    }, req.alloc.minTokens),
    ours: allocation(() => {
      const d = createDecoder(spec, handler);
      for (let i = 0; i < n; i++) d.push(ids[i] as number);
      d.end();
      return n;
    }, req.alloc.minTokens),
    ours_stop: allocation(() => {
      const d = createDecoder(spec, handler, { stopStrings: req.stopStrings });
      for (let i = 0; i < n; i++) d.push(ids[i] as number);
      d.end();
      return n;
    }, req.alloc.minTokens),
  };
}

// Per-stream creation cost: createDecoder() alone, median of 15 batches of 1,000.
if (req.streams) {
  const spec = specs.qwen3 ?? (Object.values(specs)[0] as Spec);
  const batches: number[] = [];
  const batchesStop: number[] = [];
  for (let r = 0; r < 20; r++) {
    let t = process.hrtime.bigint();
    for (let i = 0; i < 1000; i++) SINK.v += createDecoder(spec, handler).stopped ? 1 : 0;
    const a = Number(process.hrtime.bigint() - t) / 1000;
    t = process.hrtime.bigint();
    for (let i = 0; i < 1000; i++)
      SINK.v += createDecoder(spec, handler, { stopStrings: req.stopStrings }).stopped ? 1 : 0;
    const b = Number(process.hrtime.bigint() - t) / 1000;
    if (r >= 5) {
      batches.push(a);
      batchesStop.push(b);
    }
  }
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;
  out.create = { ns: med(batches), ns_with_stop_strings: med(batchesStop) };
}

// Per-stream memory: `count` live decoders, each having received the first `pushed` IDs.
if (req.streams) {
  const fx = loadFixture(req.streams.file);
  const spec = specs[req.streams.model] as Spec;
  const prefix = fx.ids.slice(0, req.streams.pushed);
  const h0 = heapUsedAfterGc();
  const live = [];
  for (let i = 0; i < req.streams.count; i++) live.push(createDecoder(spec, handler));
  const h1 = heapUsedAfterGc();
  for (const d of live) d.pushMany(prefix);
  const h2 = heapUsedAfterGc();
  out.streams = {
    count: live.length,
    pushed: prefix.length,
    bytes_per_stream_fresh: (h1 - h0) / live.length,
    bytes_per_stream_midstream: (h2 - h0) / live.length,
    method:
      "heapUsed after gc() (x2) before/after creating N decoders, then after pushing the first IDs to each",
  };
  SINK.v += live.length;
}
reply(out);
