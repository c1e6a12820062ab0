// A GGUF writer for tests: v3 metadata (typed values and arrays), no tensors. Built from the
// format description (ggml docs/gguf.md), independent of src/models/gguf/reader.ts.
import { BYTE_TO_CHAR } from "../src/models/bytelevel/index.ts";

export type Kv =
  | { key: string; type: "string"; value: string }
  | { key: string; type: "u32" | "i32" | "f32" | "u8"; value: number }
  | { key: string; type: "u64"; value: bigint }
  | { key: string; type: "bool"; value: boolean }
  | { key: string; type: "array"; of: "string"; value: string[] }
  | { key: string; type: "array"; of: "i32" | "f32"; value: number[] };

const CODE = { u8: 0, u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10 } as const;

export function writeGguf(kvs: readonly Kv[], version = 3): Uint8Array {
  const parts: number[] = [];
  const u8 = (v: number): void => {
    parts.push(v & 0xff);
  };
  const u32 = (v: number): void => {
    for (let i = 0; i < 4; i++) u8(v >>> (8 * i));
  };
  const u64 = (v: bigint): void => {
    for (let i = 0n; i < 8n; i++) u8(Number((v >> (8n * i)) & 0xffn));
  };
  const f32 = (v: number): void => {
    const b = new Uint8Array(new Float32Array([v]).buffer);
    for (const x of b) u8(x);
  };
  const str = (s: string): void => {
    const b = new TextEncoder().encode(s);
    u64(BigInt(b.length));
    for (const x of b) u8(x);
  };
  // One writer per value type, for a value and for each element of an array.
  const value: Record<Exclude<Kv["type"], "array">, (v: string | number | bigint | boolean) => void> = {
    string: (v) => str(v as string),
    u8: (v) => u8(v as number),
    u32: (v) => u32(v as number),
    i32: (v) => u32((v as number) >>> 0),
    f32: (v) => f32(v as number),
    u64: (v) => u64(v as bigint),
    bool: (v) => u8(v ? 1 : 0),
  };
  for (const c of "GGUF") u8(c.charCodeAt(0));
  u32(version);
  u64(0n);
  u64(BigInt(kvs.length));
  for (const kv of kvs) {
    str(kv.key);
    u32(CODE[kv.type]);
    if (kv.type !== "array") {
      value[kv.type](kv.value);
      continue;
    }
    u32(CODE[kv.of]);
    u64(BigInt(kv.value.length));
    for (const v of kv.value) value[kv.of](v);
  }
  return Uint8Array.from(parts);
}

/**
 * A tiny byte-level ("gpt2") vocabulary: the 256 byte symbols, a few merges, <|endoftext|>
 * (CONTROL) and <tool> (USER_DEFINED), a chat template.
 */
export function tinyGpt2Kvs(
  template = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}",
): Kv[] {
  const tokens = [...BYTE_TO_CHAR.slice(0, 256)] as string[];
  const merges = ["h e", "l l", "he ll", "hell o", "Ġ w"];
  for (const m of merges) tokens.push(m.replace(" ", ""));
  const types = tokens.map(() => 1);
  for (const [t, type] of [
    ["<|endoftext|>", 3],
    ["<|im_start|>", 3],
    ["<|im_end|>", 3],
    ["<tool>", 4],
  ] as const) {
    tokens.push(t);
    types.push(type);
  }
  return [
    { key: "general.architecture", type: "string", value: "llama" },
    ...gpt2Kvs({ pre: "qwen2", tokens, types, merges, eos: "<|im_end|>", bos: "<|endoftext|>" }),
    { key: "tokenizer.chat_template", type: "string", value: template },
  ];
}

/**
 * A byte-level vocabulary with symbols outside it, for llama.cpp's rule: no symbol for byte 0x03
 * ("ă") nor for "x"; merges through pieces that are not tokens ("ab c" -> "abc", "ă a" -> "ăa"
 * where only "ăa" is a token, "q ă"); "d e" listed twice around "e f" (llama.cpp keeps the
 * first rank, HF the last). `extra` (e.g. a model's hyper-parameters) is added as given.
 */
export function outsideSymbolsGpt2Kvs(extra: readonly Kv[] = []): Kv[] {
  const missing = new Set([BYTE_TO_CHAR[3] as string, "x"]);
  const tokens = (BYTE_TO_CHAR.slice(0, 256) as string[]).filter((t) => !missing.has(t));
  const merges = ["a b", "d e", "e f", "d e", "ab c", `${BYTE_TO_CHAR[3]} a`, `q ${BYTE_TO_CHAR[3]}`, "Ġ d"];
  tokens.push("ab", "de", "ef", `${BYTE_TO_CHAR[3]}a`, "Ġd", "<|endoftext|>");
  const types = tokens.map((t) => (t === "<|endoftext|>" ? 3 : 1));
  return [
    ...extra,
    ...gpt2Kvs({ pre: "gpt-2", tokens, types, merges, eos: "<|endoftext|>", bos: "<|endoftext|>" }),
  ];
}

/** The tokenizer keys of a byte-level ("gpt2") vocabulary; eos and bos by their token strings. */
function gpt2Kvs(v: {
  pre: string;
  tokens: string[];
  types: number[];
  merges: string[];
  eos: string;
  bos: string;
}): Kv[] {
  return [
    { key: "tokenizer.ggml.model", type: "string", value: "gpt2" },
    { key: "tokenizer.ggml.pre", type: "string", value: v.pre },
    { key: "tokenizer.ggml.tokens", type: "array", of: "string", value: v.tokens },
    { key: "tokenizer.ggml.token_type", type: "array", of: "i32", value: v.types },
    { key: "tokenizer.ggml.merges", type: "array", of: "string", value: v.merges },
    { key: "tokenizer.ggml.eos_token_id", type: "u32", value: v.tokens.indexOf(v.eos) },
    { key: "tokenizer.ggml.bos_token_id", type: "u32", value: v.tokens.indexOf(v.bos) },
  ];
}
