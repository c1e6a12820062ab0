// Decoder baselines that re-decode with a reference tokenizer (one process per library):
//   lib "hf-js"      @huggingface/tokenizers (Qwen3 tokenizer.json)
//   lib "hf-rust"    npm `tokenizers` (HF Rust): the sync Decoder component on token strings,
//                    and (separately) the async Tokenizer.decode() per token
//   lib "spm-wasm"   sentencepiece-js (InternLM2 / ChatGLM3 tokenizer.model)
// Strategies:
//   window = TGI's decode_token / HF DecodeStream / transformers.js-style streaming:
//            prefix_text = decode(ids[prefix:read]); new_text = decode(ids[prefix:]);
//            emit new_text[len(prefix_text):] unless it ends in U+FFFD; then advance
//            prefix=read, read=len. Special tokens are NOT skipped (TGI's setting).
//   naive  = decode(ids[0:i+1]) for every new token, emit what is new. Quadratic, so it is
//            SAMPLED over the `window` positions just before `at` (e.g. 4032..4095 for
//            "at 4k"), starting from the already decoded prefix; ns/token is over those.
// Fresh state per sequence, warmup rounds, median of rounds, sink against DCE (measure.ts).
import tokenizers from "tokenizers";
import { loadFixture, qwen3TokenizerJson, spmModelPath } from "../fixtures.ts";
import { alternate, type Candidate, median, reply, request, SINK } from "../measure.ts";
import { loadHfJs, loadSpmWasm } from "../refs.ts";

interface Req {
  lib: "hf-js" | "hf-rust" | "spm-wasm";
  model: "qwen3" | "internlm2" | "chatglm3";
  fixtures: string[];
  asyncFixtures?: string[];
  naive?: { file: string; at: number; window: number; rounds: number }[];
  warmup: number;
  rounds: number;
  vocabSize?: number;
}

const req = request<Req>();
const emit = (s: string): void => {
  SINK.v += s.length;
};

type SyncDecode = (ids: number[]) => string;

function windowRun(decode: SyncDecode, ids: readonly number[]): number {
  const all: number[] = [];
  let prefix = 0;
  let read = 0;
  for (let i = 0; i < ids.length; i++) {
    all.push(ids[i] as number);
    const prefixText = read > prefix ? decode(all.slice(prefix, read)) : "";
    const newText = decode(all.slice(prefix));
    if (newText.length > prefixText.length && !newText.endsWith("\uFFFD")) {
      emit(newText.slice(prefixText.length));
      prefix = read;
      read = all.length;
    }
  }
  return ids.length;
}

async function windowRunAsync(
  decode: (ids: number[]) => Promise<string>,
  ids: readonly number[],
): Promise<number> {
  const all: number[] = [];
  let prefix = 0;
  let read = 0;
  for (let i = 0; i < ids.length; i++) {
    all.push(ids[i] as number);
    const prefixText = read > prefix ? await decode(all.slice(prefix, read)) : "";
    const newText = await decode(all.slice(prefix));
    if (newText.length > prefixText.length && !newText.endsWith("\uFFFD")) {
      emit(newText.slice(prefixText.length));
      prefix = read;
      read = all.length;
    }
  }
  return ids.length;
}

function naiveSample(decode: SyncDecode, ids: readonly number[], at: number, window: number, rounds: number) {
  const times: number[] = [];
  for (let r = 0; r < rounds + 1; r++) {
    let prevLen = decode(ids.slice(0, at - window)).length;
    const t0 = process.hrtime.bigint();
    for (let i = at - window; i < at; i++) {
      const text = decode(ids.slice(0, i + 1));
      emit(text.slice(prevLen));
      prevLen = text.length;
    }
    const ns = Number(process.hrtime.bigint() - t0) / window;
    if (r > 0) times.push(ns);
  }
  return { ns_per_token: median(times), rounds_ns_per_token: times, positions: [at - window, at - 1] };
}

async function main() {
  let decode: SyncDecode;
  let decodeAsync: ((ids: number[]) => Promise<string>) | undefined;
  const t0 = performance.now();
  if (req.lib === "hf-js") {
    const hf = loadHfJs(qwen3TokenizerJson());
    decode = (ids) => hf.decode(ids, { skip_special_tokens: false });
  } else if (req.lib === "hf-rust") {
    const tok = tokenizers.Tokenizer.fromFile(qwen3TokenizerJson());
    const dec = tok.getDecoder();
    if (!dec) throw new Error("Qwen3 tokenizer.json has no decoder");
    const size = tok.getVocabSize(true);
    const table: string[] = [];
    for (let i = 0; i < size; i++) table.push(tok.idToToken(i) ?? "");
    decode = (ids) => dec.decode(ids.map((id) => table[id] as string));
    decodeAsync = (ids) => tok.decode(ids, false);
  } else {
    const sp = await loadSpmWasm(spmModelPath(req.model as "internlm2" | "chatglm3"));
    decode = (ids) => sp.decodeIds(ids);
  }
  const loadMs = performance.now() - t0;
  // Reserved IDs outside the SentencePiece model (ChatGLM3 64789+) cannot be given to the
  // WASM decoder; the baseline sees them as </s> (a control piece that decodes to "").
  const prep = (ids: number[]): number[] =>
    req.vocabSize !== undefined ? ids.map((id) => (id >= (req.vocabSize as number) ? 2 : id)) : ids;
  const out: Record<string, unknown> = {
    lib: req.lib,
    model: req.model,
    load_ms: loadMs,
    window: {},
    window_async: {},
  };
  for (const file of req.fixtures) {
    const fx = loadFixture(file);
    const ids = prep(fx.ids);
    const cand: Candidate = { name: "window", run: () => windowRun(decode, ids) };
    const t = await alternate([cand], { warmup: req.warmup, rounds: req.rounds });
    (out.window as Record<string, unknown>)[`${fx.kind}-${fx.n}`] = t.window;
    process.stderr.write(
      `${req.lib} ${req.model} window ${fx.kind}-${fx.n}: ${t.window?.ns_per_token.toFixed(0)} ns/token\n`,
    );
  }
  if (decodeAsync) {
    const da = decodeAsync;
    for (const file of req.asyncFixtures ?? []) {
      const fx = loadFixture(file);
      const ids = prep(fx.ids);
      const cand: Candidate = { name: "async", run: () => windowRunAsync(da, ids) };
      const t = await alternate([cand], { warmup: 1, rounds: Math.max(2, req.rounds - 2) });
      (out.window_async as Record<string, unknown>)[`${fx.kind}-${fx.n}`] = t.async;
      process.stderr.write(
        `${req.lib} async window ${fx.kind}-${fx.n}: ${t.async?.ns_per_token.toFixed(0)} ns/token\n`,
      );
    }
  }
  const naive: Record<string, unknown> = {};
  for (const nv of req.naive ?? []) {
    const fx = loadFixture(nv.file);
    const r = naiveSample(decode, prep(fx.ids), nv.at, nv.window, nv.rounds);
    naive[String(nv.at)] = r;
    process.stderr.write(`${req.lib} ${req.model} naive @${nv.at}: ${r.ns_per_token.toFixed(0)} ns/token\n`);
  }
  out.naive = naive;
  reply(out);
}

await main();
