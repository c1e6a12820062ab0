// Shared by the crosscheck-*.test.ts suites: a long-lived Google SentencePiece reference
// process (./crosscheck-spm.py, JSON lines), typed handles on the JS packages of our design
// (sentencepiece-js, @huggingface/tokenizers: CommonJS without usable types), and a batch
// comparison that reports the shortest disagreeing input with both sides' output.

import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { expect } from "vitest";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
export const PYTHON = "/usr/bin/python3";

// ---------------------------------------------------------------------------- reference process

/** Why the SentencePiece reference cannot run here, or undefined when it can. */
export function spmReferenceMissing(): string | undefined {
  const r = spawnSync(PYTHON, ["-c", "import sentencepiece, google.protobuf"], { encoding: "utf8" });
  if (r.error !== undefined) return `${PYTHON} cannot be run (${r.error.message})`;
  if (r.status !== 0)
    return `${PYTHON} has no sentencepiece/protobuf module: ${r.stderr.trim().split("\n").pop()}`;
  return undefined;
}

interface Reply {
  error?: string;
  ids?: number[][];
  texts?: string[];
  pieces?: number;
  version?: string;
}

/** Google SentencePiece (C++) behind one python3 process; requests are answered in order. */
export class SpmReference {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];
  private stderr = "";

  constructor() {
    this.child = spawn(PYTHON, [resolve(here, "crosscheck-spm.py")], { stdio: "pipe" });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d: string) => {
      this.stderr += d;
    });
    createInterface({ input: this.child.stdout }).on("line", (line) => this.waiting.shift()?.(line));
    this.child.on("exit", (code) => {
      for (const w of this.waiting.splice(0))
        w(JSON.stringify({ error: `reference exited ${code}: ${this.stderr}` }));
    });
  }

  private async call(req: object): Promise<Reply> {
    const line = await new Promise<string>((res) => {
      this.waiting.push(res);
      this.child.stdin.write(`${JSON.stringify(req)}\n`);
    });
    const reply = JSON.parse(line) as Reply;
    if (reply.error !== undefined) throw new Error(`crosscheck-spm.py: ${reply.error}`);
    return reply;
  }

  /** Loads `path` as `name`, plus a copy with `neutral` ids retyped CONTROL. Returns the binding's version. */
  async load(name: string, path: string, neutral: readonly number[]): Promise<string> {
    return (await this.call({ op: "load", name, path, neutral })).version as string;
  }

  async saveNeutral(name: string, path: string): Promise<void> {
    await this.call({ op: "save_neutral", name, path });
  }

  async encode(name: string, neutral: boolean, texts: readonly string[]): Promise<number[][]> {
    return (await this.call({ op: "encode", name, neutral, texts })).ids as number[][];
  }

  async decode(name: string, neutral: boolean, ids: readonly (readonly number[])[]): Promise<string[]> {
    return (await this.call({ op: "decode", name, neutral, ids })).texts as string[];
  }

  close(): void {
    this.child.stdin.end();
  }
}

// ---------------------------------------------------------------------------- packages of our design

export { type HfJsTokenizer, loadHfJs, loadSpmWasm, type SpmWasm } from "./js-packages.ts";

/** The version in a package's own package.json (found by walking up from its entry point). */
export function packageVersion(name: string): string {
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(resolve(dir, "package.json"), "utf8")) as {
        name?: string;
        version: string;
      };
      if (pkg.name === name) return pkg.version;
    } catch {
      // no package.json at this level
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json for ${name}`);
    dir = up;
  }
}

// ---------------------------------------------------------------------------- inputs and reports

/** A JS string made valid Unicode: each lone surrogate becomes U+FFFD (what UTF-8 encoding does). */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

export interface Mismatch<I, O> {
  readonly index: number;
  readonly input: I;
  readonly want: O;
  readonly got: O;
}

/** Every index where `got` differs from `want` (deep equality via JSON). */
export function mismatches<I, O>(
  inputs: readonly I[],
  want: readonly O[],
  got: readonly O[],
): Mismatch<I, O>[] {
  const out: Mismatch<I, O>[] = [];
  for (let i = 0; i < inputs.length; i++) {
    if (JSON.stringify(want[i]) !== JSON.stringify(got[i])) {
      out.push({ index: i, input: inputs[i] as I, want: want[i] as O, got: got[i] as O });
    }
  }
  return out;
}

/** The shortest few mismatches, printed: what a failing assertion shows. */
export function report<I, O>(label: string, found: readonly Mismatch<I, O>[], total: number): string {
  const len = (m: Mismatch<I, O>): number => JSON.stringify(m.input).length;
  const shown = [...found].sort((a, b) => len(a) - len(b)).slice(0, 3);
  const lines = [`${label}: ${found.length} of ${total} disagree; shortest:`];
  for (const m of shown) {
    lines.push(`  input ${JSON.stringify(m.input).slice(0, 300)}`);
    lines.push(`    reference ${JSON.stringify(m.want).slice(0, 300)}`);
    lines.push(`    other     ${JSON.stringify(m.got).slice(0, 300)}`);
  }
  return lines.join("\n");
}

/** Where outputs disagree with a reference, collected as report() texts ("" when they never do). */
export class Disagreements {
  private readonly found: string[] = [];

  /** `got` against `want` on `inputs`; the report says "N of `total`" (default: the inputs). */
  check<I, O>(
    label: string,
    inputs: readonly I[],
    want: readonly O[],
    got: readonly O[],
    total = inputs.length,
  ): void {
    const m = mismatches(inputs, want, got);
    if (m.length > 0) this.found.push(report(label, m, total));
  }

  /** Each class's texts encoded and its reference IDs decoded, against the reference's. */
  checkClasses(
    classes: readonly ReferenceClass[],
    encode: (text: string) => readonly number[],
    decode: (ids: number[]) => string,
  ): void {
    for (const c of classes) {
      this.check(`${c.name} encode`, c.texts, c.want, c.texts.map(encode));
      this.check(`${c.name} decode`, c.want, c.wantText, c.want.map(decode));
    }
  }

  text(): string {
    return this.found.join("\n");
  }
}

/** Every class's encode and decode agree with the reference, and each class holds `perClass` texts. */
export function expectClassesAgree(
  classes: readonly ReferenceClass[],
  encode: (text: string) => readonly number[],
  decode: (ids: number[]) => string,
  perClass: number,
): void {
  const d = new Disagreements();
  d.checkClasses(classes, encode, decode);
  expect(d.text()).toBe("");
  expect(classes.reduce((k, c) => k + c.texts.length, 0)).toBe(classes.length * perClass);
}

/** One input class of a crosscheck: its texts, and the reference's IDs for them and text for those IDs. */
export interface ReferenceClass {
  readonly name: string;
  readonly texts: readonly string[];
  readonly want: readonly number[][];
  readonly wantText: readonly string[];
}

/**
 * What sentencepiece-js returns for a decoded string `s` (known difference of its binding, not
 * of SentencePiece): embind converts the std::string in NUL-separated segments with
 * UTF8ToString, which uses `new TextDecoder("utf8")` for a segment longer than 16 bytes, and
 * that decoder drops a leading U+FEFF (BOM). Shorter segments are decoded by hand and keep it.
 */
export function emscriptenStdString(s: string): string {
  const utf8 = new TextEncoder();
  return s
    .split("\0")
    .map((seg) => (seg.startsWith("\ufeff") && utf8.encode(seg).length > 16 ? seg.slice(1) : seg))
    .join("\0");
}

/** The golden vectors' folder (test-vectors/). */
export const VECTORS = resolve(here, "../../../test-vectors");

/** The non-empty documents of test-vectors/inputs.json (the inputs of every golden). */
export function inputDocuments(): string[] {
  const inputs = JSON.parse(readFileSync(resolve(VECTORS, "inputs.json"), "utf8")) as {
    inputs: { text: string }[];
  };
  return inputs.inputs.map((i) => i.text).filter((t) => t.length > 0);
}

/**
 * Text cut from real documents: 1 to `maxParts` of `docs` joined by `sep`, then up to `maxLen`
 * code points from a random start (wrapping around the joined text).
 */
export function documentSlices(
  docs: readonly string[],
  sep: string,
  maxParts: number,
  maxLen: number,
): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(fc.constantFrom(...docs), { minLength: 1, maxLength: maxParts }),
      fc.nat(),
      fc.nat({ max: maxLen }),
    )
    .map(([parts, start, len]) => {
      const all = [...parts.join(sep)];
      const from = start % all.length;
      return all.slice(from, from + len).join("");
    });
}

/** The marker texts of all three formats, and piece-like strings: plain text to SentencePiece. */
export const SENTENCEPIECE_MARKER_TEXTS: readonly string[] = [
  "<s>",
  "</s>",
  "<unk>",
  "<|im_start|>",
  "<|im_end|>",
  "<|plugin|>",
  "<|interpreter|>",
  "<|action_start|>",
  "<|action_end|>",
  "[gMASK]",
  "[MASK]",
  "[sMASK]",
  "sop",
  "eop",
  "<|system|>",
  "<|user|>",
  "<|assistant|>",
  "<|observation|>",
  "<|endoftext|>",
  "<think>",
  "<0x0A>",
  "<0xE4>",
  "▁",
  "▁▁",
  "[UNUSED_TOKEN_",
];
