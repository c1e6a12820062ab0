// The realistic replies and the byte-split fixtures (../realistic-fixture.ts), every candidate
// in ONE process, alternating round by round (measure.ts):
//   floor        the minimal floor: a precomputed piece string per ID to a callback that adds
//                its length to a sink (as decode-ours.ts);
//   floor_utf8   a floor that also reassembles UTF-8: a whole-text ID's precomputed string to
//                the callback; a byte-split ID's precomputed bytes through a minimal UTF-8
//                state machine (no validation), each completed character to the callback;
//   ours         createDecoder(spec, handler) per sequence, push(id) per ID, end();
//   ours_burst8  the same with pushMany() of 8 IDs at a time (the chunks made before timing).
// Also per fixture: its byte-split tokens (IDs whose own decode is not valid UTF-8) and its
// tool-call tokens (IDs pushed while an action was open), counted before timing.
// Two timings per fixture: the first rounds after start (`warmup` + `rounds`), while V8 is still
// growing the young generation, so what a round allocates lands on fresh pages and pays their
// page faults (bench/README.md); and the settled process (`settled_*`): rounds of every
// candidate run untimed until a stretch of them takes no page fault (measure.ts settle), then
// `rounds` rounds are timed the same way. Each timing also counts the page faults per round.
import { readFileSync } from "node:fs";
import { compileDecoderSpecFor, createDecoder } from "@chatwire/stream-decoder";
import { floorCandidate } from "../decode-candidates.ts";
import { loadFamily } from "../family-fixtures.ts";
import { type Candidate, reply, request, settle, timedWithFaults } from "../measure.ts";
import { loadOurs } from "../ours.ts";
import type { RealisticFixture } from "../realistic-fixture.ts";
import { sinkHandler, sinkText } from "../sink-handler.ts";

interface Req {
  models: Record<string, { fixtures: string[]; pieces: string }>;
  warmup: number;
  rounds: number;
}
const req = request<Req>();
const handler = sinkHandler();

const out: Record<string, unknown> = {};
for (const [model, cfg] of Object.entries(req.models)) {
  const tok =
    model === "qwen3" ? await loadOurs("qwen3") : await loadFamily(model as "llama31" | "deepseek-v3");
  const spec = compileDecoderSpecFor(tok);
  const pieces = JSON.parse(readFileSync(cfg.pieces, "utf8")) as string[];
  while (pieces.length < spec.classes.length) pieces.push("");
  const rows: Record<string, unknown> = {};
  for (const file of cfg.fixtures) {
    const fx = JSON.parse(readFileSync(file, "utf8")) as RealisticFixture;
    const ids = fx.ids;
    const n = ids.length;
    // Counts, and the reassembling floor's tables: per ID its text, or its bytes when its own
    // decode is not valid UTF-8 (a byte-split token).
    const enc = new TextEncoder();
    const text: (string | undefined)[] = [];
    const bytes: (Uint8Array | undefined)[] = [];
    for (let i = 0; i < spec.classes.length; i++) {
      text.push(undefined);
      bytes.push(undefined);
    }
    let byteSplit = 0;
    for (const id of ids) {
      const t = tok.decode([id]);
      if (t.includes("\uFFFD")) {
        byteSplit++;
        bytes[id] = spec.bytes[id] ?? enc.encode(t);
      } else text[id] = t;
    }
    let inAction = false;
    let toolCall = 0;
    let reason = "";
    const counter = createDecoder(spec, {
      onActionStart() {
        inAction = true;
      },
      onActionEnd() {
        inAction = false;
      },
      onStop(s) {
        reason = s.reason;
      },
    });
    for (const id of ids) {
      if (inAction) toolCall++;
      counter.push(id);
    }
    counter.end();
    const chunks: number[][] = [];
    for (let i = 0; i < n; i += 8) chunks.push(ids.slice(i, i + 8));
    const floor = floorCandidate(pieces, ids);
    const floorUtf8: Candidate = {
      name: "floor_utf8",
      run() {
        const cb = sinkText;
        let need = 0;
        let cp = 0;
        for (let i = 0; i < n; i++) {
          const id = ids[i] as number;
          const s = text[id];
          if (s !== undefined) {
            cb(s);
            continue;
          }
          const b = bytes[id];
          if (b === undefined) continue;
          for (let k = 0; k < b.length; k++) {
            const x = b[k] as number;
            if (need > 0) {
              cp = (cp << 6) | (x & 0x3f);
              if (--need === 0) cb(String.fromCodePoint(cp));
            } else if (x < 0x80) cb(String.fromCharCode(x));
            else if (x >= 0xf0) {
              cp = x & 7;
              need = 3;
            } else if (x >= 0xe0) {
              cp = x & 15;
              need = 2;
            } else {
              cp = x & 31;
              need = 1;
            }
          }
        }
        return n;
      },
    };
    const ours: Candidate = {
      name: "ours",
      run() {
        const d = createDecoder(spec, handler);
        for (let i = 0; i < n; i++) d.push(ids[i] as number);
        d.end();
        return n;
      },
    };
    const burst8: Candidate = {
      name: "ours_burst8",
      run() {
        const d = createDecoder(spec, handler);
        for (let i = 0; i < chunks.length; i++) d.pushMany(chunks[i] as number[]);
        d.end();
        return n;
      },
    };
    const cands = [floor, floorUtf8, ours, burst8];
    // Pre-warm (tier-up before timing, as decode-ours.ts).
    for (let pass = 0; pass < 3; pass++) for (const c of cands) c.run();
    const { t, faults } = await timedWithFaults(cands, { warmup: req.warmup, rounds: req.rounds });
    const settleRounds = await settle(cands);
    const settled = await timedWithFaults(cands, { warmup: 0, rounds: req.rounds });
    rows[`${fx.kind}-${fx.n}`] = {
      tokens: n,
      byte_split_tokens: byteSplit,
      tool_call_tokens: toolCall,
      stop_reason: reason,
      floor: t.floor,
      floor_utf8: t.floor_utf8,
      ours: t.ours,
      ours_burst8: t.ours_burst8,
      page_faults_per_round: faults,
      settle_rounds: settleRounds,
      settled_floor: settled.t.floor,
      settled_floor_utf8: settled.t.floor_utf8,
      settled_ours: settled.t.ours,
      settled_ours_burst8: settled.t.ours_burst8,
      settled_page_faults_per_round: settled.faults,
    };
    process.stderr.write(
      `realistic ${model} ${fx.kind}-${fx.n}: ${byteSplit} byte-split, ${toolCall} tool-call tokens; floor ${t.floor?.ns_per_token.toFixed(1)} utf8 floor ${t.floor_utf8?.ns_per_token.toFixed(1)} ours ${t.ours?.ns_per_token.toFixed(1)} burst8 ${t.ours_burst8?.ns_per_token.toFixed(1)} ns/token, ${faults.toFixed(1)} page faults/round; settled after ${settleRounds} rounds: floor ${settled.t.floor?.ns_per_token.toFixed(1)} ours ${settled.t.ours?.ns_per_token.toFixed(1)} burst8 ${settled.t.ours_burst8?.ns_per_token.toFixed(1)} ns/token, ${settled.faults.toFixed(1)} page faults/round\n`,
    );
  }
  out[model] = { rows };
}
reply(out);
