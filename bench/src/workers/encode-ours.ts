// Our encoder, in its own process (cold start measured first, like every baseline):
//   ours      = ChatTokenizer.encodeText(doc)   (public safe API: ordinary encoder + audit scan)
//   raw       = textModel.encode(doc)           (the bare ordinary encoder)
//   chat      = encodeChat({messages}) over conversations whose message contents are the same
//               docs (8 per conversation, user/assistant alternating, generation prompt on)
// Every round r, all three encode corpus part r (the part every baseline encodes in round r),
// each on its own tokenizer instance with an identical text history (equally warm caches), in
// alternating order; every ratio is a median of per-round PAIRED ratios on identical text.
// Cold start (the first thing this fresh process does): load + the first encodeChat + the
// first decoded token (compileDecoderSpecFor, createDecoder, push until the first text callback).
// With `cold`: encodeText rates on the cold corpus (random words; cache misses), afterwards.
import { readFileSync } from "node:fs";
import { compileDecoderSpecFor, createDecoder } from "@chatwire/stream-decoder";
import { Tiktoken } from "tiktoken";
import { fixturePath } from "../../../test-support/fixtures.ts";
import { FIRST_ENCODE_TEXT, heapUsedAfterGc, median, reply, request, SINK } from "../measure.ts";
import { chatRequest, loadOurs } from "../ours.ts";
import { qwen3TiktokenRanks } from "../peers.ts";

interface Req {
  model: "qwen3" | "internlm2" | "chatglm3";
  corpus: string;
  warmup: number;
  rounds: number;
  cold?: string;
  /** Qwen3 only: tiktoken WASM (Qwen3 ranks) as a PAIRED candidate in this same process. */
  pairTiktoken?: boolean;
  /** Only the cold start, then reply (the driver's table-file rows). */
  coldOnly?: boolean;
  /** false: load without table files (cacheDir: false): everything derived from the tokenizer file. */
  tables?: boolean;
  /** Table cache directory for this process (default: CHATWIRE_CACHE_DIR, set by the driver). */
  cacheDir?: string;
}
const req = request<Req>();
const parts = JSON.parse(readFileSync(req.corpus, "utf8")) as string[][];
const partChars = parts.map((docs) => docs.reduce((a, d) => a + d.length, 0));
const R = req.warmup + req.rounds;
if (parts.length < 3 * R) throw new Error("corpus has fewer than 3 x (warmup + rounds) parts");

// Our modules are imported before the clock starts, as every peer's are (their imports are
// static; SentencePiece C++ is imported before its clock in spm.py); the time is reported.
const tImport = performance.now();
const ourNode = await import("@chatwire/tokenizer/node");
const importMs = performance.now() - tImport;
const tables = req.tables !== false;
// What loadOurs does, with the module imported above: an import() inside the interval would
// resolve the specifier again (through the tsx loader hooks' thread), which no user pays.
const coldOptions = !tables
  ? { cacheDir: false as const }
  : req.cacheDir === undefined
    ? {}
    : { cacheDir: req.cacheDir };
const coldDir = req.model === "qwen3" ? "qwen3" : fixturePath(req.model);
const coldFormat = req.model === "qwen3" ? {} : { format: req.model };
const heap0 = heapUsedAfterGc();
const rss0 = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const tok = await ourNode.loadTokenizer(coldDir, { ...coldFormat, ...coldOptions });
const loadMs = performance.now() - t0;
const t1 = performance.now();
const firstChat = tok.encodeChat(chatRequest([FIRST_ENCODE_TEXT]));
const firstChatMs = performance.now() - t1;
const t2 = performance.now();
let firstText = "";
const spec = compileDecoderSpecFor(tok);
const dec = createDecoder(spec, {
  onText(text) {
    firstText ||= text;
  },
});
const replyIds = tok.textModel.encode("Hello");
for (let i = 0; i < replyIds.length && firstText === ""; i++) dec.push(replyIds[i] as number);
const firstDecodeMs = performance.now() - t2;
// CPU time of the whole cold-start interval (every thread of this process: V8's background
// compiler and GC helpers included), for the cold-start harness's CPU ratio.
const cpu1 = process.cpuUsage(cpu0);
const coldCpuMs = (cpu1.user + cpu1.system) / 1000;
SINK.v += firstChat.ids.length + firstText.length;
const heap1 = heapUsedAfterGc();
const rss1 = process.memoryUsage().rss;
if (req.coldOnly === true) {
  reply({
    lib: "ours",
    model: req.model,
    tables,
    import_ms: importMs,
    load_ms: loadMs,
    first_chat_encode_ms: firstChatMs,
    first_decode_ms: firstDecodeMs,
    cold_start_ms: loadMs + firstChatMs + firstDecodeMs,
    cold_start_cpu_ms: coldCpuMs,
    load_heap_bytes: heap1 - heap0,
    load_rss_bytes: rss1 - rss0,
  });
  process.exit(0);
}
// Independent instances for raw and chat; the first call on each is timed too (each builds
// its own lazy tables): first raw encode vs first chat encode of the same message text, on
// FIRST_PAIRS fresh instances per side, the order flipping pair by pair (neither side always
// runs after the other's first call has warmed shared code), CPU time of the process, after
// one full GC (heapUsedAfterGc: no sample inherits the collection debt of the loads; a GC
// before every sample would let the code between samples go cold and charge one side a
// recompile: bench/README.md, "Method"). A single first call is short on a
// SentencePiece model, mostly first touches of that instance's tables, so one pair swings
// several-fold: the ratio is of the medians over the pairs after the first (the first pair
// pays what is first in this process, whichever side it is). Each instance's load is timed
// (CPU) too, for the ratio with the load included: (load + first chat) / (load + first raw).
// `first_encode_ms` stays the wall time of the first raw call.
const FIRST_PAIRS = 6;
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const firstCpu = { raw: [] as number[], chat: [] as number[], load: [] as number[] };
const loadTimed = async (): Promise<typeof tok> => {
  const c = cpuMs();
  const t = await loadOurs(req.model, tables);
  firstCpu.load.push(cpuMs() - c);
  return t;
};
const tokRaw = await loadTimed();
const tokChat = await loadTimed();
let firstEncodeMs = 0;
{
  const raws = [tokRaw];
  const chats = [tokChat];
  for (let k = 1; k < FIRST_PAIRS; k++) {
    raws.push(await loadTimed());
    chats.push(await loadTimed());
  }
  const firstRaw = (t: typeof tok): number => {
    const c = cpuMs();
    const w = performance.now();
    SINK.v += t.textModel.encode(FIRST_ENCODE_TEXT).length;
    const wallMs = performance.now() - w;
    firstCpu.raw.push(cpuMs() - c);
    return wallMs;
  };
  const firstChatOn = (t: typeof tok): void => {
    const c = cpuMs();
    SINK.v += t.encodeChat(chatRequest([FIRST_ENCODE_TEXT])).ids.length;
    firstCpu.chat.push(cpuMs() - c);
  };
  heapUsedAfterGc();
  // The GC may drop process-wide caches (V8's RegExp compilation cache: Qwen3's split pattern
  // takes milliseconds to compile); one call of each kind on the warm `tok` refills them, so
  // the samples below measure what a fresh instance adds, not which side runs first.
  SINK.v += tok.textModel.encode(FIRST_ENCODE_TEXT).length;
  SINK.v += tok.encodeChat(chatRequest([FIRST_ENCODE_TEXT])).ids.length;
  for (let k = 0; k < FIRST_PAIRS; k++) {
    if (k % 2 === 0) {
      const w = firstRaw(raws[k] as typeof tok);
      if (k === 0) firstEncodeMs = w;
      firstChatOn(chats[k] as typeof tok);
    } else {
      firstChatOn(chats[k] as typeof tok);
      firstRaw(raws[k] as typeof tok);
    }
  }
}
// The ten instances only timed for their first call are garbage now: collected here, not by a
// full GC in the middle of the paired rounds below.
heapUsedAfterGc();
const firstMedian = (xs: readonly number[]): number => median(xs.slice(1));
const firstLoadMs = median(firstCpu.load);
tok.textModel.encode(FIRST_ENCODE_TEXT);

// Paired peer: tiktoken encodes the same part in the same round (it has no word cache, so
// sharing the text with ours is fair), alternating with ours; loaded after our cold start.
const tk =
  req.pairTiktoken === true
    ? (() => {
        const r = qwen3TiktokenRanks();
        return new Tiktoken(readFileSync(r.file, "utf8"), {}, r.pattern);
      })()
    : undefined;

const convs = parts.map((docs) => {
  const cs: ReturnType<typeof chatRequest>[] = [];
  for (let i = 0; i < docs.length; i += 8) cs.push(chatRequest(docs.slice(i, i + 8)));
  return cs;
});

const cands: Record<string, (r: number) => void> = {
  ours: (r) => {
    for (const d of parts[r] as string[]) SINK.v += tok.encodeText(d).ids.length;
  },
  raw: (r) => {
    for (const d of parts[r] as string[]) SINK.v += tokRaw.textModel.encode(d).length;
  },
  chat: (r) => {
    for (const c of convs[r] as ReturnType<typeof chatRequest>[]) SINK.v += tokChat.encodeChat(c).ids.length;
  },
};
if (tk !== undefined) {
  cands.tiktoken = (r) => {
    for (const d of parts[r] as string[]) SINK.v += tk.encode_ordinary(d).length;
  };
}
const names = Object.keys(cands);
// Wall time (ns) per round for the rates (chars/s, comparable with the other libraries' own
// processes), and CPU time of the process (µs, process.cpuUsage) for the paired ratios: on this
// shared machine a round is often descheduled for longer than it runs, which wall-clock pairs
// of one short part cannot tell from encoder cost.
const times: Record<string, number[]> = { ours: [], raw: [], chat: [], tiktoken: [] };
const cpuTimes: Record<string, number[]> = { ours: [], raw: [], chat: [], tiktoken: [] };
for (let r = 0; r < R; r++) {
  for (let j = 0; j < names.length; j++) {
    const name = names[(r + j) % names.length] as string;
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    (cands[name] as (r: number) => void)(r);
    const ns = Number(process.hrtime.bigint() - t);
    const cu = process.cpuUsage(c);
    if (r >= req.warmup) {
      (times[name] as number[]).push(ns);
      (cpuTimes[name] as number[]).push(cu.user + cu.system);
    }
  }
}
const rates = (k: string) =>
  (times[k] as number[]).map((ns, i) => (partChars[req.warmup + i] as number) / (ns / 1e9));
const rate = (k: string) => median(rates(k));
const pairedOn = (a: string, b: string, on: Record<string, number[]> = times) =>
  (on[a] as number[]).map((t, i) => t / ((on[b] as number[])[i] as number));
// Per-round pairs on identical fresh text (part r for both), CPU time: kept in the JSON, but one
// part is short and single samples swing on a shared machine, so chat_overhead_ratio
// comes from the steadier pool design below (also paired on identical text).
const fresh = pairedOn("chat", "raw", cpuTimes);
const textOverPaired = pairedOn("ours", "raw", cpuTimes);
// ours (encodeText) speed over tiktoken's, per round on the same part: time tiktoken / time ours,
// CPU time of the process like every other pair here (both sides are single-threaded; a round
// descheduled on this shared machine would swing a wall-clock pair).
const oursOverTiktoken = tk !== undefined ? pairedOn("tiktoken", "ours", cpuTimes) : undefined;
const poolParts = parts.slice(R, 3 * R);
const poolConvs = convs.slice(R, 3 * R);
// CPU time of this process (process.cpuUsage, µs), not wall time: on a shared machine a pass is
// often descheduled for longer than it runs, which would swing a wall-clock pair several-fold.
// Raw and chat alternate PER PART (a few ms each, the order flipping part by part and pass by
// pass), so a burst of load from other processes lands on both sides alike. Which side reads a
// part first matters (bench/README.md, section 2), so one sample is TWO consecutive passes with opposite
// orders: (chat CPU time) / (raw CPU time) summed over both, each part read first once by each
// side; POOL_SAMPLES samples. The per-pass ratios stay in the JSON (chat_overhead_passes).
const POOL_SAMPLES = 10;
const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const rawPart = (k: number): number => {
  const t = cpuUs();
  for (const d of poolParts[k] as string[]) SINK.v += tokRaw.textModel.encode(d).length;
  return cpuUs() - t;
};
const chatPart = (k: number): number => {
  const t = cpuUs();
  for (const c of poolConvs[k] as ReturnType<typeof chatRequest>[])
    SINK.v += tokChat.encodeChat(c).ids.length;
  return cpuUs() - t;
};
for (let k = 0; k < poolParts.length; k++) {
  rawPart(k);
  chatPart(k);
}
const paired: number[] = [];
const passes: number[] = [];
for (let sample = 0; sample < POOL_SAMPLES; sample++) {
  let raw = 0;
  let chat = 0;
  for (let pass = 0; pass < 2; pass++) {
    let passRaw = 0;
    let passChat = 0;
    for (let k = 0; k < poolParts.length; k++) {
      if ((pass + k) % 2 === 0) {
        passRaw += rawPart(k);
        passChat += chatPart(k);
      } else {
        passChat += chatPart(k);
        passRaw += rawPart(k);
      }
    }
    passes.push(passChat / passRaw);
    raw += passRaw;
    chat += passChat;
  }
  paired.push(chat / raw);
}

const out = {
  lib: "ours",
  model: req.model,
  chars_per_round: partChars.slice(req.warmup, req.warmup + req.rounds),
  chars_per_s: rate("ours"),
  raw_chars_per_s: rate("raw"),
  chat_chars_per_s: rate("chat"),
  chat_overhead_ratio: median(paired),
  chat_overhead_paired: paired,
  chat_overhead_passes: passes,
  chat_overhead_fresh_paired: fresh,
  encode_text_overhead_ratio: median(textOverPaired),
  encode_text_overhead_paired: textOverPaired,
  rounds_ns: times,
  rounds_cpu_us: cpuTimes,
  rates: { ours: rates("ours"), raw: rates("raw"), chat: rates("chat") },
  ...(oursOverTiktoken !== undefined
    ? {
        over_tiktoken_paired: oursOverTiktoken,
        over_tiktoken_ratio: median(oursOverTiktoken),
        tiktoken_chars_per_s: rate("tiktoken"),
      }
    : {}),
  import_ms: importMs,
  load_ms: loadMs,
  first_encode_ms: firstEncodeMs,
  first_chat_encode_ms: firstChatMs,
  first_decode_ms: firstDecodeMs,
  cold_start_ms: loadMs + firstChatMs + firstDecodeMs,
  first_chat_over_first_raw: firstMedian(firstCpu.chat) / firstMedian(firstCpu.raw),
  first_chat_over_first_raw_with_load:
    (firstLoadMs + firstMedian(firstCpu.chat)) / (firstLoadMs + firstMedian(firstCpu.raw)),
  first_call_cpu_ms: firstCpu,
  load_heap_bytes: heap1 - heap0,
  load_rss_bytes: rss1 - rss0,
};
if (req.cold !== undefined) {
  const cold = JSON.parse(readFileSync(req.cold, "utf8")) as string[][];
  const cr: number[] = [];
  const pairs: number[] = [];
  // Each side timed twice: wall time (ns) for the chars/s rate, CPU time of the process (µs)
  // for the paired ratio (as the mixed pair above).
  const timed = (encode: (d: string) => number, docs: readonly string[]): [number, number] => {
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    for (const d of docs) SINK.v += encode(d);
    const ns = Number(process.hrtime.bigint() - t);
    const cu = process.cpuUsage(c);
    return [ns, cu.user + cu.system];
  };
  const oursCold = (d: string): number => tok.encodeText(d).ids.length;
  const tkCold = (d: string): number => (tk as Tiktoken).encode_ordinary(d).length;
  for (let r = 0; r < R; r++) {
    const docs = cold[r] as string[];
    const chars = docs.reduce((a, d) => a + d.length, 0);
    // Alternating order; tiktoken has no cache, ours sees this cold part for the first time.
    let ns: number;
    let us: number;
    let tkUs = 0;
    if (tk === undefined) [ns, us] = timed(oursCold, docs);
    else if (r % 2 === 0) {
      [ns, us] = timed(oursCold, docs);
      tkUs = timed(tkCold, docs)[1];
    } else {
      tkUs = timed(tkCold, docs)[1];
      [ns, us] = timed(oursCold, docs);
    }
    if (r >= req.warmup) {
      cr.push(chars / (ns / 1e9));
      if (tk !== undefined) pairs.push(tkUs / us);
    }
  }
  Object.assign(out, { cold_rates: cr, cold_chars_per_s: median(cr) });
  if (tk !== undefined)
    Object.assign(out, { cold_over_tiktoken_paired: pairs, cold_over_tiktoken_ratio: median(pairs) });
}
process.stderr.write(
  `ours ${req.model} encode: ${(out.chars_per_s / 1e6).toFixed(2)} M chars/s, chat/raw ${out.chat_overhead_ratio.toFixed(3)}\n`,
);
reply(out);
