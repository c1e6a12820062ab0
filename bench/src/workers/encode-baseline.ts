// Encode throughput of one baseline library, in its own process (cold load measured first):
//   lib "hf-js"    @huggingface/tokenizers  tokenizer.encode(doc, {add_special_tokens:false})
//   lib "hf-rust"  npm `tokenizers`         await tokenizer.encode(doc, null, {addSpecialTokens:false})
//                  one doc at a time (sequential, like a server encoding one prompt), plus
//                  encodeBatch of all docs (uses the Rust thread pool: both cores) separately
//   lib "spm-wasm" sentencepiece-js         sp.encodeIds(doc)
//   lib "tiktoken" tiktoken (WASM)          enc.encode_ordinary(doc), Qwen3's ranks (peers.ts)
//   lib "js-tiktoken"   js-tiktoken (pure JS, lite entry)         enc.encode(doc), Qwen3's ranks
//   lib "gpt-tokenizer" gpt-tokenizer's BytePairEncodingCore     core.encodeNative(doc), Qwen3's ranks
//                  (the three rank-based peers' IDs are checked against HF Rust on the corpus by
//                  encode-peercheck.ts before the driver times them)
// Cold start = load + first encode + first decoded token (decode of one ID to text), timed
// right at the start of this fresh process. With `cold`, also the rate on the cold corpus
// (random words: cache misses), rounds after the mixed ones.
// Same corpus file for everyone (bench/out/corpus-*.json); chars = JS string length (UTF-16
// code units) summed over docs; median of rounds after warmup; sink against DCE.
import { readFileSync } from "node:fs";
import tokenizers from "tokenizers";
import { qwen3TokenizerJson, spmModelPath } from "../fixtures.ts";
import { FIRST_ENCODE_TEXT, heapUsedAfterGc, median, reply, request, SINK } from "../measure.ts";
import { loadPeer, type PeerLib, peerModules, preparePeerFiles } from "../peers.ts";
import { loadHfJs, loadSpmWasm } from "../refs.ts";

interface Req {
  lib: "hf-js" | "hf-rust" | "spm-wasm" | PeerLib;
  model: "qwen3" | "internlm2" | "chatglm3";
  corpus: string;
  warmup: number;
  rounds: number;
  cold?: string;
}
const req = request<Req>();
const parts = JSON.parse(readFileSync(req.corpus, "utf8")) as string[][];
const partChars = parts.map((docs) => docs.reduce((a, d) => a + d.length, 0));
if (parts.length < req.warmup + req.rounds) throw new Error("corpus has fewer parts than rounds");

// Built before the clock starts (a one-time conversion, not part of a peer's load), and the
// peers' modules imported (as every library's import is, before the clock).
const rankBased = req.lib === "tiktoken" || req.lib === "js-tiktoken" || req.lib === "gpt-tokenizer";
if (rankBased) preparePeerFiles();
const mods = rankBased ? await peerModules() : undefined;
const heap0 = heapUsedAfterGc();
const rss0 = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let encodeOne: (doc: string) => number | Promise<number>;
let batch: ((docs: string[]) => Promise<number>) | undefined;
let firstIds: (doc: string) => ArrayLike<number> | Promise<ArrayLike<number>>;
let decodeOne: (id: number) => string | Promise<string>;
if (req.lib === "hf-js") {
  const hf = loadHfJs(qwen3TokenizerJson());
  encodeOne = (d) => hf.encode(d, { add_special_tokens: false }).ids.length;
  firstIds = (d) => hf.encode(d, { add_special_tokens: false }).ids;
  decodeOne = (id) => hf.decode([id]);
} else if (req.lib === "hf-rust") {
  const tok = tokenizers.Tokenizer.fromFile(qwen3TokenizerJson());
  encodeOne = async (d) => (await tok.encode(d, null, { addSpecialTokens: false })).getIds().length;
  firstIds = async (d) => (await tok.encode(d, null, { addSpecialTokens: false })).getIds();
  decodeOne = (id) => tok.decode([id], false);
  batch = async (docs: string[]) =>
    (await tok.encodeBatch(docs, { addSpecialTokens: false })).reduce((a, e) => a + e.getLength(), 0);
} else if (req.lib === "tiktoken" || req.lib === "js-tiktoken" || req.lib === "gpt-tokenizer") {
  const peer = loadPeer(req.lib, mods as NonNullable<typeof mods>);
  encodeOne = (d) => peer.encode(d).length;
  firstIds = (d) => peer.encode(d);
  decodeOne = (id) => peer.decodeOne(id);
} else {
  const sp = await loadSpmWasm(spmModelPath(req.model as "internlm2" | "chatglm3"));
  encodeOne = (d) => sp.encodeIds(d).length;
  firstIds = (d) => sp.encodeIds(d);
  decodeOne = (id) => sp.decodeIds([id]);
}
const loadMs = performance.now() - t0;
// The first encode right after load: lazy structures (if any) are built here; then the first
// decoded token (one ID of that encoding back to text).
const t1 = performance.now();
const ids0 = await firstIds(FIRST_ENCODE_TEXT);
const firstEncodeMs = performance.now() - t1;
const t2 = performance.now();
SINK.v += (await decodeOne(ids0[0] as number)).length;
const firstDecodeMs = performance.now() - t2;
// CPU time of the cold-start interval (every thread), as encode-ours.ts reports it.
const cpu1 = process.cpuUsage(cpu0);
const heap1 = heapUsedAfterGc();
const rss1 = process.memoryUsage().rss;

async function round(docs: string[]): Promise<number> {
  const t = process.hrtime.bigint();
  for (const d of docs) {
    const n = encodeOne(d);
    SINK.v += typeof n === "number" ? n : await n;
  }
  return Number(process.hrtime.bigint() - t);
}
// Round r encodes corpus part r: every round sees text it has not seen before.
const times: number[] = [];
const rates: number[] = [];
for (let r = 0; r < req.warmup + req.rounds; r++) {
  const ns = await round(parts[r] as string[]);
  if (r >= req.warmup) {
    times.push(ns);
    rates.push((partChars[r] as number) / (ns / 1e9));
  }
}
const out: Record<string, unknown> = {
  lib: req.lib,
  model: req.model,
  chars_per_round: partChars.slice(req.warmup, req.warmup + req.rounds),
  chars_per_s: median(rates),
  rates,
  rounds_ns: times,
  load_ms: loadMs,
  first_encode_ms: firstEncodeMs,
  first_decode_ms: firstDecodeMs,
  cold_start_ms: loadMs + firstEncodeMs + firstDecodeMs,
  cold_start_cpu_ms: (cpu1.user + cpu1.system) / 1000,
  load_heap_bytes: heap1 - heap0,
  load_rss_bytes: rss1 - rss0,
};
if (batch) {
  const b = batch;
  const bt: number[] = [];
  for (let r = 0; r < req.warmup + req.rounds; r++) {
    const t = process.hrtime.bigint();
    SINK.v += await b(parts[r] as string[]);
    if (r >= req.warmup) bt.push((partChars[r] as number) / (Number(process.hrtime.bigint() - t) / 1e9));
  }
  out.batch_chars_per_s = median(bt);
}
if (req.cold !== undefined) {
  const cold = JSON.parse(readFileSync(req.cold, "utf8")) as string[][];
  const cr: number[] = [];
  for (let r = 0; r < req.warmup + req.rounds; r++) {
    const docs = cold[r] as string[];
    const ns = await round(docs);
    if (r >= req.warmup) cr.push(docs.reduce((a, d) => a + d.length, 0) / (ns / 1e9));
  }
  out.cold_rates = cr;
  out.cold_chars_per_s = median(cr);
}
process.stderr.write(
  `${req.lib} ${req.model} encode: ${((out.chars_per_s as number) / 1e6).toFixed(2)} M chars/s\n`,
);
reply(out);
