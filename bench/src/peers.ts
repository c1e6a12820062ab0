// Peers that read tiktoken-style ranks: tiktoken (WASM), js-tiktoken (pure JS) and gpt-tokenizer's
// BytePairEncodingCore, all loaded with Qwen3's ordinary vocabulary as ranks (a Qwen3 ID is its
// tiktoken rank: the vocabulary is byte-level BPE whose merge order is the ID order), built once
// from tokenizer.json into bench/out/ (qwen3.tiktoken, qwen3.js-tiktoken.txt,
// qwen3.gpt-tokenizer.json), and the Qwen3 pre-tokenizer pattern (for the two JS peers translated
// to a JS RegExp: jsSplitRegex). Qwen3's NFC normalizer is not applied by these peers. None of
// this is trusted: workers/encode-peercheck.ts compares every peer's IDs with HF Rust
// `tokenizers` (the reference) on the whole bench corpus before any peer is timed, and the driver
// drops a peer whose IDs differ anywhere.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { unicodeToByte } from "../../test-vectors/gen/byte-alphabet.mjs";
import { outDir, qwen3TokenizerJson } from "./fixtures.ts";

interface TokenizerJson {
  model: { vocab: Record<string, number> };
  pre_tokenizer: { pretokenizers: { type: string; pattern?: { Regex: string } }[] };
}

export interface TiktokenRanks {
  /** File in tiktoken's format: `base64(bytes) rank` per line. */
  file: string;
  pattern: string;
}

let ranksMemo: TiktokenRanks | undefined;

/**
 * The tiktoken rank file (written on first use) and Qwen3's split pattern. Memoized: the pattern
 * comes from the 11 MB tokenizer.json, whose JSON.parse is no part of any peer's load, so the
 * workers call preparePeerFiles() before their clocks and loadPeer() reads the memo.
 */
export function qwen3TiktokenRanks(): TiktokenRanks {
  if (ranksMemo !== undefined) return ranksMemo;
  const file = resolve(outDir, "qwen3.tiktoken");
  const json = JSON.parse(readFileSync(qwen3TokenizerJson(), "utf8")) as TokenizerJson;
  const split = json.pre_tokenizer.pretokenizers.find((p) => p.type === "Split");
  const pattern = split?.pattern?.Regex;
  if (pattern === undefined) throw new Error("qwen3 tokenizer.json: no Split pre-tokenizer");
  if (!existsSync(file)) {
    const inv = unicodeToByte();
    const lines: string[] = [];
    for (const [tok, id] of Object.entries(json.model.vocab)) {
      const bytes = Buffer.from([...tok].map((c) => inv.get(c) as number));
      lines[id] = `${bytes.toString("base64")} ${id}`;
    }
    writeFileSync(file, `${lines.join("\n")}\n`);
  }
  ranksMemo = { file, pattern };
  return ranksMemo;
}

/** Qwen3's split pattern (the Split pre-tokenizer's regex in tokenizer.json). */
export function qwen3SplitPattern(): string {
  return qwen3TiktokenRanks().pattern;
}

/**
 * The Qwen3 split pattern as a JS RegExp (flags "gu") for the pure-JS peers: the one construct JS
 * lacks, a case-insensitive group `(?i:...)` of literal alternatives, is written out with
 * character classes (`'re` -> `'[rR][eE]`), as js-tiktoken and gpt-tokenizer do for cl100k.
 * Throws on any other inline flag.
 */
export function jsSplitRegex(pattern: string): RegExp {
  const out = pattern.replace(/\(\?i:([^()]*)\)/g, (_, body: string) => {
    const alts = body
      .split("|")
      .map((alt) =>
        [...alt].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c)).join(""),
      );
    return `(?:${alts.join("|")})`;
  });
  if (out.includes("(?i")) throw new Error(`split pattern has an inline flag JS lacks: ${pattern}`);
  return new RegExp(out, "gu");
}

/** Qwen3's end-of-text token, the one special token the JS peers are given (it never occurs in the corpus). */
export const QWEN3_EOT: readonly [string, number] = ["<|endoftext|>", 151643];

function rankLines(): string[] {
  return readFileSync(qwen3TiktokenRanks().file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
}

/**
 * js-tiktoken's `TiktokenBPE`: `bpe_ranks` in its compressed form (lines "! <first rank> <base64>
 * <base64> ...", consecutive ranks), written once to bench/out/qwen3.js-tiktoken.txt.
 */
export function qwen3JsTiktokenFile(): string {
  const file = resolve(outDir, "qwen3.js-tiktoken.txt");
  if (!existsSync(file)) {
    const lines: string[] = [];
    let first = -1;
    let prev = -2;
    let run: string[] = [];
    for (const l of rankLines()) {
      const [b64, r] = l.split(" ") as [string, string];
      const rank = Number(r);
      if (rank !== prev + 1) {
        if (run.length) lines.push(`! ${first} ${run.join(" ")}`);
        first = rank;
        run = [];
      }
      run.push(b64);
      prev = rank;
    }
    if (run.length) lines.push(`! ${first} ${run.join(" ")}`);
    writeFileSync(file, `${lines.join("\n")}\n`);
  }
  return file;
}

/**
 * gpt-tokenizer's `bytePairRankDecoder`: index = rank, value = the token's text when its bytes are
 * valid UTF-8 (as gpt-tokenizer's own encodings store them: its string map is looked up first),
 * else its bytes; written once to bench/out/qwen3.gpt-tokenizer.json.
 */
export function qwen3GptTokenizerFile(): string {
  const file = resolve(outDir, "qwen3.gpt-tokenizer.json");
  if (!existsSync(file)) {
    const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const ranks: (string | number[])[] = [];
    for (const l of rankLines()) {
      const [b64, r] = l.split(" ") as [string, string];
      const bytes = Buffer.from(b64, "base64");
      let v: string | number[];
      try {
        v = strict.decode(bytes);
      } catch {
        v = [...bytes];
      }
      ranks[Number(r)] = v;
    }
    writeFileSync(file, JSON.stringify(ranks));
  }
  return file;
}

/**
 * The same ranks as qwen3GptTokenizerFile() in the layout of gpt-tokenizer's own rank modules
 * (its bpeRanks/*.js: array literals concatenated, `export default`), which its encodings import;
 * written once to bench/out/qwen3.gpt-tokenizer.js.
 */
export function qwen3GptTokenizerModule(): string {
  const file = resolve(outDir, "qwen3.gpt-tokenizer.js");
  if (!existsSync(file)) {
    const ranks = JSON.parse(readFileSync(qwen3GptTokenizerFile(), "utf8")) as unknown[];
    const half = Math.ceil(ranks.length / 2);
    const literal = (part: unknown[]): string =>
      `[\n${part.map((v) => `\t${JSON.stringify(v)}`).join(",\n")}\n]`;
    writeFileSync(
      file,
      `const c0 = ${literal(ranks.slice(0, half))};\nconst c1 = ${literal(ranks.slice(half))};\n` +
        "/** @type {(string | number[])[]} */\nconst bpe = c0.concat(c1);\nc0.length = 0;\nc1.length = 0;\n" +
        "export { bpe as default };\n",
    );
  }
  return file;
}

/**
 * One long "word" for the quadratic-growth rows: `chars` UTF-16 units of pseudo-random common CJK
 * ideographs (one \p{L}+ run: a single pre-token of 3 bytes per character) or of random ASCII
 * lowercase letters (a single pre-token of 1 byte per character). Deterministic (fixed LCG seed).
 */
export function longWord(kind: "cjk" | "ascii", chars: number): string {
  let x = 0x2545f491;
  const next = (): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 8;
  };
  const out: string[] = [];
  for (let i = 0; i < chars; i++)
    out.push(String.fromCharCode(kind === "cjk" ? 0x4e00 + (next() % 0x3000) : 0x61 + (next() % 26)));
  return out.join("");
}

export type PeerLib = "tiktoken" | "js-tiktoken" | "gpt-tokenizer";
export const PEER_LIBS: readonly PeerLib[] = ["tiktoken", "js-tiktoken", "gpt-tokenizer"];

/** Imports a module, or undefined when it is not installed (the peer rows are optional). */
async function optional<T>(load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch {
    return undefined;
  }
}

/** The peers' modules, imported before any clock starts (the workers' imports are not timed); a missing one is undefined. */
export async function peerModules(): Promise<{
  tiktoken: typeof import("tiktoken") | undefined;
  jsTiktoken: typeof import("js-tiktoken/lite") | undefined;
  gptTokenizer: typeof import("gpt-tokenizer/BytePairEncodingCore") | undefined;
}> {
  return {
    tiktoken: await optional(() => import("tiktoken")),
    jsTiktoken: await optional(() => import("js-tiktoken/lite")),
    gptTokenizer: await optional(() => import("gpt-tokenizer/BytePairEncodingCore")),
  };
}

export interface Peer {
  /** Ordinary encode (no special tokens matched in the text); tiktoken's own Uint32Array, uncopied. */
  encode(text: string): ArrayLike<number>;
  /** One ID back to its text (the "first decoded token" of the cold start). */
  decodeOne(id: number): string;
}

/**
 * Loads one peer with Qwen3's ranks: reads its rank file and constructs the encoder; this is what
 * "load" times. Call preparePeerFiles() before the clock: it writes the rank files and memoizes
 * the split pattern, so nothing here reads tokenizer.json.
 */
export function loadPeer(lib: PeerLib, mods: Awaited<ReturnType<typeof peerModules>>): Peer {
  const pattern = qwen3TiktokenRanks().pattern;
  const missing = (): never => {
    throw new Error(`${lib} is not installed (bench devDependency)`);
  };
  if (lib === "tiktoken") {
    const tk = mods.tiktoken ?? missing();
    const enc = new tk.Tiktoken(readFileSync(qwen3TiktokenRanks().file, "utf8"), {}, pattern);
    const td = new TextDecoder();
    return {
      encode: (t) => enc.encode_ordinary(t),
      decodeOne: (id) => td.decode(enc.decode(Uint32Array.of(id))),
    };
  }
  if (lib === "js-tiktoken") {
    const js = mods.jsTiktoken ?? missing();
    const enc = new js.Tiktoken({
      pat_str: jsSplitRegex(pattern).source,
      special_tokens: { [QWEN3_EOT[0]]: QWEN3_EOT[1] },
      bpe_ranks: readFileSync(qwen3JsTiktokenFile(), "utf8"),
    });
    return { encode: (t) => enc.encode(t), decodeOne: (id) => enc.decode([id]) };
  }
  const gpt = mods.gptTokenizer ?? missing();
  const core = new gpt.BytePairEncodingCore({
    bytePairRankDecoder: JSON.parse(readFileSync(qwen3GptTokenizerFile(), "utf8")) as (string | number[])[],
    specialTokensEncoder: new Map([QWEN3_EOT]),
    tokenSplitRegex: jsSplitRegex(pattern),
  });
  return { encode: (t) => core.encodeNative(t), decodeOne: (id) => core.decodeNative([id]) };
}

/** Builds every peer's rank file (untimed; the first run converts tokenizer.json once). */
export function preparePeerFiles(): void {
  qwen3TiktokenRanks();
  qwen3JsTiktokenFile();
  qwen3GptTokenizerFile();
}
