// Peers that read tiktoken-format ranks (tiktoken WASM): Qwen3's ordinary vocabulary as tiktoken
// ranks (a Qwen3 ID is its tiktoken rank: the vocabulary is byte-level BPE whose merge order is
// the ID order), built once from tokenizer.json into bench/out/qwen3.tiktoken, and the Qwen3
// pre-tokenizer pattern. Qwen3's NFC normalizer is not applied by these peers; the bench corpus
// is NFC already (checked in cold-corpus.ts / corpus.ts callers), so the IDs agree.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { outDir, qwen3TokenizerJson } from "./fixtures.ts";

interface TokenizerJson {
  model: { vocab: Record<string, number> };
  pre_tokenizer: { pretokenizers: { type: string; pattern?: { Regex: string } }[] };
}

/** GPT-2's bytes_to_unicode inverse: byte-level alphabet character -> byte. */
function unicodeToByte(): Map<number, number> {
  const bs: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  const m = new Map<number, number>();
  for (let i = 0; i < bs.length; i++) m.set(cs[i] as number, bs[i] as number);
  return m;
}

export interface TiktokenRanks {
  /** File in tiktoken's format: `base64(bytes) rank` per line. */
  file: string;
  pattern: string;
}

export function qwen3TiktokenRanks(): TiktokenRanks {
  const file = resolve(outDir, "qwen3.tiktoken");
  const json = JSON.parse(readFileSync(qwen3TokenizerJson(), "utf8")) as TokenizerJson;
  const split = json.pre_tokenizer.pretokenizers.find((p) => p.type === "Split");
  const pattern = split?.pattern?.Regex;
  if (pattern === undefined) throw new Error("qwen3 tokenizer.json: no Split pre-tokenizer");
  if (!existsSync(file)) {
    const inv = unicodeToByte();
    const lines: string[] = [];
    for (const [tok, id] of Object.entries(json.model.vocab)) {
      const bytes = Buffer.from([...tok].map((c) => inv.get(c.codePointAt(0) as number) as number));
      lines[id] = `${bytes.toString("base64")} ${id}`;
    }
    writeFileSync(file, `${lines.join("\n")}\n`);
  }
  return { file, pattern };
}
