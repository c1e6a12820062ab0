#!/usr/bin/env node
// Writes a tiny random-weight GGUF v3 model with the real Qwen3 vocabulary, for the
// node-llama-cpp engine's tests and the `chatwire serve` demo:
//   node scripts/make-tiny-gguf.js OUT.gguf [--seed N] [--chat-template FILE | --no-chat-template]
// Architecture "llama": 1 layer, 32-wide embeddings, 4 heads (head dim 8), FFN 64; 2-D weights
// f16, norm weights f32 (llama.cpp's CPU kernels want f32 norms). Vocabulary from the Qwen3
// tokenizer.json of @chatwire/tokenizer-qwen3 (151,669 tokens, no padding rows): the
// tokenizer.ggml.* keys carry tokens, merges, token types (NORMAL; added special -> CONTROL;
// added non-special such as <think>, <tool_call> -> USER_DEFINED, as llama.cpp's HF converter
// does) and pre = "qwen2", the special tokens (bos = pad = <|endoftext|>, eos = <|im_end|>,
// add_bos false) and tokenizer.chat_template (Qwen3's, from its tokenizer_config.json, or FILE):
// the file alone is enough to serve it (`chatwire serve --engine llama-cpp --model OUT.gguf`). Weights come from a seeded PRNG (mulberry32; default seed 12), so the
// file is byte-identical for a seed. Its output is random tokens: robustness input for the decoder.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const out = args.find((a) => !a.startsWith("--"));
const seedAt = args.indexOf("--seed");
const seed = seedAt === -1 ? 12 : Number(args[seedAt + 1]);
const templateAt = args.indexOf("--chat-template");
const templateFile = templateAt === -1 ? undefined : args[templateAt + 1];
if (out === undefined || !Number.isInteger(seed) || (templateAt !== -1 && templateFile === undefined)) {
  process.stderr.write(
    "usage: node scripts/make-tiny-gguf.js OUT.gguf [--seed N] [--chat-template FILE | --no-chat-template]\n",
  );
  process.exit(2);
}

const qwenDir = createRequire(join(root, "package.json"))(
  join(root, "packages", "tokenizer-qwen3", "dir.cjs"),
);
const tj = JSON.parse(readFileSync(join(qwenDir, "tokenizer.json"), "utf8"));
const chatTemplate = args.includes("--no-chat-template")
  ? undefined
  : templateFile !== undefined
    ? readFileSync(templateFile, "utf8")
    : JSON.parse(readFileSync(join(qwenDir, "tokenizer_config.json"), "utf8")).chat_template;

// ---- vocabulary
const added = new Map(tj.added_tokens.map((t) => [t.id, t]));
let nVocab = 0;
for (const id of [...Object.values(tj.model.vocab), ...added.keys()]) if (id + 1 > nVocab) nVocab = id + 1;
const tokens = new Array(nVocab);
const types = new Int32Array(nVocab).fill(1); // NORMAL
for (const [piece, id] of Object.entries(tj.model.vocab)) tokens[id] = piece;
for (const [id, t] of added) {
  tokens[id] = t.content;
  types[id] = t.special ? 3 : 4; // CONTROL : USER_DEFINED
}
for (let i = 0; i < nVocab; i++) if (tokens[i] === undefined) throw new Error(`no token for id ${i}`);
const merges = tj.model.merges.map((m) => (Array.isArray(m) ? m.join(" ") : m));

// ---- hyper-parameters
const E = 32;
const HEADS = 4;
const FF = 64;

// ---- seeded PRNG and f16
let state = seed >>> 0;
function rand() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function toHalf(v) {
  f32[0] = v;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  const mant = x & 0x7fffff;
  if (exp <= 0) return sign; // tiny -> signed zero (weights here are never that small)
  if (exp >= 31) return sign | 0x7c00;
  // round to nearest
  let h = sign | (exp << 10) | (mant >>> 13);
  if (mant & 0x1000) h++;
  return h;
}
function f16Tensor(n, scale) {
  const b = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) b.writeUInt16LE(toHalf((rand() * 2 - 1) * scale), i * 2);
  return b;
}
function f32Ones(n) {
  const b = Buffer.alloc(n * 4);
  for (let i = 0; i < n; i++) b.writeFloatLE(1, i * 4);
  return b;
}

// ---- GGUF writer
const T = { U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const parts = [];
const u32b = (v) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
const u64b = (v) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(v));
  return b;
};
const str = (s) => {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([u64b(b.length), b]);
};
const kvs = [];
const kv = (key, type, value) => kvs.push(Buffer.concat([str(key), u32b(type), value]));
const f32b = (v) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(v);
  return b;
};
const strArray = (list) => Buffer.concat([u32b(T.STRING), u64b(list.length), ...list.map(str)]);

kv("general.architecture", T.STRING, str("llama"));
kv("general.name", T.STRING, str("chatwire tiny random Qwen3-vocabulary model"));
kv("general.alignment", T.U32, u32b(32));
kv("llama.context_length", T.U32, u32b(4096));
kv("llama.embedding_length", T.U32, u32b(E));
kv("llama.block_count", T.U32, u32b(1));
kv("llama.feed_forward_length", T.U32, u32b(FF));
kv("llama.attention.head_count", T.U32, u32b(HEADS));
kv("llama.attention.head_count_kv", T.U32, u32b(HEADS));
kv("llama.attention.layer_norm_rms_epsilon", T.F32, f32b(1e-6));
kv("llama.rope.freq_base", T.F32, f32b(1_000_000));
kv("llama.rope.dimension_count", T.U32, u32b(E / HEADS));
kv("llama.vocab_size", T.U32, u32b(nVocab));
kv("tokenizer.ggml.model", T.STRING, str("gpt2"));
kv("tokenizer.ggml.pre", T.STRING, str("qwen2"));
kv("tokenizer.ggml.tokens", T.ARRAY, strArray(tokens));
kv(
  "tokenizer.ggml.token_type",
  T.ARRAY,
  Buffer.concat([u32b(T.I32), u64b(nVocab), Buffer.from(types.buffer, types.byteOffset, types.byteLength)]),
);
kv("tokenizer.ggml.merges", T.ARRAY, strArray(merges));
kv("tokenizer.ggml.eos_token_id", T.U32, u32b(151645));
kv("tokenizer.ggml.padding_token_id", T.U32, u32b(151643));
kv("tokenizer.ggml.bos_token_id", T.U32, u32b(151643));
kv("tokenizer.ggml.add_bos_token", T.BOOL, Buffer.from([0]));
if (typeof chatTemplate === "string") kv("tokenizer.chat_template", T.STRING, str(chatTemplate));

const F32 = 0;
const F16 = 1;
const tensors = [
  ["token_embd.weight", [E, nVocab], F16, () => f16Tensor(E * nVocab, 1)],
  ["output_norm.weight", [E], F32, () => f32Ones(E)],
  ["output.weight", [E, nVocab], F16, () => f16Tensor(E * nVocab, 1)],
  ["blk.0.attn_norm.weight", [E], F32, () => f32Ones(E)],
  ["blk.0.attn_q.weight", [E, E], F16, () => f16Tensor(E * E, 0.3)],
  ["blk.0.attn_k.weight", [E, E], F16, () => f16Tensor(E * E, 0.3)],
  ["blk.0.attn_v.weight", [E, E], F16, () => f16Tensor(E * E, 0.3)],
  ["blk.0.attn_output.weight", [E, E], F16, () => f16Tensor(E * E, 0.3)],
  ["blk.0.ffn_norm.weight", [E], F32, () => f32Ones(E)],
  ["blk.0.ffn_gate.weight", [E, FF], F16, () => f16Tensor(E * FF, 0.3)],
  ["blk.0.ffn_up.weight", [E, FF], F16, () => f16Tensor(E * FF, 0.3)],
  ["blk.0.ffn_down.weight", [FF, E], F16, () => f16Tensor(FF * E, 0.3)],
];
const ALIGN = 32;
const pad = (n) => (ALIGN - (n % ALIGN)) % ALIGN;
const datas = tensors.map((t) => t[3]());
const infos = [];
let offset = 0;
tensors.forEach(([name, dims, type], i) => {
  infos.push(Buffer.concat([str(name), u32b(dims.length), ...dims.map(u64b), u32b(type), u64b(offset)]));
  offset += datas[i].length + pad(datas[i].length);
});

parts.push(Buffer.from("GGUF", "ascii"), u32b(3), u64b(tensors.length), u64b(kvs.length), ...kvs, ...infos);
let size = parts.reduce((s, b) => s + b.length, 0);
parts.push(Buffer.alloc(pad(size)));
for (const d of datas) parts.push(d, Buffer.alloc(pad(d.length)));
const fd = openSync(out, "w");
for (const p of parts) writeSync(fd, p);
closeSync(fd);
size = parts.reduce((s, b) => s + b.length, 0);
process.stdout.write(
  `${out}: ${(size / 1e6).toFixed(1)} MB, vocab ${nVocab}, ${merges.length} merges, seed ${seed}\n`,
);
